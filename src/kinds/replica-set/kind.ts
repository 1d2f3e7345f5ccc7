// A read replica set (SPEC section 1): it belongs to a service, and a service created afresh gets
// new sets; its size resizes in place, pooler and environment have their ops, name and nodes
// replace it, and so does the terminal status `error`. Its managed fields, its wire body, its
// operations, what its statuses mean, and how it is planned.
import {
  afterCreateSteps,
  createBody,
  del,
  environmentField,
  fieldChange,
  endpointOf,
  fingerprintFields,
  isAllowedServiceSize,
  isWritableName,
  readLiveFields,
  str,
  nameField,
  num,
  post,
  PROJECT_ROUTE,
  replaceChanges as fieldReplaceChanges,
  serviceAddress,
  sizePairProblem,
  sizeSchema,
  updateSteps,
  type ActionReason,
  type Address,
  type DesiredReplicaSet,
  type EndpointDto,
  type FieldDescriptor,
  type FieldChange,
  type FieldSet,
  type Json,
  type LiveReplicaSet,
  type MetadataDto,
  type OperationSpec,
} from '../../model/index.js';
import { effectiveProtect, refTo, type PlanContext } from '../../planner/context.js';
import { change, createdAfresh, draft, type Draft } from '../../planner/drafts.js';
import { poolerField, type ConnectionPoolerDto } from '../service/fields.js';
import type { KindDefinition, KindPlanner } from '../types.js';

// ---- statuses -------------------------------------------------------------------------------

/** creating | active | resizing | deleting | error (cloud-api.md); anything newer passes through. */
const STATUSES: ReadonlySet<string> = new Set(['creating', 'active', 'resizing', 'deleting', 'error']);
const SETTLING = new Set(['creating', 'resizing']);

export const isReplicaSetSettling = (status: string): boolean => SETTLING.has(status);
/** Being deleted: as good as gone. */
export const isReplicaSetGone = (r: Pick<LiveReplicaSet, 'status'>): boolean => r.status === 'deleting';

// ---- wire -----------------------------------------------------------------------------------

export type ReplicaSetStatusDto = 'creating' | 'active' | 'resizing' | 'deleting' | 'error';

export interface ReadReplicaSetDto {
  id: string;
  name: string;
  cpu_millis: number;
  memory_gbs: number;
  nodes: number;
  connection_pooler?: ConnectionPoolerDto;
  metadata?: MetadataDto;
  status: ReplicaSetStatusDto | (string & {});
  endpoint?: EndpointDto;
}
type ReplicaSetDto = ReadReplicaSetDto;

export interface CreateReplicaSetRequestDto {
  cpu_millis: number;
  memory_gbs: number;
  name: string;
  nodes: number;
}

// ---- fields ---------------------------------------------------------------------------------

type Field = FieldDescriptor<DesiredReplicaSet, LiveReplicaSet, ReplicaSetDto>;

const name: Field = nameField<DesiredReplicaSet, LiveReplicaSet, ReplicaSetDto>('replica set');

// cpu_millis and memory_gbs are one pair: one field, one resize.
const size: Field = {
  id: 'size',
  schema: { cpu_millis: sizeSchema('cpu_millis', false), memory_gbs: sizeSchema('memory_gbs', false) },
  desired: (raw, into) => {
    into.cpuMillis = raw.cpu_millis as number;
    into.memoryGbs = raw.memory_gbs as number;
  },
  wire: (w, into) => {
    into.cpuMillis = num(w.cpu_millis) ?? 0;
    into.memoryGbs = num(w.memory_gbs) ?? 0;
  },
  live: (l) => ({ cpuMillis: l.cpuMillis, memoryGbs: l.memoryGbs }),
  record: (d) => ({ cpuMillis: d.cpuMillis, memoryGbs: d.memoryGbs }),
  fingerprint: (l: LiveReplicaSet, out: Json) => {
    out.cpu_millis = l.cpuMillis;
    out.memory_gbs = l.memoryGbs;
  },
  update: (d, l) => {
    if (d.cpuMillis === l.cpuMillis && d.memoryGbs === l.memoryGbs) return undefined;
    const changes: FieldChange[] = [];
    if (d.cpuMillis !== l.cpuMillis) changes.push(fieldChange('cpu_millis', l.cpuMillis, d.cpuMillis));
    if (d.memoryGbs !== l.memoryGbs) changes.push(fieldChange('memory_gbs', l.memoryGbs, d.memoryGbs));
    return { op: 'resizeReplicaSet', changes, request: { cpu_millis: String(d.cpuMillis), memory_gbs: String(d.memoryGbs) } };
  },
  // Create takes integers, unlike resize (cloud-api.md 4.5).
  create: (d, body) => {
    body.request.cpu_millis = d.cpuMillis;
    body.request.memory_gbs = d.memoryGbs;
    body.changes.push(fieldChange('cpu_millis', null, d.cpuMillis), fieldChange('memory_gbs', null, d.memoryGbs));
  },
  check: (raw) => sizePairProblem(raw, false),
  export: (l) => ({ values: { cpu_millis: l.cpuMillis, memory_gbs: l.memoryGbs } }),
};

