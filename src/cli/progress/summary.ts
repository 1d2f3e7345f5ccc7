// The final summary of an apply or destroy, shared by the TTY and plain views.
import { describeFailure } from '../../app/run-record.js';
import type { ApplyResult, DoneAction } from '../../executor/result.js';
import { terminalLine, type PlanWhere } from '../../model/index.js';
import type { Paint } from './paint.js';
import { CREATE_OPS, DELETE_OPS } from '../../kinds/index.js';

export { describeFailure, failureText } from '../../app/run-record.js';

/** Resource lines shown per kind of change; the rest are counted (each had its own progress line). */
const RESOURCE_LINES = 20;

type Change = 'created' | 'updated' | 'deleted' | 'replaced';
const CHANGES: readonly Change[] = ['created', 'updated', 'deleted', 'replaced'];
const SYMBOL: Record<Change, string> = { created: '+', updated: '~', deleted: '-', replaced: '-/+' };

interface ResourceChange {
  address: string;
  change: Change;
  /** created/replaced: the new ID; updated: the operations done. */
  detail: string;
}

/**
 * What the done actions did to resources, in plan order: a create and a delete of one address is
 * a replace; any other operation is an update, unless the resource was also created or deleted.
 */
export function summarizeResources(result: ApplyResult): ResourceChange[] {
  const byAddress = new Map<string, DoneAction[]>();
  for (const d of result.done) byAddress.set(d.action.address, [...(byAddress.get(d.action.address) ?? []), d]);
  return [...byAddress].map(([address, done]) => {
    const created = done.find((d) => CREATE_OPS.has(d.action.op));
    const deleted = done.some((d) => DELETE_OPS.has(d.action.op));
    const change: Change = created && deleted ? 'replaced' : created ? 'created' : deleted ? 'deleted' : 'updated';
    const id = created?.resourceId ? `${created.adopted ? 'adopted ' : ''}${terminalLine(created.resourceId)}` : '';
    const notes = done.flatMap((d) => (d.note ? [terminalLine(d.note)] : []));
    const detail = [change === 'updated' ? [...new Set(done.map((d) => d.action.op))].join(', ') : id, ...notes].filter((t) => t !== '').join('; ');
    return { address, change, detail };
  });
}

/** `Apply complete: 2 created, 1 updated, 0 deleted, 0 replaced.` and one line per resource. */
function renderResources(result: ApplyResult, paint: Paint, state: string): string[] {
  const resources = summarizeResources(result);
  const counts = CHANGES.map((c) => `${resources.filter((r) => r.change === c).length} ${c}`).join(', ');
  const lines = [`${state}: ${counts}.`];
  const color = { created: paint.green, updated: paint.yellow, deleted: paint.red, replaced: paint.yellow };
  for (const change of CHANGES) {
    const of = resources.filter((r) => r.change === change);
    for (const r of of.slice(0, RESOURCE_LINES)) lines.push(`  ${color[change](SYMBOL[change])} ${r.address}${r.detail ? ` (${r.detail})` : ''}`);
    if (of.length > RESOURCE_LINES) lines.push(`  ${paint.dim(`... and ${of.length - RESOURCE_LINES} more ${change}`)}`);
  }
  return lines;
}

/**
 * Resources first (what changed, by address), then the action counts, then only the actions that
 * need attention: failed, skipped, blocked, sent but not awaited, not started. Done actions are
 * condensed into the resource lines; each already had its own progress line.
 */
export function renderSummary(result: ApplyResult, paint: Paint, verb = 'Apply', where?: PlanWhere): string[] {
  // "sent" only when there are any: only an interrupt leaves actions sent and not awaited.
  const sent = result.abandoned.length > 0 ? `${result.abandoned.length} sent (wait abandoned), ` : '';
  const notStarted = result.skipped.filter((s) => s.reason === 'interrupted');
  const skippedNote = notStarted.length === 0 ? '' : notStarted.length === result.skipped.length ? ' (not started)' : ` (${notStarted.length} not started)`;
  const settled = result.settling.filter((s) => s.outcome === 'settled');
  const settledCount = result.settling.length > 0 ? `${settled.length} settled, ` : '';
  const counts =
    `${result.done.length} done, ${settledCount}${sent}${result.failed.length} failed, ${result.skipped.length} skipped${skippedNote}, ` +
    `${result.blocked.length} blocked`;
  const bindings = result.bindingsApplied > 0 ? `; ${result.bindingsApplied} state binding(s) written` : '';
  const state = result.interrupted
    ? paint.yellow(`${verb} interrupted`)
    : result.failed.length > 0 || result.skipped.length > 0
      ? paint.red(`${verb} finished with errors`)
      : result.blocked.length > 0
        ? paint.yellow(`${verb} blocked`)
        : paint.green(`${verb} complete`);
  // Which state this was (SPEC section 14): a leftover DBFORM_WORKSPACE shows here too.
  const lines = [...(where ? [paint.dim(`Workspace ${where.workspace}, state: ${where.state}`)] : []), ...renderResources(result, paint, state)];
  lines.push(`Actions: ${counts}${bindings}.`);
  if (settled.length > 0) {
    lines.push('Settled (still changing when planned; waited for):');
    const by = (s: (typeof settled)[number]) => (s.resource.op === undefined ? '' : ` (${s.resource.op} sent by an earlier apply, now done)`);
    for (const s of settled) lines.push(`  ${paint.green('✓')} ${s.resource.address} ${s.resource.status} -> ${s.status}${by(s)}`);
  }
  const unsettled = result.settling.filter((s) => s.outcome !== 'settled');
  if (unsettled.length > 0) {
    lines.push('Not settled yet (the next apply waits for these):');
    for (const s of unsettled) lines.push(`  ${paint.yellow('…')} ${s.resource.address} ${s.status}`);
  }
  if (result.abandoned.length > 0) {
    lines.push('Sent, wait abandoned (the cloud finishes these; the next run picks them up):');
    for (const a of result.abandoned) {
      lines.push(`  ${paint.yellow('…')} ${a.action.address} ${a.action.op}${a.resourceId ? ` (${a.resourceId})` : ''}`);
    }
  }
  if (result.failed.length > 0) {
    lines.push('Failed:');
    for (const f of result.failed) lines.push(`  ${paint.red('✗')} ${describeFailure(f)}`);
  }
  const upstream = result.skipped.filter((s) => s.reason !== 'interrupted');
  if (upstream.length > 0) {
    lines.push('Skipped:');
    for (const s of upstream) {
      const why = s.root
        ? `upstream ${s.root.op} ${s.root.address} ${s.reason === 'upstream-blocked' ? 'is blocked' : 'failed'}`
        : s.reason === 'upstream-blocked'
          ? 'the plan is blocked'
          : 'upstream failed';
      lines.push(`  ${paint.dim('-')} ${s.action.address} ${s.action.op}: ${why}`);
    }
  }
  if (result.blocked.length > 0) {
    lines.push('Blocked:');
    for (const b of result.blocked) lines.push(`  ${paint.yellow('!')} ${b.address} ${b.op}: ${b.blocked ?? 'blocked'}`);
  }
  // The resume advice is the command's closing error message; here only what did not start.
  if (notStarted.length > 0) {
    lines.push('Not started (interrupted):');
    for (const s of notStarted) lines.push(`  ${paint.dim('-')} ${s.action.address} ${s.action.op}`);
  }
  return lines;
}
