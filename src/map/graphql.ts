/**
 * RunPod GraphQL operations (MIGRATION.md §8). GraphQL is not retired and its documents are never
 * rewritten (their field names such as `imageName` are GraphQL names, not REST v1 body fields); this
 * table only lets the tools tell a user which operations now have a REST v2 route.
 */
export interface GraphqlRestRoute {
  /** The GraphQL field name of the operation (`podStop`). */
  operation: string;
  /** Method and path on the v2 API (`POST /v2/pods/{id}/action`). */
  route: string;
  /** A fixed JSON body the v2 call carries (pod actions). */
  body?: Readonly<Record<string, string>>;
  /** Anything else the user must know about the move. */
  note?: string;
}

export const GRAPHQL_REST_ROUTES: readonly GraphqlRestRoute[] = [
  { operation: 'podFindAndDeployOnDemand', route: 'POST /v2/pods' },
  { operation: 'podResume', route: 'POST /v2/pods/{id}/action', body: { action: 'start' } },
  { operation: 'podStop', route: 'POST /v2/pods/{id}/action', body: { action: 'stop' } },
  { operation: 'podTerminate', route: 'DELETE /v2/pods/{id}' },
  { operation: 'saveEndpoint', route: 'POST /v2/serverless (create) or PATCH /v2/serverless/{id} (update)' },
  { operation: 'deleteEndpoint', route: 'DELETE /v2/serverless/{id}' },
  { operation: 'saveTemplate', route: 'POST /v2/templates (create) or PATCH /v2/templates/{id} (update)' },
  { operation: 'deleteTemplate', route: 'DELETE /v2/templates/{id}', note: 'GraphQL deletes a template by name, v2 by id' },
  {
    operation: 'gpuTypes',
    route: 'GET /v2/catalog/gpus?include=AVAILABILITY&product=POD',
    note: '`product` is required with `include`',
  },
  {
    operation: 'lowestPrice',
    route: 'GET /v2/catalog/gpus?include=AVAILABILITY&product=POD',
    note: '`product` is required with `include`',
  },
];

/** Operations that stay on GraphQL (secrets, account identity, spot pods): nothing to report. */
export const GRAPHQL_ONLY_OPERATIONS: readonly string[] = ['secretCreate', 'secretDelete', 'myself', 'podRentInterruptable', 'podBidResume'];

/** The path of RunPod's GraphQL endpoint on its API host (`https://api.runpod.io/graphql`). */
export const GRAPHQL_PATH = '/graphql';

export function graphqlRoute(operation: string): GraphqlRestRoute | undefined {
  return GRAPHQL_REST_ROUTES.find((r) => r.operation === operation);
}
