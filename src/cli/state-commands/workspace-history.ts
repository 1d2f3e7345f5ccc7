// `dbform state unlock`, `dbform workspace list|delete NAME` and `dbform history [--limit N]`.
import { DbformError } from '../../model/index.js';
import { checkWorkspaceName, formatHolder, historyToJson, holderToJson, type HistoryRecord } from '../../state/index.js';
import { printJson, renderTable, withStateCommand, type StateCommandFlags } from './context.js';
import { cliProcess } from '../process.js';

export async function runStateUnlock(flags: StateCommandFlags): Promise<number> {
  return withStateCommand(flags, async ({ store }) => {
    const o = await store.unlock();
    if (flags.json) {
      printJson({ state: store.location, workspace: store.workspace, holder: o.holder ? holderToJson(o.holder) : null, alive: o.alive, cleared: o.cleared });
      return 0;
    }
    const where = `workspace "${store.workspace}" of ${store.location}`;
    if (!o.holder) cliProcess().stdout.write(o.alive ? `The lock of ${where} is held by a session that has not said who it is.\n` : `No lock is held on ${where}.\n`);
    else if (o.cleared) cliProcess().stdout.write(`Cleared the lock of ${where} left by ${formatHolder(o.holder)}, which is no longer running.\n`);
    else {
      cliProcess().stdout.write(
        `The lock of ${where} is held by ${formatHolder(o.holder)}, which is still running; it is released when that run ends (left as it is).\n`,
      );
    }
    return 0;
  });
}

export async function runWorkspaceList(flags: StateCommandFlags): Promise<number> {
  return withStateCommand(flags, async ({ store }) => {
    const list = await store.listWorkspaces();
    if (flags.json) {
      printJson(
        list.map((w) => ({
          workspace: w.workspace,
          current: w.workspace === store.workspace,
          resources: w.resources,
          serial: w.serial,
          last_apply: w.lastApply,
          expires_at: w.expiresAt,
        })),
      );
      return 0;
    }
    if (list.length === 0) {
      cliProcess().stdout.write(`No workspace of project ${store.projectId} has a state in ${store.location} yet.\n`);
      return 0;
    }
    const rows = list.map((w) => [`${w.workspace === store.workspace ? '*' : ' '} ${w.workspace}`, String(w.resources), w.lastApply ?? '-', w.expiresAt ?? '-']);
    cliProcess().stdout.write(renderTable(['  WORKSPACE', 'RESOURCES', 'LAST APPLY', 'EXPIRES'], rows));
    return 0;
  });
}

export async function runWorkspaceDelete(name: string, flags: StateCommandFlags): Promise<number> {
  checkWorkspaceName(name, 'workspace');
  return withStateCommand(flags, async ({ store }) => {
    await store.deleteWorkspace(name);
    if (flags.json) printJson({ deleted: name, state: store.location });
    else cliProcess().stdout.write(`Deleted workspace "${name}" of project ${store.projectId} from ${store.location}.\n`);
    return 0;
  });
}

export function parseLimit(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text.trim()) || Number(text) < 1) throw new DbformError(`--limit must be a whole number of at least 1 (got "${text}")`);
  return Number(text);
}

/** One record; the state it was written in when that is not this one (a record copied by `state migrate`). */
function historyLine(r: HistoryRecord, location: string): string {
  const counts = new Map<string, number>();
  for (const a of r.actions) counts.set(a.outcome, (counts.get(a.outcome) ?? 0) + 1);
  const actions = r.actions.length === 0 ? 'no actions' : [...counts].map(([k, n]) => `${n} ${k}`).join(', ');
  const ci = r.ciRun ? `  ${r.ciRun}` : '';
  const elsewhere = r.state !== undefined && r.state !== location ? `  (in ${r.state})` : '';
  return `${r.startedAt}  exit ${r.exitCode}  serial ${r.serialBefore} -> ${r.serialAfter}  ${r.user}@${r.host}  ${r.command}  (${actions})${ci}${elsewhere}`;
}

export async function runHistory(flags: StateCommandFlags & { limit?: string }): Promise<number> {
  const limit = parseLimit(flags.limit);
  return withStateCommand(flags, async ({ store }) => {
    const records = await store.readHistory(limit);
    if (flags.json) {
      printJson(records.map(historyToJson));
      return 0;
    }
    if (records.length === 0) cliProcess().stdout.write(`Nothing recorded for workspace "${store.workspace}" in ${store.location} yet.\n`);
    else cliProcess().stdout.write(`History of workspace "${store.workspace}" in ${store.location}, newest first:\n${records.map((r) => historyLine(r, store.location)).join('\n')}\n`);
    return 0;
  });
}
