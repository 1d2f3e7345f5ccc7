// A database service (SPEC section 1): its fields and operations (fields.ts), how it is planned
// (plan.ts), what its statuses mean, and the kind's definition.
import { isWritableName, keySchema as key, recordFields, RFC3339_SHAPE_REGEX, vpcAddress, type DesiredFork, type DesiredService, type ForkStrategy, type Json, type LiveService, type Lockfile } from '../../model/index.js';
import type { ExportScope, KindDefinition } from '../types.js';
import { checkServices } from './config-rules.js';
import { mapService, SERVICE_FIELDS, SERVICE_OPS, type ServiceOwnDto } from './fields.js';
import { servicePlanner } from './plan.js';

// ---- config ---------------------------------------------------------------------------------

const FORK_SCHEMA: Json = {
  type: 'object',
  description: 'Create this service as a fork of another one. Create-time only: ignored once the service exists.',
  additionalProperties: false,
  required: ['from', 'strategy'],
  properties: {
    from: {
      description: 'The service to fork: a key under services:, or { service_id: "..." } for any service by its ID.',
      anyOf: [
        key('a service under services:'),
        {
          type: 'object',
          description: 'Any service of the project, by its ID.',
          additionalProperties: false,
          required: ['service_id'],
          properties: { service_id: { type: 'string', minLength: 1, description: 'ID of the parent service (10 lowercase letters or digits).' } },
        },
      ],
    },
    strategy: {
      enum: ['LAST_SNAPSHOT', 'NOW', 'PITR'],
      description: 'LAST_SNAPSHOT forks from the latest snapshot (fast), NOW takes a new snapshot (up to date), PITR restores to target_time.',
    },
    target_time: {
      type: 'string',
      // Not `format: date-time`: it allows a space for the T, and it would refuse ${env:NAME}.
      pattern: RFC3339_SHAPE_REGEX,
      description: 'Point in time to restore, RFC 3339 (e.g. 2026-11-01T00:00:00Z). Required with strategy PITR, not allowed otherwise.',
    },
  },
  // For editors: the loader reports these through config-rules.ts, with its own words.
  if: { properties: { strategy: { const: 'PITR' } }, required: ['strategy'] },
  then: { properties: { target_time: true }, required: ['target_time'] },
  else: { properties: { target_time: false } },
};

function buildFork(v: Json): DesiredFork {
  const from = v.from as string | { service_id: string };
  const fork: DesiredFork = {
    from: typeof from === 'string' ? { key: from } : { serviceId: from.service_id },
    strategy: v.strategy as ForkStrategy,
  };
  if (v.target_time !== undefined) fork.targetTime = v.target_time as string;
  return fork;
}


// ---- statuses -------------------------------------------------------------------------------

// The statuses the documents list (cloud-api.md section 3, the OpenAPI DeployStatus), and the two
// the real service sends though its enum does not list them (SPEC section 15): any other is one
// dbform does not know, and a wait that ends on one says so.
const STATUSES: ReadonlySet<string> = new Set([
  'QUEUED', 'CONFIGURING', 'READY', 'UNSTABLE', 'PAUSING', 'PAUSED', 'RESUMING', 'UPGRADING', 'DELETING', 'DELETED', 'OPTIMIZING', 'FAILED', 'ERROR',
]);
const SETTLING = new Set(['QUEUED', 'CONFIGURING', 'UPGRADING', 'PAUSING', 'RESUMING']);
// The emulator never reports DELETED itself, but a real API may: both mean the service is going.
const GONE = new Set(['DELETING', 'DELETED']);
// A service that failed stays so until it is deleted (tiger-cli's wait fails at once on these):
// waiting for it to be READY would only run out --timeout.
const FAILED = new Set(['FAILED', 'ERROR']);

export const isServiceSettling = (status: string): boolean => SETTLING.has(status);
export const isServiceGone = (s: Pick<LiveService, 'status'>): boolean => GONE.has(s.status);

/** What an attach (`arg.vpcId`) or detach (`arg.vpcId` null, from `arg.fromVpcId`) waits for: the VPC endpoint, the status stays READY. */
interface Attachment {
  vpcId: string | null;
  fromVpcId: string | null;
}

const pendingOf = (a: Attachment) => (a.vpcId === null ? `detaching from VPC ${a.fromVpcId}` : `attaching to VPC ${a.vpcId}`);
const attached = (s: LiveService | undefined, a: Attachment) =>
  s !== undefined && (a.vpcId === null ? s.vpcId === null || s.vpcId !== a.fromVpcId : s.vpcId === a.vpcId);