const nodes: Field = {
  id: 'nodes',
  schema: { nodes: { type: 'integer', minimum: 1, maximum: 10, description: 'Number of nodes in the replica set, 1-10. Changing it replaces the replica set.' } },
  desired: (raw, into) => void (into.nodes = raw.nodes as number),
  wire: (w, into) => void (into.nodes = num(w.nodes) ?? 0),
  live: (l) => l.nodes,
  record: (d) => d.nodes,
  fingerprint: 'nodes',
  replace: (d, l) => (d.nodes === l.nodes ? undefined : [fieldChange('nodes', l.nodes, d.nodes, true)]),
  create: (d, body) => {
    body.request.nodes = d.nodes;
    body.changes.push(fieldChange('nodes', null, d.nodes));
  },
  export: (l) => ({ values: { nodes: l.nodes } }),
};

const pooler: Field = poolerField('replica set', { on: 'enableReplicaPooler', off: 'disableReplicaPooler' });

const environment: Field = {
  ...environmentField<DesiredReplicaSet, LiveReplicaSet, ReplicaSetDto>('replica set', 'setReplicaEnvironment'),
  // A new replica set starts as DEV.
  afterCreate: (d) =>
    d.environment === undefined || d.environment === 'DEV'
      ? undefined
      : { op: 'setReplicaEnvironment', changes: [fieldChange('environment', 'DEV', d.environment)], request: { environment: d.environment } },
};

export const REPLICA_SET_FIELDS: FieldSet<DesiredReplicaSet, LiveReplicaSet, ReplicaSetDto> = {
  fields: [name, size, nodes, pooler, environment],
  create: [name, size, nodes],
  sortedRequest: true,
  replace: [name, nodes],
};

// ---- operations -----------------------------------------------------------------------------

const SERVICE = `${PROJECT_ROUTE}/services/{service_id}`;
const REPLICA_SET = `${SERVICE}/replicaSets/{replica_set_id}`;

const OPS = {
  createReplicaSet: { kind: 'replica_set', api: post(`${SERVICE}/replicaSets`), rank: 80, risk: 'none', safety: 'create', effect: 'create', readyPoint: false, needsReady: true, wait: 'ready' },
  deleteReplicaSet: { kind: 'replica_set', api: del(REPLICA_SET), rank: 0, risk: 'availability', safety: 'checked', effect: 'delete', readyPoint: false, needsReady: false, wait: 'gone' },
  resizeReplicaSet: { kind: 'replica_set', api: post(`${REPLICA_SET}/resize`), rank: 130, risk: 'none', safety: 'checked', effect: 'update', readyPoint: false, needsReady: true, wait: 'ready' },
  enableReplicaPooler: { kind: 'replica_set', api: post(`${REPLICA_SET}/enablePooler`), rank: 180, risk: 'none', safety: 'repeatable', effect: 'update', readyPoint: false, needsReady: false, wait: 'none' },
  disableReplicaPooler: { kind: 'replica_set', api: post(`${REPLICA_SET}/disablePooler`), rank: 190, risk: 'connectivity', safety: 'repeatable', effect: 'update', readyPoint: false, needsReady: false, wait: 'none' },
  setReplicaEnvironment: { kind: 'replica_set', api: post(`${REPLICA_SET}/setEnvironment`), rank: 150, risk: 'none', safety: 'repeatable', effect: 'update', readyPoint: false, needsReady: false, wait: 'none' },
} satisfies Record<string, OperationSpec>;

