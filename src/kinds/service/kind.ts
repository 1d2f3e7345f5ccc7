// A database service (SPEC section 1): its fields and operations (fields.ts), how it is planned
// (plan.ts), what its statuses mean, and the kind's definition.
import { recordFields, vpcAddress, type DesiredService, type Json, type LiveService, type Lockfile } from '../../model/index.js';
import type { KindDefinition } from '../types.js';
import { mapService, SERVICE_FIELDS, SERVICE_OPS, type ServiceOwnDto } from './fields.js';
import { servicePlanner } from './plan.js';

// ---- statuses -------------------------------------------------------------------------------

// The statuses the documents list (cloud-api.md section 3, the OpenAPI DeployStatus): any other is
// one dbform does not know, and a wait that ends on one says so.
const STATUSES: ReadonlySet<string> = new Set([
  'QUEUED', 'CONFIGURING', 'READY', 'UNSTABLE', 'PAUSING', 'PAUSED', 'RESUMING', 'UPGRADING', 'DELETING', 'DELETED', 'OPTIMIZING',
]);
const SETTLING = new Set(['QUEUED', 'CONFIGURING', 'UPGRADING', 'PAUSING', 'RESUMING']);
// The emulator never reports DELETED itself, but a real API may: both mean the service is going.
const GONE = new Set(['DELETING', 'DELETED']);

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
    terminal: (s) => (GONE.has(s.status) ? `is being deleted (status ${s.status}) while waiting for it` : undefined),
    deleted: (s) => s.status === 'DELETED',
  },
  plan: servicePlanner,
  applied: appliedRecord,
} satisfies KindDefinition<DesiredService, LiveService, ServiceOwnDto>;
