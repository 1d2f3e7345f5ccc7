// The lockfile value (SPEC section 2). File I/O lives in src/lockfile/.
import { sortAddresses, type Address } from './address.js';
import { OPERATION_NAMES, type DriftValue, type OperationId } from './plan.js';

/**
 * An operation dbform sent and has not seen finish (SPEC section 14): written before it is sent,
 * removed once dbform sees it finish or fail. A plan made while it stands shows the resource as
 * settling with this op, never what it sets as changed outside dbform, and sends it again only if
 * the resource settled without the values.
 */
export interface PendingOp {
  op: OperationId;
  /** What it sets, as the plan's changes name it (`cpu_millis` -> 1000): never a secret. */
  sets: Record<string, DriftValue>;
  /** When it was recorded, before it was sent (ISO 8601). */
  since: string;
}

export interface LockEntry {
  id: string;
  passwordVersion?: number;
  protect?: boolean;
  /**
   * The managed fields as the last apply left them (SPEC section 11), by field descriptor id, in
   * the vocabulary of the descriptors' `live` (src/model/fields): what drift compares the live
   * resource with. Never a secret. Absent in entries written before drift was recorded.
   */
  applied?: Record<string, unknown>;
  /**
   * A restore of this binding is under way (SPEC section 17), written before any of its calls is
   * sent: the next other ID bound to this address, or to the service it belongs to (the fork),
   * retires this entry to `retireAs`. `targetTime` is the restore's `--to`.
   */
  restoring?: { retireAs: Address; targetTime: string };
  /**
   * A binding that a restore retired (SPEC section 17): the address it had and the restore's
   * `--to`. The resource stays: no plan of the config deletes it (only a targeted destroy).
   */
  retired?: { from: Address; targetTime: string };
  /** An operation sent and not seen to finish (a killed apply); absent when none. */
  pending?: PendingOp;
}

const snake = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const camel = (k: string) => k.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

/** Plain objects with their keys renamed by `name` and sorted, at every level: the lockfile is snake_case and sorted. */
function renameKeys(value: unknown, name: (k: string) => string): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => renameKeys(v, name));
  const o = value as Record<string, unknown>;
  return Object.fromEntries(Object.keys(o).map((k) => [name(k), renameKeys(o[k], name)] as const).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The record as the lockfile stores it: keys sorted; nested keys snake_case (the ids are already). */
export const appliedToJson = (applied: Record<string, unknown>): Record<string, unknown> => renameKeys(applied, snake) as Record<string, unknown>;
const appliedFromJson = (json: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(json).map(([id, v]) => [id, renameKeys(v, camel)]));

export interface Lockfile {
  version: 1;
  projectId: string;
  /**
   * The identity of this state: a random UUID given when the lockfile is first written, never
   * changed after. Absent from a state never written yet, or written by an older dbform.
   */
  lineage?: string;
  /** Incremented by every write; absent (read as 0) where `lineage` is. */
  serial?: number;
  resources: Record<Address, LockEntry>;
}

export function emptyLockfile(projectId: string): Lockfile {
  return { version: 1, projectId, resources: {} };
}

/**
 * The value the next write stores: the same lineage (or `newLineage` for a state that has none
 * yet, which also upgrades an older lockfile) and the serial one higher.
 */
export function nextRevision(lock: Lockfile, newLineage: string): Lockfile {
  return { ...lock, lineage: lock.lineage ?? newLineage, serial: (lock.serial ?? 0) + 1 };
}

/** The on-disk JSON text: snake_case, addresses sorted, two-space indent, trailing newline. */
export function serializeLockfile(lock: Lockfile): string {
  const resources: Record<string, Record<string, unknown>> = {};
  for (const address of sortAddresses(Object.keys(lock.resources))) {
    const e = lock.resources[address]!;
    const out: Record<string, unknown> = { id: e.id };
    if (e.passwordVersion !== undefined) out.password_version = e.passwordVersion;
    if (e.protect !== undefined) out.protect = e.protect;
    if (e.applied !== undefined) out.applied = appliedToJson(e.applied);
    if (e.restoring !== undefined) out.restoring = { retire_as: e.restoring.retireAs, target_time: e.restoring.targetTime };
    if (e.retired !== undefined) out.retired = { from: e.retired.from, target_time: e.retired.targetTime };
    if (e.pending !== undefined) out.pending = pendingToJson(e.pending);
    resources[address] = out;
  }
  const identity = {
    ...(lock.lineage !== undefined ? { lineage: lock.lineage } : {}),
    ...(lock.serial !== undefined ? { serial: lock.serial } : {}),
  };
  return `${JSON.stringify({ version: 1, project_id: lock.projectId, ...identity, resources }, null, 2)}\n`;
}

type Parsed = { ok: true; value: Lockfile } | { ok: false; errors: string[] };

/** Returns the lockfile or a list of problems (each naming the offending field). */
export function parseLockfileJson(data: unknown): Parsed {
  const errors: string[] = [];
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return { ok: false, errors: ['the lockfile must be a JSON object'] };
  }
  const obj = data as Record<string, unknown>;
  if (obj.version !== 1) errors.push(`"version" must be 1 (found ${JSON.stringify(obj.version)})`);
  if (typeof obj.project_id !== 'string' || obj.project_id === '') errors.push('"project_id" must be a non-empty string');
  if (obj.lineage !== undefined && (typeof obj.lineage !== 'string' || obj.lineage === '')) errors.push('"lineage" must be a non-empty string');
  if (obj.serial !== undefined && !(typeof obj.serial === 'number' && Number.isSafeInteger(obj.serial) && obj.serial >= 0)) {
    errors.push('"serial" must be a non-negative integer');
  }
  const resources = parseResources(obj.resources ?? {}, errors);
  if (errors.length > 0) return { ok: false, errors };
  const value: Lockfile = { version: 1, projectId: obj.project_id as string, resources };
  if (obj.lineage !== undefined) value.lineage = obj.lineage as string;
  if (obj.serial !== undefined) value.serial = obj.serial as number;
  return { ok: true, value };
}

