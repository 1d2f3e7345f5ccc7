// What `dbform policy test` prints: per action the rules that hold (or every rule, --all), the
// plan-level rules, a tally per rule, and the outcome. Text for a person, JSON for a script.
import type { CompiledRule, PolicyInput, PolicyResult, PolicySet, Verdict } from '../../policy/index.js';
import { createPalette, type Palette } from '../render/palette.js';

export interface PolicyTestView {
  policies: PolicySet;
  hash: string | undefined;
  input: PolicyInput;
  result: PolicyResult;
  rules: readonly CompiledRule[];
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function verdictLine(v: Verdict, p: Palette): string {
  const effect = v.effect === 'deny' ? p.blocked('deny') : v.effect === 'warn' ? p.warning('warn') : p.dim('pass');
  return `  ${effect}  ${v.rule}${v.effect === 'pass' ? '' : `: ${v.message}`}`;
}

/** How many actions each per-action rule held for (plan rules: whether it held). */
function tally(view: PolicyTestView): string[] {
  const held = new Map<string, number>();
  for (const list of [...Object.values(view.result.actions), view.result.plan]) {
    for (const v of list) if (v.effect !== 'pass') held.set(v.rule, (held.get(v.rule) ?? 0) + 1);
  }
  const total = view.input.actions.length;
  return view.rules.map((r) => {
    const n = held.get(r.name) ?? 0;
    const scope = r.kind === 'plan_deny' || r.kind === 'plan_warn' ? (n > 0 ? 'holds for the plan' : 'does not hold for the plan') : `holds for ${n} of ${plural(total, 'action')}`;
    return `  ${r.name} (${r.kind}, ${r.source.file}:${r.source.line}:${r.source.col}): ${scope}`;
  });
}

export function renderPolicyTestText(view: PolicyTestView, color: boolean): string {
  const p = createPalette(color);
  const { input, result } = view;
  const lines: string[] = [];
  const files = view.policies.files.map((f) => `${f.path} (${plural(f.rules, 'rule')})`).join(', ');
  lines.push(`Policies: ${files}`);
  lines.push(`Plan of project ${input.projectId}, workspace ${input.workspace}, now ${input.now.toISOString()}: ${plural(input.actions.length, 'action')}`);
  lines.push('');
  let shown = 0;
  for (const a of input.actions) {
    const verdicts = result.actions[a.id];
    if (!verdicts) continue;
    shown++;
    lines.push(p.bold(`${a.address}  ${a.op}`) + p.dim(`  (${a.id}, risk ${a.risk})`));
    lines.push(...verdicts.map((v) => verdictLine(v, p)));
  }
  if (shown === 0) lines.push(p.dim(input.actions.length === 0 ? 'The plan has no actions.' : 'No per-action rule holds for any action.'));
  if (result.plan.length > 0) {
    lines.push(p.bold('plan'));
    lines.push(...result.plan.map((v) => verdictLine(v, p)));
  }
  lines.push('', 'Rules:', ...tally(view), '');
  if (result.denies > 0) lines.push(p.blocked(`${plural(result.denies, 'deny', 'denies')} ${result.denies === 1 ? 'holds' : 'hold'}: plan and apply would refuse this plan (exit 3).`));
  else lines.push(`No deny holds${result.warns > 0 ? ` (${plural(result.warns, 'warning')})` : ''}.`);
  return `${lines.join('\n')}\n`;
}

const verdictJson = (v: Verdict) => ({
  rule: v.rule,
  effect: v.effect,
  message: v.message,
  file: v.source.file,
  line: v.source.line,
  col: v.source.col,
  ...(v.error !== undefined ? { error: v.error } : {}),
});

export function renderPolicyTestJson(view: PolicyTestView): string {
  const { input, result } = view;
  const out = {
    policies: view.policies.files.map((f) => ({ file: f.path, sha256: `sha256:${f.sha256}`, rules: f.rules })),
    policies_hash: view.hash ?? null,
    project_id: input.projectId,
    workspace: input.workspace,
    now: input.now.toISOString(),
    actions: input.actions.filter((a) => result.actions[a.id]).map((a) => ({ id: a.id, address: a.address, op: a.op, verdicts: result.actions[a.id]!.map(verdictJson) })),
    plan: result.plan.map(verdictJson),
    denies: result.denies,
    warns: result.warns,
  };
  return `${JSON.stringify(out, null, 2)}\n`;
}
