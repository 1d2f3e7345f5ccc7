// The lockfile value (SPEC section 2). File I/O lives in src/lockfile/.
import { compareAddresses, type Address } from './address.js';

export interface LockEntry {
  id: string;
  passwordVersion?: number;
  protect?: boolean;
}

export interface Lockfile {
  version: 1;
  projectId: string;
  resources: Record<Address, LockEntry>;
}

export function emptyLockfile(projectId: string): Lockfile {
  return { version: 1, projectId, resources: {} };
}

/** The on-disk JSON text: snake_case, addresses sorted, two-space indent, trailing newline. */
export function serializeLockfile(lock: Lockfile): string {
  const resources: Record<string, Record<string, unknown>> = {};
  for (const address of Object.keys(lock.resources).sort(compareAddresses)) {
    const e = lock.resources[address]!;
    const out: Record<string, unknown> = { id: e.id };
    if (e.passwordVersion !== undefined) out.password_version = e.passwordVersion;
    if (e.protect !== undefined) out.protect = e.protect;
    resources[address] = out;
  }
  return `${JSON.stringify({ version: 1, project_id: lock.projectId, resources }, null, 2)}\n`;
}

/** Returns the lockfile or a list of problems (each naming the offending field). */
export function parseLockfileJson(data: unknown): { ok: true; value: Lockfile } | { ok: false; errors: string[] } {
  const errors: string[] = [];
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return { ok: false, errors: ['the lockfile must be a JSON object'] };
  }
  const obj = data as Record<string, unknown>;
  if (obj.version !== 1) errors.push(`"version" must be 1 (found ${JSON.stringify(obj.version)})`);
  if (typeof obj.project_id !== 'string' || obj.project_id === '') errors.push('"project_id" must be a non-empty string');
  const resources: Record<Address, LockEntry> = {};
  const raw = obj.resources ?? {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    errors.push('"resources" must be an object of address -> entry');
  } else {
    for (const [address, entry] of Object.entries(raw as Record<string, unknown>)) {
      const e = entry as Record<string, unknown> | null;
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
      resources[address] = out;
    }
  }
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, value: { version: 1, projectId: obj.project_id as string, resources } };
}
