/**
 * The account the simulated v2 API serves: the team's seeded resources and what its requests
 * create, change and delete, shaped as v2 answers them.
 */

/** A resource as v2 returns it: `id` plus its fields (partial in seeds: only what a test reads). */
export type Resource = { id: string } & Record<string, unknown>;
/** A resource in a seed: `id` may be left out (one is assigned). */
export type Seeded = { id?: string } & Record<string, unknown>;
/** A billing record in a seed: a time bucket and its amounts (`totalAmount`, …) plus the id it bills. */
export type BillingRecord = Record<string, unknown>;

export interface Seed {
  pods?: Seeded[];
  /** Serverless endpoints (`/v2/serverless`, listed as `{ endpoints }`). */
  endpoints?: Seeded[];
  templates?: Seeded[];
  networkVolumes?: Seeded[];
  registries?: Seeded[];
  /** Records for `/v2/billing/pods`, `/serverless`, `/network-volumes`, `/endpoints` (public endpoints) and `/v2/billing`. */
  billing?: { pods?: BillingRecord[]; serverless?: BillingRecord[]; networkVolumes?: BillingRecord[]; endpoints?: BillingRecord[]; account?: BillingRecord[] };
}

export type Kind = 'pods' | 'endpoints' | 'templates' | 'networkVolumes' | 'registries';
export type BillingKind = keyof NonNullable<Seed['billing']>;

/** Valid transitions per pod status (a pod's `actions`); any other action is a 409. */
export const POD_ACTIONS: Readonly<Record<string, readonly string[]>> = {
  PROVISIONING: ['terminate'],
  STARTING: ['stop', 'terminate'],
  RUNNING: ['stop', 'restart', 'terminate'],
  EXITED: ['start', 'terminate'],
  ERROR: ['restart', 'terminate'],
};

const ID_PREFIX: Record<Kind, string> = { pods: 'pod', endpoints: 'ep', templates: 'tpl', networkVolumes: 'vol', registries: 'reg' };

/** What v2 fills in on create where the body leaves it out (MIGRATION.md §4: template SSH and Jupyter default on). */
const CREATE_DEFAULTS: Record<Kind, (body: Record<string, unknown>) => Record<string, unknown>> = {
  pods: () => ({ status: 'RUNNING', env: {}, ports: [] }),
  endpoints: () => ({ type: 'QUEUE', workers: { min: 0, max: 3 }, dataCenterIds: [], networkVolumes: [], flashboot: 'OFF' }),
  templates: () => ({ serverless: false, public: false, startSsh: true, startJupyter: true, env: {}, ports: [] }),
  networkVolumes: () => ({ type: 'STANDARD' }),
  registries: () => ({}),
};

export class Account {
  private readonly items: Record<Kind, Resource[]>;
  readonly billing: Required<NonNullable<Seed['billing']>>;
  private readonly next: Record<Kind, number> = { pods: 0, endpoints: 0, templates: 0, networkVolumes: 0, registries: 0 };

  constructor(seed: Seed = {}) {
    const take = (kind: Kind): Resource[] => (seed[kind] ?? []).map((s) => ({ ...(kind === 'pods' ? { status: 'RUNNING' } : {}), ...s, id: s.id ?? this.newId(kind) }));
    this.items = { pods: take('pods'), endpoints: take('endpoints'), templates: take('templates'), networkVolumes: take('networkVolumes'), registries: take('registries') };
    const b = seed.billing ?? {};
    this.billing = { pods: [...(b.pods ?? [])], serverless: [...(b.serverless ?? [])], networkVolumes: [...(b.networkVolumes ?? [])], endpoints: [...(b.endpoints ?? [])], account: [...(b.account ?? [])] };
  }

  private newId(kind: Kind): string {
    let id: string;
    do id = `${ID_PREFIX[kind]}_${++this.next[kind]}`;
    while (this.items?.[kind]?.some((r) => r.id === id));
    return id;
  }

  list(kind: Kind): Resource[] {
    return this.items[kind].map((r) => this.view(kind, r));
  }

  get(kind: Kind, id: string): Resource | null {
    const r = this.items[kind].find((x) => x.id === id);
    return r ? this.view(kind, r) : null;
  }

  create(kind: Kind, body: Record<string, unknown>): Resource {
    const { password: _secret, ...fields } = body;
    const r: Resource = { ...CREATE_DEFAULTS[kind](body), ...(kind === 'registries' ? fields : body), id: this.newId(kind), ...(kind === 'pods' || kind === 'endpoints' ? { createdAt: new Date().toISOString() } : {}) };
    this.items[kind].push(r);
    return this.view(kind, r);
  }

  update(kind: Kind, id: string, changes: Record<string, unknown>): Resource | null {
    const r = this.items[kind].find((x) => x.id === id);
    if (!r) return null;
    Object.assign(r, changes);
    return this.view(kind, r);
  }

  remove(kind: Kind, id: string): boolean {
    const i = this.items[kind].findIndex((x) => x.id === id);
    if (i < 0) return false;
    this.items[kind].splice(i, 1);
    return true;
  }

  /** A resource as returned: a pod's `actions` follow its status. */
  private view(kind: Kind, r: Resource): Resource {
    return kind === 'pods' ? { ...r, actions: [...(POD_ACTIONS[String(r.status)] ?? ['terminate'])] } : { ...r };
  }
}
