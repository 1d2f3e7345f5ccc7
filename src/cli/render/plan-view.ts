// One entry per resource, shared by the text and markdown renderers: what happens to it, with
// which API calls, and each changed field once.
import { API_CAPABILITIES, CAPABILITY_TEXT, compareAddresses, terminalJson, terminalLine, terminalText, type Action, type Address, type Binding, type Diagnostic, type FieldChange, type Plan, type PolicyVerdict, type SettlingResource } from '../../model/index.js';
import { SENSITIVE, verbOf } from '../../planner/index.js';

export type ResourceVerb = 'create' | 'update' | 'replace' | 'delete' | 'adopt' | 'move' | 'protect' | 'forget' | 'retire';

export const SYMBOLS: Record<ResourceVerb, string> = {
  create: '+',
  update: '~',
  replace: '-/+',
  delete: '-',
  adopt: '<=',
  move: '->',
  protect: '~',
  forget: '-',
  // The binding moves here, as a move's does; the resource stays as it is.
  retire: '->',
};

export interface ResourceView {
  address: Address;
  verb: ResourceVerb;
  actions: Action[];
  changes: FieldChange[];
  bindings: Binding[];
  blocked: string[];
  dataLoss: boolean;
  /** What the policies say of its actions (SPEC section 16), each verdict once. */
  policy: PolicyVerdict[];
}

/**
 * Changes of all actions, each (path, before, after) once: a replace repeats paths on both halves.
 * A resource created here shows the values it gets, so there one row per (path, after) is enough.
 */
function mergeChanges(actions: Action[], created: boolean): FieldChange[] {
  const seen = new Set<string>();
  const forced = new Set(actions.flatMap((a) => a.changes.filter((c) => c.forcesReplace).map((c) => c.path)));
  const out: FieldChange[] = [];
  for (const c of actions.flatMap((a) => a.changes)) {
    if (!c.forcesReplace && forced.has(c.path)) continue;
    const key = JSON.stringify(created && !c.forcesReplace ? [c.path, c.after] : [c.path, c.before, c.after]);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(c);
  }
  return out;
}

function bindingVerb(bindings: Binding[]): ResourceVerb {
  for (const kind of ['retire', 'move', 'adopt', 'forget', 'protect'] as const) if (bindings.some((b) => b.kind === kind)) return kind;
  return 'protect';
}

export function buildPlanView(plan: Plan): ResourceView[] {
  const actions = new Map<Address, Action[]>();
  for (const a of plan.actions) actions.set(a.address, [...(actions.get(a.address) ?? []), a]);
  const bindings = new Map<Address, Binding[]>();
  for (const b of plan.bindings) bindings.set(b.address, [...(bindings.get(b.address) ?? []), b]);
  const addresses = [...new Set([...actions.keys(), ...bindings.keys()])].sort(compareAddresses);
  return addresses.map((address) => {
    const own = actions.get(address) ?? [];
    const bound = bindings.get(address) ?? [];
    const verb = own.length > 0 ? verbOf(own.map((a) => a.op)) : bindingVerb(bound);
    return {
      address,
      verb,
      actions: own,
      changes: mergeChanges(own, verb === 'create' || verb === 'replace'),
      bindings: bound,
      blocked: [...new Set(own.flatMap((a) => (a.blocked ? [a.blocked] : [])))],
      dataLoss: own.some((a) => a.risk === 'data-loss'),
      policy: uniqueVerdicts(own.flatMap((a) => a.policy ?? [])),
    };
  });
}

