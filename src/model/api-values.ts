// Values the API reports that dbform reads with one meaning, whatever the spelling: cloud-api.md
// (the emulator's default) and the real service's OpenAPI document differ here (SPEC section 12).
// Every reader (planner, executor, waiters, export) asks these helpers instead of comparing strings.

/** `TIMESERIESDB` (cloud-api.md) and `TIMESCALEDB` (the real service) name one type. */
const TIME_SERIES_TYPES: ReadonlySet<string> = new Set(['TIMESERIESDB', 'TIMESCALEDB']);

export function isTimeSeriesType(serviceType: string): boolean {
  return TIME_SERIES_TYPES.has(serviceType);
}

/** Whether two live service types are the same type (never a change between the two spellings). */
export function sameServiceType(a: string, b: string): boolean {
  return a === b || (isTimeSeriesType(a) && isTimeSeriesType(b));
}

/** What a peering status means for dbform: still on its way, usable, or failed for good. */
export type PeeringPhase = 'pending' | 'done' | 'failed' | 'unknown';

// Compared case-insensitively: the emulator's seed dialect says `active`, the real service `ACTIVE`.
// APPROVED is the real service's acceptance step: the peering is usable from then on.
const PEERING_PHASES: ReadonlyMap<string, PeeringPhase> = new Map([
  ['PENDING', 'pending'],
  ['APPROVED', 'done'],
  ['ACTIVE', 'done'],
  ['INVALID', 'failed'],
  ['TIMEOUT', 'failed'],
  ['DISABLED', 'failed'],
  ['FAILED', 'failed'],
  ['ERROR', 'failed'],
]);

export function peeringPhase(status: string | undefined): PeeringPhase {
  if (status === undefined) return 'unknown';
  return PEERING_PHASES.get(status.toUpperCase()) ?? 'unknown';
}

export const isPeeringFailed = (status: string | undefined): boolean => peeringPhase(status) === 'failed';

// The statuses the documents list (cloud-api.md section 3, the OpenAPI DeployStatus): any other is
// one dbform does not know, and a wait that ends on one says so.
const SERVICE_STATUSES: ReadonlySet<string> = new Set([
  'QUEUED', 'CONFIGURING', 'READY', 'UNSTABLE', 'PAUSING', 'PAUSED', 'RESUMING', 'UPGRADING', 'DELETING', 'DELETED', 'OPTIMIZING',
]);
const REPLICA_SET_STATUSES: ReadonlySet<string> = new Set(['creating', 'active', 'resizing', 'deleting', 'error']);
const VPC_STATUSES: ReadonlySet<string> = new Set(['CREATING', 'PENDING', 'CREATED', 'READY', 'ACTIVE']);

export type StatusKind = 'service' | 'replica set' | 'peering' | 'VPC';

/** Whether dbform knows what `status` means for a resource of this kind. */
export function isKnownStatus(kind: StatusKind, status: string): boolean {
  switch (kind) {
    case 'service':
      return SERVICE_STATUSES.has(status);
    case 'replica set':
      return REPLICA_SET_STATUSES.has(status);
    case 'peering':
      return peeringPhase(status) !== 'unknown';
    case 'VPC':
      return VPC_STATUSES.has(status.toUpperCase());
  }
}

/** A VPC that carries a status is usable once it is no longer being created (SPEC section 12). */
export function isVpcSettled(status: string | undefined): boolean {
  if (status === undefined) return true;
  const s = status.toUpperCase();
  return s !== 'CREATING' && s !== 'PENDING';
}

/** Region codes: an open pattern, the API decides which exist (`us-east-1`, `az-eastus2`). */
export const REGION_CODE_PATTERN = '^[a-z]{2,}(-[a-z0-9]+)+$';
export const REGION_CODE_REGEX = new RegExp(REGION_CODE_PATTERN);
/** The narrower region codes of cloud-api.md (`us-east-1`), which the emulator's seed dialect checks. */
export const SEED_REGION_CODE_REGEX = /^[a-z]{2}(-[a-z]+)+-[0-9]+$/;
