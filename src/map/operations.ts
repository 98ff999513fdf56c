/**
 * The v1 operations (method + path template from runpod-v1.openapi.json) and their v2 targets
 * (MIGRATION.md §2). Paths are relative to the v1 base and to the v2 base respectively, so a
 * migrated base URL (`https://api.runpod.io/v2`) keeps working with the rewritten relative path.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** v1 resources, keyed by their first path segment. */
export type V1Resource = 'pods' | 'endpoints' | 'templates' | 'networkvolumes' | 'containerregistryauth' | 'billing';

export interface V2Target {
  method: HttpMethod;
  /** Relative to the v2 base (`https://api.runpod.io/v2`), `{id}`-style parameters. */
  path: string;
  /** A fixed JSON body the v2 call must carry (pod actions). */
  body?: Readonly<Record<string, string>>;
}

export interface V1Operation {
  /** The v1 spec's operationId (`UpdatePod` appears twice: PATCH and the POST alias). */
  id: string;
  method: HttpMethod;
  /** Relative to the v1 base, with the v1 parameter names (`/pods/{podId}/stop`). */
  path: string;
  resource: V1Resource;
  /** `null` when v2 has no equivalent (pod reset). */
  v2: V2Target | null;
  /** How the v1 call changes beyond base and path renames: drives which rule explains it. */
  change: 'path' | 'action' | 'update-alias' | 'removed';
}

const op = (
  id: string,
  method: HttpMethod,
  path: string,
  v2: V2Target | null,
  change: V1Operation['change'] = 'path',
): V1Operation => ({ id, method, path, resource: path.split('/')[1] as V1Resource, v2, change });

const to = (method: HttpMethod, path: string, body?: Record<string, string>): V2Target =>
  body ? { method, path, body } : { method, path };

const action = (name: 'start' | 'stop' | 'restart') =>
  op(`${name[0]!.toUpperCase()}${name.slice(1)}Pod`, 'POST', `/pods/{podId}/${name}`, to('POST', '/pods/{id}/action', { action: name }), 'action');

export const V1_OPERATIONS: readonly V1Operation[] = [
  op('ListPods', 'GET', '/pods', to('GET', '/pods')),
  op('CreatePod', 'POST', '/pods', to('POST', '/pods')),
  op('GetPod', 'GET', '/pods/{podId}', to('GET', '/pods/{id}')),
  op('UpdatePod', 'PATCH', '/pods/{podId}', to('PATCH', '/pods/{id}')),
  op('DeletePod', 'DELETE', '/pods/{podId}', to('DELETE', '/pods/{id}')),
  op('UpdatePod', 'POST', '/pods/{podId}/update', to('PATCH', '/pods/{id}'), 'update-alias'),
  action('start'),
  action('stop'),
  action('restart'),
  op('ResetPod', 'POST', '/pods/{podId}/reset', null, 'removed'),

  op('ListEndpoints', 'GET', '/endpoints', to('GET', '/serverless')),
  op('CreateEndpoint', 'POST', '/endpoints', to('POST', '/serverless')),
  op('GetEndpoint', 'GET', '/endpoints/{endpointId}', to('GET', '/serverless/{id}')),
  op('UpdateEndpoint', 'PATCH', '/endpoints/{endpointId}', to('PATCH', '/serverless/{id}')),
  op('DeleteEndpoint', 'DELETE', '/endpoints/{endpointId}', to('DELETE', '/serverless/{id}')),
  op('UpdateEndpoint', 'POST', '/endpoints/{endpointId}/update', to('PATCH', '/serverless/{id}'), 'update-alias'),

  op('ListTemplates', 'GET', '/templates', to('GET', '/templates')),
  op('CreateTemplate', 'POST', '/templates', to('POST', '/templates')),
  op('GetTemplate', 'GET', '/templates/{templateId}', to('GET', '/templates/{id}')),
  op('UpdateTemplate', 'PATCH', '/templates/{templateId}', to('PATCH', '/templates/{id}')),
  op('DeleteTemplate', 'DELETE', '/templates/{templateId}', to('DELETE', '/templates/{id}')),
  op('UpdateTemplate', 'POST', '/templates/{templateId}/update', to('PATCH', '/templates/{id}'), 'update-alias'),

  op('ListNetworkVolumes', 'GET', '/networkvolumes', to('GET', '/network-volumes')),
  op('CreateNetworkVolume', 'POST', '/networkvolumes', to('POST', '/network-volumes')),
  op('GetNetworkVolume', 'GET', '/networkvolumes/{networkVolumeId}', to('GET', '/network-volumes/{id}')),
  op('UpdateNetworkVolume', 'PATCH', '/networkvolumes/{networkVolumeId}', to('PATCH', '/network-volumes/{id}')),
  op('DeleteNetworkVolume', 'DELETE', '/networkvolumes/{networkVolumeId}', to('DELETE', '/network-volumes/{id}')),
  op('UpdateNetworkVolume', 'POST', '/networkvolumes/{networkVolumeId}/update', to('PATCH', '/network-volumes/{id}'), 'update-alias'),

  op('ListContainerRegistryAuths', 'GET', '/containerregistryauth', to('GET', '/registries')),
  op('CreateContainerRegistryAuth', 'POST', '/containerregistryauth', to('POST', '/registries')),
  op('GetContainerRegistryAuth', 'GET', '/containerregistryauth/{containerRegistryAuthId}', to('GET', '/registries/{id}')),
  op('DeleteContainerRegistryAuth', 'DELETE', '/containerregistryauth/{containerRegistryAuthId}', to('DELETE', '/registries/{id}')),

  op('PodBilling', 'GET', '/billing/pods', to('GET', '/billing/pods')),
  // Trap: /v2/billing/endpoints exists but bills *public* endpoints; v1 serverless billing is /v2/billing/serverless.
  op('EndpointBilling', 'GET', '/billing/endpoints', to('GET', '/billing/serverless')),
  op('NetworkVolumeBilling', 'GET', '/billing/networkvolumes', to('GET', '/billing/network-volumes')),
];

/** The v2 path prefix the map's relative v2 paths live under (the v2 spec's paths start with it). */
export const V2_PATH_PREFIX = '/v2';

/** Why a v1 path segment has a different name in v2: used in finding messages. */
export const RENAME_NOTES: Readonly<Record<string, string>> = {
  endpoints: 'serverless endpoints live under /serverless in v2',
  networkvolumes: 'v2 spells network volumes with a hyphen (/networkvolumes is a 404)',
  containerregistryauth: 'registry credentials are /registries in v2',
  'billing/endpoints': 'serverless billing is /billing/serverless in v2 (/v2/billing/endpoints bills public endpoints, a different product)',
};

/** What to tell the user for pod reset, which v2 cannot do. */
export const POD_RESET_ADVICE =
  'POST /pods/{podId}/reset has no v2 equivalent: the closest is the restart action (POST /v2/pods/{id}/action {"action":"restart"}); a true reset is a stop then a start.';
