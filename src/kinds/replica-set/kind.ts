// A read replica set (SPEC section 1): it belongs to a service; its size resizes in place,
// pooler and environment have their ops, name and nodes replace it. Its managed fields, its wire
// body and its operations.
import {
  del,
  environmentField,
  fieldChange,
  nameField,
  num,
  post,
  PROJECT_ROUTE,
  sizeSchema,
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
import { poolerField, type ConnectionPoolerDto } from '../service/fields.js';
import type { KindDefinition } from '../types.js';

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
  createReplicaSet: { kind: 'replica_set', api: post(`${SERVICE}/replicaSets`), rank: 80, risk: 'none', safety: 'create', effect: 'create', readyPoint: false, needsReady: true, wait: 'replica-set-active' },
  deleteReplicaSet: { kind: 'replica_set', api: del(REPLICA_SET), rank: 0, risk: 'availability', safety: 'checked', effect: 'delete', readyPoint: false, needsReady: false, wait: 'replica-set-gone' },
  resizeReplicaSet: { kind: 'replica_set', api: post(`${REPLICA_SET}/resize`), rank: 130, risk: 'none', safety: 'checked', effect: 'update', readyPoint: false, needsReady: true, wait: 'replica-set-active' },
  enableReplicaPooler: { kind: 'replica_set', api: post(`${REPLICA_SET}/enablePooler`), rank: 180, risk: 'none', safety: 'repeatable', effect: 'update', readyPoint: false, needsReady: false, wait: 'none' },
  disableReplicaPooler: { kind: 'replica_set', api: post(`${REPLICA_SET}/disablePooler`), rank: 190, risk: 'connectivity', safety: 'repeatable', effect: 'update', readyPoint: false, needsReady: false, wait: 'none' },
  setReplicaEnvironment: { kind: 'replica_set', api: post(`${REPLICA_SET}/setEnvironment`), rank: 150, risk: 'none', safety: 'repeatable', effect: 'update', readyPoint: false, needsReady: false, wait: 'none' },
} satisfies Record<string, OperationSpec>;

// ---- the kind -------------------------------------------------------------------------------

export const replicaSetKind = {
  kind: 'replica_set',
  noun: 'replica set',
  nouns: 'replica sets',
  parent: 'service',
  fields: REPLICA_SET_FIELDS,
  ops: OPS,
} satisfies KindDefinition<DesiredReplicaSet, LiveReplicaSet, ReadReplicaSetDto>;
