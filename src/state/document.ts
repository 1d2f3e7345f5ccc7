// The state document in its stored forms: the lockfile JSON (model/lockfile.ts) with the state's
// identity, `lineage` and `serial` (SPEC section 2).
import { randomUUID } from 'node:crypto';
import { DbformError, serializeLockfile, type Lockfile } from '../model/index.js';

export function newLineage(): string {
  return randomUUID();
}

/** The lockfile's JSON object, as the file holds it (addresses sorted, snake_case). */
export function lockfileToJson(lock: Lockfile): Record<string, unknown> {
  return JSON.parse(serializeLockfile(lock)) as Record<string, unknown>;
}


/** The document PostgreSQL stores: the lockfile's JSON without lineage and serial, which are columns. */
export function documentOf(lock: Lockfile): Record<string, unknown> {
  const { lineage: _lineage, serial: _serial, ...rest } = lockfileToJson(lock);
  return rest;
}

/** The IDs bound twice within one document: [id, first address, second address]. */
export function findDuplicateIds(lock: Lockfile): Array<[string, string, string]> {
  const seen = new Map<string, string>();
  const out: Array<[string, string, string]> = [];
  for (const address of Object.keys(lock.resources).sort()) {
    const id = lock.resources[address]!.id;
    const first = seen.get(id);
    if (first !== undefined) out.push([id, first, address]);
    else seen.set(id, address);
  }
  return out;
}

/** What every store checks before a write: an identity to store it under, no ID bound twice. */
export function checkWritable(next: Lockfile, location: string): { lineage: string; serial: number } {
  if (next.lineage === undefined || next.serial === undefined || next.serial < 1) {
    throw new DbformError(`internal: a write to ${location} needs the lineage and serial it is stored under`);
  }
  const duplicates = findDuplicateIds(next);
  if (duplicates.length > 0) {
    const [id, a, b] = duplicates[0]!;
    throw new DbformError(`resource ID ${id} is bound to both ${a} and ${b}; nothing was written to ${location}`);
  }
  return { lineage: next.lineage, serial: next.serial };
}