/** Wire -> live: tolerant, its managed fields read by their descriptors. */
export function mapReplicaSet(dto: ReadReplicaSetDto, serviceId: string): LiveReplicaSet {
  const live = { id: dto.id, serviceId, status: str(dto.status) ?? 'unknown' } as LiveReplicaSet;
  readLiveFields(REPLICA_SET_FIELDS, dto, live);
  const endpoint = endpointOf(dto.endpoint);
  if (endpoint) live.endpoint = endpoint;
  return live;
}

/** The sets a services-list item carries (cloud-api.md does; the real API may not): undefined when none. */
const embeddedIn = (service: unknown): ReadReplicaSetDto[] | undefined => {
  const list = (service as { read_replica_sets?: unknown }).read_replica_sets;
  return Array.isArray(list) ? (list as ReadReplicaSetDto[]) : undefined;
};

// ---- planning (SPEC section 3) --------------------------------------------------------------

function createDrafts(d: DesiredReplicaSet, reason: ActionReason, protect: boolean, ctx: PlanContext): Draft[] {
  const owner = serviceAddress(d.serviceKey);
  const refs = { target: { address: d.address }, service: refTo(ctx, owner) };
  const base = { address: d.address, kind: 'replica_set' as const, reason, refs, owner };
  const { request, changes } = createBody(REPLICA_SET_FIELDS, d);
  const out = [draft({ ...base, op: 'createReplicaSet', changes, request, ...(protect ? { protect: true } : {}) })];
  for (const step of afterCreateSteps(REPLICA_SET_FIELDS, d, false)) out.push(draft({ ...base, ...step }));
  return out;
}

function deleteDraft(address: Address, owner: Address | undefined, live: LiveReplicaSet, reason: ActionReason, changes: FieldChange[]): Draft {
  return draft({
    address,
    kind: 'replica_set',
    op: 'deleteReplicaSet',
    reason,
    changes,
    refs: { target: { address, id: live.id }, service: { ...(owner ? { address: owner } : {}), id: live.serviceId } },
    freesName: live.name,
    ...(owner ? { owner } : {}),
  });
}

function replaceChanges(d: DesiredReplicaSet, l: LiveReplicaSet): FieldChange[] {
  // `error` is terminal (resize is refused, delete works): replace it, as Terraform does a tainted resource.
  const forcing = fieldReplaceChanges(REPLICA_SET_FIELDS, d, l);
  if (l.status === 'error') forcing.unshift(change('status', 'error', 'active', true));
  return forcing;
}

function updateDrafts(d: DesiredReplicaSet, l: LiveReplicaSet, ctx: PlanContext): Draft[] {
  const steps = updateSteps(REPLICA_SET_FIELDS, d, l, undefined);
  // Most replica sets have nothing to change: their references are looked up only for a step.
  if (steps.length === 0) return [];
  const owner = serviceAddress(d.serviceKey);
  const base = { address: d.address, kind: 'replica_set' as const, reason: 'changed' as const, owner, refs: { target: refTo(ctx, d.address), service: refTo(ctx, owner) } };
  return steps.map((step) => draft({ ...base, ...step }));
}