function uniqueVerdicts(list: PolicyVerdict[]): PolicyVerdict[] {
  const seen = new Set<string>();
  return list.filter((v) => {
    const key = JSON.stringify([v.effect, v.rule, v.message]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The verdicts to show beside a resource: every warn, and every deny its blocked line does not
 * already say (a deny on an action that protection blocked first).
 */
export function shownVerdicts(view: ResourceView): PolicyVerdict[] {
  return view.policy.filter((v) => v.effect === 'warn' || !view.blocked.includes(`policy ${v.rule}: ${v.message}`));
}

/** `policy warn small-previews: preview databases stay small` */
export function verdictText(v: PolicyVerdict): string {
  return `policy ${v.effect} ${v.rule}: ${terminalText(v.message)}`;
}

/** `Plan: N to create, ...` (SPEC section 3's Terraform-like summary line). */
export function summaryLine(plan: Plan): string {
  const s = plan.summary;
  return `Plan: ${s.create} to create, ${s.update} to update, ${s.replace} to replace, ${s.delete} to delete, ${s.adopt} to adopt, ${s.move} to move.`;
}

/**
 * The heading of the settling list (SPEC section 5). Settling is not a change to make: nothing is
 * sent for it, but apply waits for it, so `No changes` is never said of a project still moving.
 */
export function settlingHeading(plan: Plan): string {
  const n = plan.settling.length;
  return `Still settling: ${n} resource${n === 1 ? ' is' : 's are'} still changing (an earlier apply, or a change made elsewhere); apply waits for ${n === 1 ? 'it' : 'them'} before it reports success`;
}

/**
 * What the API can do, where it decided how the plan makes a change (SPEC section 15), one
 * sentence each: `The API renames services in place (renameService).`
 */
export function apiSentences(plan: Plan): string[] {
  const out: string[] = [];
  for (const c of API_CAPABILITIES) {
    const can = plan.api?.[c];
    if (can === undefined) continue;
    const text = can ? CAPABILITY_TEXT[c].yes : CAPABILITY_TEXT[c].no;
    out.push(`${text[0]!.toUpperCase()}${text.slice(1)}.`);
  }
  return out;
}

/**
 * The heading of the awaiting list (SPEC section 15): made, and waiting for others (another account
 * to accept a connection). Not a change and not settling: apply neither sends nor waits for anything.
 */
export function awaitingHeading(plan: Plan): string {
  const n = plan.awaiting?.length ?? 0;
  return `Awaiting others: ${n} resource${n === 1 ? ' is' : 's are'} made and wait${n === 1 ? 's' : ''} for something only others can do; apply does not wait for ${n === 1 ? 'it' : 'them'}`;
}

/** `PENDING: awaiting acceptance by account 123456789012`, the API's status as data. */
export const awaitingText = (a: NonNullable<Plan['awaiting']>[number]): string => `${terminalLine(a.status)}: awaiting ${terminalLine(a.awaits)}`;

/**
 * A settling resource's status as the list shows it, with the operation an earlier apply left in
 * flight (SPEC section 14): dbform's own change on its way, which apply waits for, not resends.
 */
export function settlingStatus(s: SettlingResource): string {
  const status = terminalLine(s.status);
  return s.op === undefined ? status : `${status} (${s.op} sent by an earlier apply, not seen to finish)`;
}

const REASON_NOTES: Partial<Record<Action['reason'], string>> = {
  drift: 'drift: its ID in the state is gone, so it is created again',
  removed: 'no longer in the config',
  destroy: 'destroy requested',
  'replace-requested': 'replace requested',
  'parent-replaced': 'its parent is replaced, which takes it along',
  'wake-for-changes': 'paused: started for these changes and stopped again',
  failed: 'the live one failed, so it is replaced',
};

/** Why a resource is in the plan, when the ops alone do not say it (drift, removal, ...). */
export function reasonNotes(view: ResourceView): string[] {
  const reasons = new Set(view.actions.map((a) => a.reason));
  return Object.entries(REASON_NOTES).filter(([r]) => reasons.has(r as Action['reason'])).map(([, note]) => note!);
}

/** A reason in words, for lists that name one action (`replace requested`, not `replace-requested`). */
export function reasonText(reason: Action['reason']): string {
  return REASON_NOTES[reason] ?? reason.replace(/-/g, ' ');
}

const RISK_NOTES: Array<[Action['risk'], string]> = [
  ['data-loss', 'data-loss risk'],
  ['connectivity', 'connectivity risk'],
  ['availability', 'availability risk'],
];

/**
 * Risks a reviewer should see next to the ops (SPEC section 3 risk classes; each op's is its
 * `risk` in src/model/operations.ts): connectivity and availability on every line, a delete
 * included. Data loss on a replace is flagged by the blocked
 * line or (markdown) more loudly on its own; on a delete line, which may carry no other mark once
 * allowed, it is named here too. `except` leaves out risks the caller flags another way.
 */
export function riskNotes(view: ResourceView, except: ReadonlySet<Action['risk']> = new Set()): string[] {
  const risks = new Set(view.actions.map((a) => a.risk));
  if (view.verb !== 'delete') risks.delete('data-loss');
  return RISK_NOTES.filter(([r]) => risks.has(r) && !except.has(r)).map(([, note]) => note);
}

/** Notes on a resource's lockfile-only changes, e.g. `adopt id kd9w2xp4mz`. */
export function bindingNotes(view: ResourceView): string[] {
  return view.bindings.map((b) => {
    if (b.kind === 'adopt') return `adopt existing ${terminalLine(String(b.id))}${b.protect ? ', protected' : ''}`;
    if (b.kind === 'move') return `moved from ${b.from}`;
    if (b.kind === 'retire') return `retired from ${b.from} (${terminalLine(String(b.id))})${b.protect ? ', protected' : ''}: kept as it is, never deleted by a plan`;
    if (b.kind === 'protect') return `protect: ${!b.protect} -> ${b.protect} (state only)`;
    return `already gone: forget ${terminalLine(String(b.id))} (state only)`;
  });
}

/**
 * A value as one line: strings quoted, the `(sensitive)` marker bare, anything else as compact
 * JSON. A name from the API is data: its controls stay JSON escapes (terminal-text.ts).
 */
export function formatValue(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return v === SENSITIVE ? v : terminalJson(v);
  return terminalJson(v);
}

/** `path: before -> after`, or `path: after` for a field that did not exist. */
export function formatChange(c: FieldChange, created: boolean): string {
  if (c.sensitive) return `${c.path}: (sensitive)`;
  const tail = c.forcesReplace ? '  (forces replacement)' : '';
  if (created && !c.forcesReplace) return `${c.path}: ${formatValue(c.after)}${tail}`;
  return `${c.path}: ${formatValue(c.before)} -> ${formatValue(c.after)}${tail}`;
}

/** `FILE:LINE:COL: message` or `address: message`, without a severity prefix (the renderer adds one). */
export function describeDiagnostic(d: Diagnostic): string {
  const message = terminalText(d.message);
  if (d.source) return `${d.source.file}:${d.source.line}:${d.source.col}: ${message}`;
  return d.address ? `${d.address}: ${message}` : message;
}
