// A plan as a pull-request comment: summary table first, blocked and data-loss actions flagged
// at the top, then one collapsible section per resource. Stays under GitHub's comment limit by
// folding long lists into "... and N more".
import { planHasChanges, type FieldChange, type Plan, type Risk } from '../../model/index.js';
import { driftMarkdownLines } from './drift.js';
import { graphMarkdownLines } from './graph.js';
import { apiSentences, awaitingHeading, awaitingText, bindingNotes, buildPlanView, describeDiagnostic, reasonNotes, reasonText, formatValue, riskNotes, settlingHeading, settlingStatus, shownVerdicts, SYMBOLS, type ResourceView } from './plan-view.js';

/** GitHub rejects comments over 65,536 characters; keep a margin. */
export const MARKDOWN_LIMIT = 60_000;
const LIST_LIMIT = 20;
const CHANGE_LIMIT = 30;

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\|/g, '&#124;');
const code = (s: string) => `<code>${escapeHtml(s)}</code>`;

function folded<T>(items: T[], limit: number, line: (t: T) => string, more: (n: number) => string): string[] {
  const out = items.slice(0, limit).map(line);
  if (items.length > limit) out.push(more(items.length - limit));
  return out;
}

function summaryTable(plan: Plan): string[] {
  const s = plan.summary;
  // The settling column appears only when something settles, so a settled plan reads as before.
  const cols = ['create', 'update', 'replace', 'delete', 'adopt', 'move', ...(s.settling > 0 ? (['settling'] as const) : []), 'unchanged', 'unmanaged'] as const;
  return [`| ${cols.join(' | ')} |`, `|${cols.map(() => '---:').join('|')}|`, `| ${cols.map((k) => s[k]).join(' | ')} |`];
}

function flagged(plan: Plan): string[] {
  const out: string[] = [];
  const blocked = plan.actions.filter((a) => a.blocked !== undefined);
  if (blocked.length > 0) {
    out.push('> [!CAUTION]', `> **Blocked:** ${blocked.length} action${blocked.length === 1 ? '' : 's'} may not run, so apply refuses this plan (exit 3).`);
    out.push(...folded(blocked, LIST_LIMIT, (a) => `> - ${code(a.address)} ${a.op}: ${escapeHtml(a.blocked!)}`, (n) => `> - ... and ${n} more`), '');
  }
  const loss = plan.actions.filter((a) => a.risk === 'data-loss');
  if (loss.length > 0) {
    out.push('> [!WARNING]', `> **Data loss:** ${loss.length} action${loss.length === 1 ? '' : 's'} destroy${loss.length === 1 ? 's' : ''} data.`);
    out.push(...folded(loss, LIST_LIMIT, (a) => `> - ${code(a.address)} ${a.op} (${escapeHtml(reasonText(a.reason))})`, (n) => `> - ... and ${n} more`), '');
  }
  if (plan.settling.length > 0) {
    out.push('> [!NOTE]', `> **${escapeHtml(settlingHeading(plan))}.**`);
    out.push(...folded(plan.settling, LIST_LIMIT, (s) => `> - ${code(s.address)} ${escapeHtml(settlingStatus(s))}`, (n) => `> - ... and ${n} more`), '');
  }
  const awaiting = plan.awaiting ?? [];
  if (awaiting.length > 0) {
    out.push('> [!NOTE]', `> **${escapeHtml(awaitingHeading(plan))}.**`);
    out.push(...folded(awaiting, LIST_LIMIT, (a) => `> - ${code(a.address)} ${escapeHtml(awaitingText(a))}`, (n) => `> - ... and ${n} more`), '');
  }
  if (plan.policy && plan.policy.length > 0) {
    out.push('**Policies** (the whole plan)', '', ...plan.policy.map((p) => `- ${p.effect} ${code(p.rule)}: ${escapeHtml(p.message)}`), '');
  }
  const errors = plan.diagnostics.filter((d) => d.severity === 'error');
  const warnings = plan.diagnostics.filter((d) => d.severity === 'warning');
  for (const [title, list] of [['Errors', errors], ['Warnings', warnings]] as const) {
    if (list.length === 0) continue;
    out.push(`**${title}**`, '', ...folded(list, LIST_LIMIT, (d) => `- ${escapeHtml(describeDiagnostic(d))}`, (n) => `- ... and ${n} more`), '');
  }
  return out;
}

function cell(v: unknown, sensitive: boolean): string {
  if (sensitive) return '<em>(sensitive)</em>';
  return v === null || v === undefined ? '' : code(formatValue(v));
}

