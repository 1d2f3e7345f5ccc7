// The state document in its stored forms: the lockfile JSON (model/lockfile.ts) plus the state's
// identity, `lineage` and `serial` (SPEC section 2).
import { randomUUID } from 'node:crypto';
import { parseLockfileJson, serializeLockfile, type Lockfile } from '../model/index.js';
import type { StateDocument, StateVersion } from './port.js';

export function newLineage(): string {
  return randomUUID();
}

/** The lockfile's JSON object, as the file holds it (addresses sorted, snake_case). */
export function lockfileToJson(lock: Lockfile): Record<string, unknown> {
  return JSON.parse(serializeLockfile(lock)) as Record<string, unknown>;
}

/** The lockfile file's text with the state's identity after project_id. */
export function serializeStateFile(doc: StateDocument): string {
  const { version, project_id, resources } = lockfileToJson(doc.lockfile);
  return `${JSON.stringify({ version, project_id, lineage: doc.lineage, serial: doc.serial, resources }, null, 2)}\n`;
}

/** The lockfile plus its identity; a lockfile of before lineage/serial reads as serial 0 of no lineage. */
export function parseStateJson(data: unknown): { ok: true; value: StateVersion & { lockfile: Lockfile } } | { ok: false; errors: string[] } {
  const parsed = parseLockfileJson(data);
  if (!parsed.ok) return parsed;
  const obj = data as Record<string, unknown>;
  const errors: string[] = [];
  if (obj.lineage !== undefined && (typeof obj.lineage !== 'string' || obj.lineage === '')) errors.push('"lineage" must be a non-empty string');
  if (obj.serial !== undefined && (typeof obj.serial !== 'number' || !Number.isInteger(obj.serial) || obj.serial < 0)) {
    errors.push('"serial" must be a whole number');
  }
  if (errors.length > 0) return { ok: false, errors };
  const lineage = typeof obj.lineage === 'string' ? obj.lineage : null;
  const serial = typeof obj.serial === 'number' ? obj.serial : 0;
  return { ok: true, value: { lineage, serial, lockfile: parsed.value } };
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