const ATTACHMENT = {
  what: (arg?: unknown) => pendingOf(arg as Attachment),
  done: (s: LiveService | undefined, arg?: unknown) => attached(s, arg as Attachment),
  // READY alone would read as finished while the endpoint is still on its way: say what is awaited.
  describe: (status: string, s: LiveService | undefined, arg?: unknown) => (attached(s, arg as Attachment) ? status : `${status}, ${pendingOf(arg as Attachment)}`),
};

/** Where a fork comes from, as a comment of its entry. */
function lineage(s: LiveService, scope: ExportScope): string[] {
  const parent = s.forkedFrom;
  if (!parent) return [];
  if (parent.projectId !== undefined && parent.projectId !== scope.projectId) return [`forked from service ${parent.serviceId} of project ${parent.projectId}`];
  const key = scope.keyOf('service', parent.serviceId);
  return [key === undefined ? `forked from service ${parent.serviceId} (not in this export)` : `forked from service.${key} (${parent.serviceId})`];
}

/** What drift records: a VPC named by key is the ID the state binds it to when the apply ends. */
function appliedRecord(s: DesiredService, lock: Lockfile): Json {
  const record = recordFields(SERVICE_FIELDS, s);
  if (s.vpc && 'key' in s.vpc) {
    const id = lock.resources[vpcAddress(s.vpc.key)]?.id;
    if (id !== undefined) record.vpc = id;
  }
  return record;
}

// ---- the kind -------------------------------------------------------------------------------

export const serviceKind = {
  kind: 'service',
  listKey: 'services',
  naming: { key: 'name', desired: (d) => d.name, live: (l) => l.name },
  fields: SERVICE_FIELDS,
  ops: SERVICE_OPS,
  config: {
    shape: 'map',
    collection: { description: 'Database services managed by dbform, by key (address service.<key>).', keyNoun: 'a service' },
    entry: {
      description: 'A database service (address service.<key>). Fields left out are not managed: the API default applies at create and dbform never changes them.',
      dependentRequired: { cpu_millis: ['memory_gbs'], memory_gbs: ['cpu_millis'] },
      properties: { fork: FORK_SCHEMA },
    },
    protect: true,
    needs: 'write `KEY: {}` for a service that takes every default',
    build: (raw, into) => {
      if (raw.fork !== undefined) into.fork = buildFork(raw.fork as Json);
    },
    built: (d) => ({ fork: d.fork }),
    without: (d, gone) => (d.vpc && 'key' in d.vpc && gone(vpcAddress(d.vpc.key)) ? { ...d, vpc: null } : d),
    check: checkServices,
  },
  export: {
    keyPrefix: 'svc',
    unwritable: (s) => (isServiceGone(s) ? `it is ${s.status}` : !isWritableName(s.name) ? 'its name is not 1-128 characters' : undefined),
    rank: (s) => s.created,
    comments: (s, scope) => lineage(s, scope),
    spaced: true,
  },
  import: { renamed: 'the next plan renames it where the API renames services in place, and elsewhere refuses to replace it unless told to' },
  output: {
    ready: 'READY',
    gone: (address, id, s, projectId) => `${address} is bound to service ${id}, which is gone from project ${projectId}${s ? ` (${s.status})` : ''}; run \`dbform plan\` to see what apply would do`,
    passwordEnv: (d) => d.password?.fromEnv,
  },
  live: {
    gone: isServiceGone,
    settling: (l) => isServiceSettling(l.status),
    known: (status) => STATUSES.has(status),
  },
  read: { list: 'listServices', map: mapService },
  waits: {
    goals: {
      ready: { what: () => 'to be READY', done: (s) => s?.status === 'READY' },
      paused: { what: () => 'to be PAUSED', done: (s) => s?.status === 'PAUSED' },
      // Not done while going away: the terminal rule then fails the wait with its story.
      settled: { what: () => 'to settle', done: (s) => s !== undefined && !isServiceSettling(s.status) && !GONE.has(s.status) },
      attachment: ATTACHMENT,
    },
    terminal: (s) =>
      GONE.has(s.status)
        ? `is being deleted (status ${s.status}) while waiting for it`
        : FAILED.has(s.status)
          ? `has failed (status ${s.status})`
          : undefined,
    deleted: (s) => s.status === 'DELETED',
  },
  plan: servicePlanner,
  applied: appliedRecord,
} satisfies KindDefinition<DesiredService, LiveService, ServiceOwnDto>;