/**
 * One row per changed field, as the text format shows it: a created or replaced resource lists
 * the values it gets, with before -> after only on the fields that force the replacement.
 */
function changeTable(v: ResourceView): string[] {
  const more = (n: number) => `| ... and ${n} more | |${v.verb === 'create' || v.verb === 'replace' ? '' : ' |'}`;
  if (v.verb === 'create' || v.verb === 'replace') {
    const value = (c: FieldChange) => (c.forcesReplace ? `${cell(c.before, c.sensitive)} → ${cell(c.after, c.sensitive)} (forces replacement)` : cell(c.after, c.sensitive));
    return ['| field | value |', '|---|---|', ...folded(v.changes, CHANGE_LIMIT, (c) => `| ${code(c.path)} | ${value(c)} |`, more)];
  }
  const row = (c: FieldChange) => `| ${code(c.path)} | ${cell(c.before, c.sensitive)} | ${cell(c.after, c.sensitive)} |`;
  return ['| field | before | after |', '|---|---|---|', ...folded(v.changes, CHANGE_LIMIT, row, more)];
}

/** Data loss has its own flag in the section title (⚠️ data loss). */
const FLAGGED_RISKS: ReadonlySet<Risk> = new Set(['data-loss']);

function resourceSection(v: ResourceView): string {
  const ops = v.actions.map((a) => a.op).join(', ');
  const notes = [...reasonNotes(v), ...bindingNotes(v), ...riskNotes(v, FLAGGED_RISKS), ...(ops ? [ops] : [])].map(escapeHtml).join('; ');
  const verdicts = shownVerdicts(v);
  const warned = v.policy.some((p) => p.effect === 'warn');
  const flags = `${v.blocked.length > 0 ? ' 🛑 blocked' : ''}${v.dataLoss ? ' ⚠️ data loss' : ''}${warned ? ' ⚠️ policy' : ''}`;
  const title = `${code(`${SYMBOLS[v.verb]} ${v.address}`)} ${v.verb}${flags} · ${notes}`;
  // Nothing to unfold (a delete, a move): one line is enough.
  if (v.changes.length === 0 && v.blocked.length === 0 && verdicts.length === 0) return `- ${title}
`;
  const lines = [`<details><summary>${title}</summary>`, ''];
  if (v.changes.length > 0) lines.push(...changeTable(v), '');
  for (const reason of v.blocked) lines.push(`**Blocked:** ${escapeHtml(reason)}`, '');
  for (const p of verdicts) lines.push(`**Policy ${p.effect}:** ${code(p.rule)} ${escapeHtml(p.message)}`, '');
  lines.push('</details>', '');
  return lines.join('\n');
}

/** Renders a plan for a pull-request comment; deterministic and under MARKDOWN_LIMIT characters. */
export function renderPlanMarkdown(plan: Plan): string {
  const where = plan.where ? [`Workspace ${code(plan.where.workspace)} · state ${code(plan.where.state)}`, ''] : [];
  const api = apiSentences(plan).flatMap((s) => [escapeHtml(s), '']);
  const head = [`### dbform plan for project ${code(plan.projectId)}`, '', ...where, ...api, ...summaryTable(plan), ''];
  const errors = plan.diagnostics.filter((d) => d.severity === 'error').length;
  if (errors > 0) head.push(`**Planning failed** with ${errors} error${errors === 1 ? '' : 's'}; nothing can be applied until they are fixed.`, '');
  else if (!planHasChanges(plan) && plan.settling.length > 0) head.push('**No changes** to make, but some resources are still settling (below); apply waits for them.', '');
  else if (!planHasChanges(plan)) head.push('**No changes.** The live infrastructure matches the configuration.', '');
  head.push(...flagged(plan));
  head.push(...driftMarkdownLines(plan.drift ?? []));
  // A third of the comment at most, so the resources still show.
  head.push(...graphMarkdownLines(plan, Math.floor(MARKDOWN_LIMIT / 3)));
  let text = `${head.join('\n')}\n`;
  const views = buildPlanView(plan);
  const reserve = 200;
  for (let i = 0; i < views.length; i++) {
    const section = resourceSection(views[i]!);
    if (text.length + section.length + reserve > MARKDOWN_LIMIT) {
      text += `... and ${views.length - i} more resources not shown here; see \`dbform plan\` or \`--json\` for the full plan.\n`;
      break;
    }
    text += `${section}\n`;
  }
  return text;
}
