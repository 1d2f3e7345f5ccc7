// The final summary of an apply or destroy, shared by the TTY and plain views.
import type { ApplyResult } from '../../executor/result.js';
import type { Paint } from './paint.js';

export function renderSummary(result: ApplyResult, paint: Paint, verb = 'Apply'): string[] {
  const lines: string[] = [];
  // "sent" only when there are any: only an interrupt leaves actions sent and not awaited.
  const sent = result.abandoned.length > 0 ? `${result.abandoned.length} sent (wait abandoned), ` : '';
  const counts =
    `${result.done.length} done, ${sent}${result.failed.length} failed, ${result.skipped.length} skipped, ` +
    `${result.blocked.length} blocked`;
  const bindings = result.bindingsApplied > 0 ? `; ${result.bindingsApplied} lockfile binding(s) written` : '';
  const state = result.interrupted
    ? paint.yellow(`${verb} interrupted`)
    : result.failed.length > 0 || result.skipped.length > 0
      ? paint.red(`${verb} finished with errors`)
      : result.blocked.length > 0
        ? paint.yellow(`${verb} blocked`)
        : paint.green(`${verb} complete`);
  lines.push(`${state}: ${counts}${bindings}.`);

  if (result.done.length > 0) {
    lines.push('Done:');
    for (const d of result.done) {
      const id = d.resourceId ? ` (${d.adopted ? 'adopted ' : ''}${d.resourceId})` : '';
      lines.push(`  ${paint.green('✓')} ${d.action.address} ${d.action.op}${id}`);
    }
  }
  if (result.abandoned.length > 0) {
    lines.push('Sent, wait abandoned (the cloud finishes these; the next run picks them up):');
    for (const a of result.abandoned) {
      lines.push(`  ${paint.yellow('…')} ${a.action.address} ${a.action.op}${a.resourceId ? ` (${a.resourceId})` : ''}`);
    }
  }
  if (result.failed.length > 0) {
    lines.push('Failed:');
    for (const f of result.failed) lines.push(`  ${paint.red('✗')} ${f.message}`);
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
  const notStarted = result.skipped.filter((s) => s.reason === 'interrupted');
  if (result.interrupted) {
    const abandoned = result.abandoned.length > 0 ? `, ${result.abandoned.length} sent and not awaited` : '';
    lines.push(
      `Interrupted: ${notStarted.length} action(s) not started${abandoned}. ` +
        'Every created ID is in the lockfile; run the same command again to resume.',
    );
  }
  return lines;
}