const planner: KindPlanner<DesiredReplicaSet, LiveReplicaSet> = {
  planDesired(m, ctx) {
    const d = m.desired;
    const protect = effectiveProtect(d, m.entry);
    const owner = serviceAddress(d.serviceKey);
    if (!m.live) {
      const reason = createdAfresh(ctx, d.address, m.entry !== undefined);
      return createDrafts(d, reason, protect, ctx);
    }
    const serviceReason = ctx.fresh.get(owner);
    const forcing = replaceChanges(d, m.live);
    if (serviceReason === undefined && forcing.length === 0 && !ctx.options.replace.includes(d.address)) return updateDrafts(d, m.live, ctx);
    const failedOnly = forcing.length > 0 && forcing.every((c) => c.path === 'status');
    const ownReason: ActionReason = failedOnly ? 'failed' : forcing.length > 0 ? 'immutable-field' : 'replace-requested';
    const reason: ActionReason = serviceReason !== undefined ? 'parent-replaced' : ownReason;
    ctx.fresh.set(d.address, reason);
    return [deleteDraft(d.address, owner, m.live, reason, forcing), ...createDrafts(d, reason, protect, ctx)];
  },
  planRemoved(r, live, ctx) {
    const owner = [...ctx.liveIds].find(([a, id]) => id === live.serviceId && a.startsWith('service.'))?.[0];
    return [deleteDraft(r.address, owner, live, 'removed', [])];
  },
  fingerprint(l) {
    return fingerprintFields(REPLICA_SET_FIELDS, l, { id: l.id, service_id: l.serviceId, failed: l.status === 'error' });
  },
};

// ---- the kind -------------------------------------------------------------------------------

export const replicaSetKind = {
  kind: 'replica_set',
  parent: 'service',
  listKey: 'replicaSets',
  naming: { key: 'name', desired: (d) => d.name, live: (l) => l.name },
  fields: REPLICA_SET_FIELDS,
  ops: OPS,
  config: {
    shape: 'map',
    collection: { description: 'Read replica sets of this service, by key.', keyNoun: 'a replica set' },
    entry: { description: 'A read replica set of the service (address replica_set.<serviceKey>.<key>).', required: ['cpu_millis', 'memory_gbs', 'nodes'] },
    protect: true,
    title: 'read replica sets',
    needs: 'a replica set needs cpu_millis, memory_gbs and nodes',
    requiredHint: 'a replica set is created with cpu_millis, memory_gbs and nodes',
  },
  export: {
    keyPrefix: 'rs',
    unwritable: (r) => {
      if (isReplicaSetGone(r)) return `it is ${r.status}`;
      if (!isWritableName(r.name)) return 'its name is not 1-128 characters';
      if (!isAllowedServiceSize(r.cpuMillis, r.memoryGbs)) return `its size ${r.cpuMillis}/${r.memoryGbs} is not an allowed size`;
      if (!Number.isInteger(r.nodes) || r.nodes < 1 || r.nodes > 10) return `its node count ${r.nodes} is not 1-10`;
      return undefined;
    },
    comments: (r) => (r.status === 'error' ? ['status error: a plan replaces this replica set (delete + create)'] : []),
  },
  import: { renamed: 'a replica set cannot be renamed, so the next plan replaces it' },
  // It logs in as its service does (its pgpass line may be the service's).
  output: {
    ready: 'active',
    gone: (address, id, r) => `${address} is bound to replica set ${id}, which is gone${r ? ' (deleting)' : ''}; run \`dbform plan\` to see what apply would do`,
  },
  live: {
    gone: isReplicaSetGone,
    parentId: (l) => l.serviceId,
    settling: (l) => isReplicaSetSettling(l.status),
    failed: (l) => l.status === 'error',
    known: (status) => STATUSES.has(status),
  },
  // The services list embeds them (cloud-api.md); the real API may not (SPEC section 12), and then a
  // service's list is read for the services a plan can touch: 2 + V + M requests.
  read: {
    list: 'listReplicaSets',
    map: mapReplicaSet,
    embedded: embeddedIn,
    onlyManagedParents: true,
    unembeddedNote: 'the services list does not embed read_replica_sets; reading GET .../replicaSets for each managed service instead (one request each)',
  },
  waits: {
    goals: {
      ready: { what: () => 'to be active', done: (r) => r?.status === 'active' },
      settled: { what: () => 'to settle', done: (r) => r !== undefined && !isReplicaSetSettling(r.status) && r.status !== 'deleting' && r.status !== 'error' },
    },
    terminal: (r) => (r.status === 'error' ? 'is in error state' : r.status === 'deleting' ? 'is being deleted while waiting for it' : undefined),
    goneTerminal: (r) => (r.status === 'error' ? 'is in error state' : undefined),
  },
  plan: planner,
} satisfies KindDefinition<DesiredReplicaSet, LiveReplicaSet, ReadReplicaSetDto>;
