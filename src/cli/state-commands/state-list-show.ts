// `dbform state list` and `dbform state show ADDR`: the bindings of this workspace's state, and
// one binding next to the live resource it names.
import { compareAddresses, isProtectedInState, kindOf, terminalJson, terminalLine, type LockEntry } from '../../model/index.js';
import type { ApiContextInput } from '../api-context.js';
import { appHost } from '../host.js';
import { configFiles } from '../options.js';
import { printJson, renderTable, withStateCommand, type StateCommandFlags } from './context.js';
import { cliProcess } from '../process.js';

/** `protect`: the state's (a retired original's resources are protected with it: isProtectedInState). */
function entryJson(address: string, e: LockEntry, protect = e.protect === true): Record<string, unknown> {
  return {
    address,
    kind: kindOf(address) ?? 'unknown',
    id: e.id,
    protect,
    ...(e.passwordVersion !== undefined ? { password_version: e.passwordVersion } : {}),
    ...(e.pending !== undefined ? { pending: { op: e.pending.op, sets: e.pending.sets, since: e.pending.since } } : {}),
    ...(e.retired !== undefined ? { retired: true, retired_from: e.retired.from, target_time: e.retired.targetTime } : {}),
    ...(e.restoring !== undefined ? { restoring: { retire_as: e.restoring.retireAs, target_time: e.restoring.targetTime } } : {}),
  };
}

/** What a restore (SPEC section 17) did to a binding, for the table; empty for the others. */
function restoreNote(e: LockEntry): string {
  if (e.retired) return `retired from ${e.retired.from} (restore to ${e.retired.targetTime})`;
  if (e.restoring) return `restore to ${e.restoring.targetTime} under way: retires to ${e.restoring.retireAs}`;
  return '';
}

export async function runStateList(flags: StateCommandFlags): Promise<number> {
  return withStateCommand(flags, async ({ store }) => {
    const { lockfile } = await store.read();
    const addresses = Object.keys(lockfile.resources).sort(compareAddresses);
    const rows = addresses.map((a) => entryJson(a, lockfile.resources[a]!, isProtectedInState(lockfile, a)));
    if (flags.json) {
      printJson({ state: store.location, workspace: store.workspace, lineage: lockfile.lineage ?? null, serial: lockfile.serial ?? 0, resources: rows });
      return 0;
    }
    if (rows.length === 0) {
      cliProcess().stdout.write(`No bindings in workspace "${store.workspace}" of ${store.location}.\n`);
      return 0;
    }
    const cells = rows.map((r) => [String(r.address), String(r.kind), String(r.id), r.protect ? 'yes' : 'no']);
    // A restore's column only where a restore left something (the table is otherwise as it was).
    const notes = addresses.map((a) => restoreNote(lockfile.resources[a]!));
    if (notes.some((n) => n !== '')) cliProcess().stdout.write(renderTable(['ADDRESS', 'KIND', 'ID', 'PROTECT', 'RESTORE'], cells.map((c, i) => [...c, notes[i]!])));
    else cliProcess().stdout.write(renderTable(['ADDRESS', 'KIND', 'ID', 'PROTECT'], cells));
    return 0;
  });
}

/** snake_case keys for the JSON of a live resource (the model is camelCase). */
function snake(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snake);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), snake(v)]));
}

export async function runStateShow(address: string, flags: StateCommandFlags & ApiContextInput): Promise<number> {
  const { showBinding } = await import('../../app/state-show.js');
  const files = configFiles(flags);
  const shown = await showBinding({ files, state: flags, address }, appHost(flags, files));
  const { entry, kind } = shown;
  const fields = shown.live === undefined ? null : (snake(shown.live) as Record<string, unknown>);
  if (flags.json) {
    printJson({ ...entryJson(address, entry), live: fields });
    return 0;
  }
  const lines = [`${address}`, `  kind: ${kind}`, `  id: ${entry.id}`, `  protect: ${entry.protect === true}`];
  if (entry.passwordVersion !== undefined) lines.push(`  password_version: ${entry.passwordVersion}`);
  if (restoreNote(entry) !== '') lines.push(`  restore: ${restoreNote(entry)}`);
  if (entry.pending !== undefined) {
    const sets = Object.entries(entry.pending.sets).map(([k, v]) => `${k} ${terminalJson(v)}`).join(', ');
    lines.push(`  pending: ${entry.pending.op}${sets === '' ? '' : ` (${terminalLine(sets)})`}, sent ${terminalLine(entry.pending.since)} and not seen to finish`);
  }
  if (fields === null) lines.push(`  live: gone (no ${kind} ${entry.id} in project ${shown.projectId}); the next plan creates or adopts it`);
  else {
    lines.push('  live:');
    for (const [k, v] of Object.entries(fields)) lines.push(`    ${k}: ${typeof v === 'string' ? terminalLine(v) : terminalJson(v)}`);
  }
  cliProcess().stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
