// "Changed outside dbform" (SPEC section 11): the drift section of a plan, in text and markdown,
// and the report of `plan --refresh-only`, which shows only it.
import { terminalJson, terminalLine, type Drift, type Plan } from '../../model/index.js';
import { driftJson } from '../../planner/index.js';
import type { Palette } from './palette.js';
import { formatValue } from './plan-view.js';

export const DRIFT_HEADING = 'Changed outside dbform since the last apply';

/** The section's lines (empty when nothing drifted), ending in a blank line. */
export function driftTextLines(drift: readonly Drift[], c: Palette): string[] {
  if (drift.length === 0) return [];
  const out = [`${DRIFT_HEADING}:`, ''];
  for (const d of drift) {
    if (d.deleted) {
      out.push(`  ${c.verb('delete', `- ${d.address}`)}  ${c.dim(`(${terminalLine(d.id)}: deleted outside dbform)`)}`);
      continue;
    }
    out.push(`  ${c.verb('update', `~ ${d.address}`)}  ${c.dim(`(${terminalLine(d.id)})`)}`);
    for (const ch of d.changes) out.push(`      ${ch.path}: ${formatValue(ch.before)} -> ${formatValue(ch.after)}`);
  }
  out.push('');
  return out;
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\|/g, '&#124;');
const code = (s: string) => `<code>${escapeHtml(s)}</code>`;

/** The section in markdown: one table row per changed field. */
export function driftMarkdownLines(drift: readonly Drift[]): string[] {
  if (drift.length === 0) return [];
  const out = [`#### ${DRIFT_HEADING}`, '', '| resource | field | last applied | live now |', '|---|---|---|---|'];
  for (const d of drift) {
    if (d.deleted) out.push(`| ${code(d.address)} (${code(terminalLine(d.id))}) | | | <em>deleted</em> |`);
    for (const ch of d.changes) out.push(`| ${code(d.address)} | ${code(ch.path)} | ${code(formatValue(ch.before))} | ${code(formatValue(ch.after))} |`);
  }
  out.push('');
  return out;
}

/** `plan --refresh-only` in text: the section, or one line saying nothing changed. */
export function renderDriftText(plan: Pick<Plan, 'projectId' | 'drift'>, c: Palette): string {
  const drift = plan.drift ?? [];
  if (drift.length === 0) return `${c.bold('No changes outside dbform.')} The live resources of project ${plan.projectId} are as the last apply left them.\n`;
  const count = drift.length === 1 ? '1 resource' : `${drift.length} resources`;
  return `${[...driftTextLines(drift, c), `${c.bold(`${count} changed outside dbform.`)} Nothing was changed; \`dbform plan\` shows what apply would do about it.`].join('\n')}\n`;
}

/** `plan --refresh-only --format markdown`: a drift report for an issue or a comment. */
export function renderDriftMarkdown(plan: Pick<Plan, 'projectId' | 'drift'>): string {
  const drift = plan.drift ?? [];
  const head = [`### dbform drift report for project ${code(plan.projectId)}`, ''];
  if (drift.length === 0) return `${[...head, '**No changes outside dbform.** The live resources are as the last apply left them.'].join('\n')}\n`;
  const count = drift.length === 1 ? '1 resource' : `${drift.length} resources`;
  return `${[...head, `**${count} changed outside dbform** since the last apply. \`dbform plan\` shows what the next apply would do about it.`, '', ...driftMarkdownLines(drift)].join('\n')}`;
}

/** `plan --refresh-only --json`: the drift alone, always as a list. */
export function renderDriftJson(plan: Pick<Plan, 'projectId' | 'drift'>): string {
  return `${terminalJson({ format_version: 1, project_id: plan.projectId, drift: (plan.drift ?? []).map(driftJson) }, 2)}\n`;
}
