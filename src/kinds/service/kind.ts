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
  plan: servicePlanner,
  applied: appliedRecord,
} satisfies KindDefinition<DesiredService, LiveService, ServiceOwnDto>;
