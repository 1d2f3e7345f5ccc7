// The Terraform-like text plan (SPEC section 3): one block per changed resource, one line per
// changed field; unchanged resources are only counted, so a quiet plan stays a few lines.
import { planHasChanges, type Plan } from '../../model/index.js';
import { driftTextLines } from './drift.js';
import { createPalette, type Palette } from './palette.js';
import { apiSentences, awaitingHeading, awaitingText, bindingNotes, buildPlanView, reasonNotes, describeDiagnostic, formatChange, riskNotes, settlingHeading, settlingStatus, shownVerdicts, SYMBOLS, summaryLine, verdictText, type ResourceView } from './plan-view.js';

export interface TextOptions {
  color: boolean;
}

function resourceLines(v: ResourceView, c: Palette): string[] {
  const ops = v.actions.map((a) => a.op);
  const notes = [...reasonNotes(v), ...bindingNotes(v), ...riskNotes(v), ...(ops.length > 0 ? [ops.join(', ')] : [])];
  const header = `  ${c.verb(v.verb, `${SYMBOLS[v.verb]} ${v.address}`)}${notes.length > 0 ? `  ${c.dim(`(${notes.join('; ')})`)}` : ''}`;
  const created = v.verb === 'create' || v.verb === 'replace';
  const lines = [header, ...v.changes.map((ch) => `      ${formatChange(ch, created)}`)];
  for (const reason of v.blocked) lines.push(`      ${c.blocked(`blocked: ${reason}`)}`);
  for (const verdict of shownVerdicts(v)) lines.push(`      ${verdict.effect === 'deny' ? c.blocked(verdictText(verdict)) : c.warning(verdictText(verdict))}`);
  return lines;
}

function settlingLines(plan: Plan): string[] {
  if (plan.settling.length === 0) return [];
  const width = Math.max(...plan.settling.map((s) => s.address.length));
  return [`${settlingHeading(plan)}:`, '', ...plan.settling.map((s) => `  … ${s.address.padEnd(width)}  ${settlingStatus(s)}`), ''];
}

function awaitingLines(plan: Plan): string[] {
  const awaiting = plan.awaiting ?? [];
  if (awaiting.length === 0) return [];
  const width = Math.max(...awaiting.map((a) => a.address.length));
  return [`${awaitingHeading(plan)}:`, '', ...awaiting.map((a) => `  … ${a.address.padEnd(width)}  ${awaitingText(a)}`), ''];
}

function footer(plan: Plan, c: Palette): string[] {
  const s = plan.summary;
  // Named only when there are some, so a quiet plan stays as short as it was.
  const settling = s.settling > 0 ? `${s.settling} settling (apply waits for ${s.settling === 1 ? 'it' : 'them'}), ` : '';
  const counts = `${settling}${s.unchanged} unchanged, ${s.unmanaged} unmanaged (not in the config or state; left alone).`;
  const errors = plan.diagnostics.filter((d) => d.severity === 'error').length;
  if (errors > 0) return [c.error(`Planning failed with ${errors} error${errors === 1 ? '' : 's'} (above); nothing can be applied until they are fixed.`), counts];
  if (!planHasChanges(plan)) return [`${c.bold('No changes.')} ${counts}`];
  const lines = [c.bold(summaryLine(plan)), counts];
  const blocked = plan.actions.filter((a) => a.blocked !== undefined).length;
  if (blocked > 0) lines.push(c.blocked(`Blocked: ${blocked} action${blocked === 1 ? '' : 's'} may not run (see above); apply refuses this plan.`));
  return lines;
}

/** `Project proj-demo, workspace pr-12, state: postgres://db.internal:5432/infra` */
export function whereLine(plan: Plan): string {
  return `Project ${plan.projectId}, workspace ${plan.where!.workspace}, state: ${plan.where!.state}`;
}

/** Renders a plan as text; the same plan gives byte-identical output. */
export function renderPlanText(plan: Plan, opts: TextOptions): string {
  const c = createPalette(opts.color);
  const out: string[] = [];
  const views = buildPlanView(plan);
  // What changed outside dbform comes before the actions that would revert it.
  if (plan.where) out.push(c.dim(whereLine(plan)));
  out.push(...apiSentences(plan));
  out.push(...driftTextLines(plan.drift ?? [], c));
  if (views.length > 0) {
    out.push(plan.where ? 'dbform will make these changes:' : `dbform will make these changes in project ${plan.projectId}:`, '');
    for (const v of views) out.push(...resourceLines(v, c));
    out.push('');
  }
  out.push(...settlingLines(plan));
  out.push(...awaitingLines(plan));
  for (const d of plan.diagnostics) {
    const text = describeDiagnostic(d);
    out.push(d.severity === 'error' ? c.error(`Error: ${text}`) : c.warning(`Warning: ${text}`));
  }
  if (plan.diagnostics.length > 0) out.push('');
  // The plan's own verdicts (plan_deny, plan_warn), once.
  for (const v of plan.policy ?? []) out.push(v.effect === 'deny' ? c.blocked(verdictText(v)) : c.warning(verdictText(v)));
  if (plan.policy && plan.policy.length > 0) out.push('');
  out.push(...footer(plan, c));
  return `${out.join('\n')}\n`;
}