function parseResources(raw: unknown, errors: string[]): Record<Address, LockEntry> {
  const resources: Record<Address, LockEntry> = {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    errors.push('"resources" must be an object of address -> entry');
    return resources;
  }
  for (const address of Object.keys(raw)) {
    const e = (raw as Record<string, unknown>)[address] as Record<string, unknown> | null;
    if (typeof e !== 'object' || e === null || typeof e.id !== 'string' || e.id === '') {
      errors.push(`resources["${address}"].id must be a non-empty string`);
      continue;
    }
    const out: LockEntry = { id: e.id };
    if (e.password_version !== undefined) {
      if (typeof e.password_version !== 'number' || !Number.isInteger(e.password_version)) {
        errors.push(`resources["${address}"].password_version must be an integer`);
      } else out.passwordVersion = e.password_version;
    }
    if (e.protect !== undefined) {
      if (typeof e.protect !== 'boolean') errors.push(`resources["${address}"].protect must be true or false`);
      else out.protect = e.protect;
    }
    if (e.applied !== undefined) {
      if (typeof e.applied !== 'object' || e.applied === null || Array.isArray(e.applied)) errors.push(`resources["${address}"].applied must be an object of field -> value`);
      else out.applied = appliedFromJson(e.applied as Record<string, unknown>);
    }
    // Most entries have neither record: their field names (`resources["..."].retired`) are made only for one that is there.
    if (e.restoring !== undefined) {
      const restoring = restoreRecord(e.restoring, 'retire_as', `resources["${address}"].restoring`, errors);
      if (restoring) out.restoring = { retireAs: restoring.address, targetTime: restoring.targetTime };
    }
    if (e.retired !== undefined) {
      const retired = restoreRecord(e.retired, 'from', `resources["${address}"].retired`, errors);
      if (retired) out.retired = { from: retired.address, targetTime: retired.targetTime };
    }
    if (e.pending !== undefined) {
      const pending = parsePending(e.pending, `resources["${address}"].pending`, errors);
      if (pending) out.pending = pending;
    }
    resources[address] = out;
  }
  return resources;
}


const byKey = ([a]: [string, unknown], [b]: [string, unknown]) => (a < b ? -1 : a > b ? 1 : 0);

/** Keys as the lockfile writes them (sorted); the paths in `sets` are kept as the plan names them. */
function pendingToJson(p: PendingOp): Record<string, unknown> {
  return { op: p.op, sets: Object.fromEntries(Object.entries(p.sets).sort(byKey)), since: p.since };
}

const isScalar = (v: unknown): v is DriftValue => v === null || ['string', 'number', 'boolean'].includes(typeof v);

function parsePending(raw: unknown, where: string, errors: string[]): PendingOp | undefined {
  const p = raw as Record<string, unknown> | null;
  if (typeof p !== 'object' || p === null || Array.isArray(p)) {
    errors.push(`${where} must be an object with op, sets and since`);
    return undefined;
  }
  const before = errors.length;
  if (!(OPERATION_NAMES as readonly unknown[]).includes(p.op)) errors.push(`${where}.op must be an operation name (found ${JSON.stringify(p.op)})`);
  const sets = p.sets as Record<string, unknown> | null;
  if (typeof sets !== 'object' || sets === null || Array.isArray(sets) || !Object.values(sets).every(isScalar)) {
    errors.push(`${where}.sets must be an object of field -> string, number, boolean or null`);
  }
  if (typeof p.since !== 'string' || p.since === '') errors.push(`${where}.since must be a non-empty string`);
  if (errors.length > before) return undefined;
  return { op: p.op as OperationId, sets: { ...(sets as Record<string, DriftValue>) }, since: p.since as string };
}

/** A `restoring` or `retired` record: an object of an address (under `key`) and a target_time. */
function restoreRecord(raw: unknown, key: string, where: string, errors: string[]): { address: Address; targetTime: string } | undefined {
  if (raw === undefined) return undefined;
  const o = raw as Record<string, unknown> | null;
  if (typeof o !== 'object' || o === null || typeof o[key] !== 'string' || typeof o.target_time !== 'string') {
    errors.push(`${where} must be an object of ${key} and target_time (strings)`);
    return undefined;
  }
  return { address: o[key] as string, targetTime: o.target_time as string };
}
