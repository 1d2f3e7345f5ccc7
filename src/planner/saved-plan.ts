// A saved plan is verified, never trusted (SPEC section 3): `apply PLAN` plans again from the
// same config with the plan's own flags, the current lockfile and the live resources, and the
// file must say exactly that for every address it touches. Addresses it does not touch may
// differ: a saved plan goes stale per resource, not when anything in the project changed.
import { compareAddresses, type Action, type Address, type Lockfile, type Plan, type PlanShape } from '../model/index.js';
import { canonicalJson } from './fingerprint.js';
import { actionJson, bindingJson } from './plan-json.js';

/** The plan as `plan --out` saves it: with the state, config and flags it was made from. */
export function withSavedInputs(plan: Plan, lock: Lockfile, configHash: string, options: PlanShape): Plan {
  return {
    ...plan,
    lineage: lock.lineage ?? null,
    serial: lock.serial ?? 0,
    configHash,
    options: { replace: [...options.replace], target: [...options.target], allowDataLoss: options.allowDataLoss, ...(options.restore ? { restore: { ...options.restore } } : {}) },
  };
}

/** Every address the saved plan acts on or binds (a move's old address included). */
function touchedAddresses(plan: Plan): Address[] {
  const out = new Set<Address>(plan.actions.map((a) => a.address));
  for (const b of plan.bindings) {
    out.add(b.address);
    if (b.from !== undefined) out.add(b.from);
  }
  return [...out].sort(compareAddresses);
}

/** Action ID -> `address op` (with `#n` for a repeat), which does not depend on numbering. */
function actionNames(actions: readonly Action[]): Map<string, string> {
  const seen = new Map<string, number>();
  const out = new Map<string, string>();
  for (const a of actions) {
    const base = `${a.address} ${a.op}`;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    out.set(a.id, n === 1 ? base : `${base}#${n}`);
  }
  return out;
}

const MAX_SHOWN = 160;

function show(value: unknown): string {
  if (value === undefined) return 'absent';
  const text = canonicalJson(value);
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 1)}…` : text;
}

function opsList(actions: readonly Action[]): string {
  return actions.length === 0 ? 'no action' : actions.map((a) => a.op).join(', ');
}

/** The first field (in the order a reviewer reads them) in which two actions of one address differ. */
function actionFieldDifference(saved: Action, now: Action): string | undefined {
  const s = actionJson(saved);
  const n = actionJson(now);
  for (const field of ['kind', 'reason', 'risk', 'blocked', 'refs', 'request', 'changes', 'password', 'protect']) {
    if (canonicalJson(s[field] ?? null) !== canonicalJson(n[field] ?? null)) {
      return `${saved.address} ${saved.op}: its ${field} is ${show(s[field])} in the plan file but ${show(n[field])} now`;
    }
  }
  return undefined;
}

function dependencyDifference(saved: Action, now: Action, savedNames: Map<string, string>, nowNames: Map<string, string>): string | undefined {
  const s = saved.dependsOn.map((d) => savedNames.get(d) ?? d).sort();
  const n = now.dependsOn.map((d) => nowNames.get(d) ?? d).sort();
  if (s.join('\n') === n.join('\n')) return undefined;
  const list = (names: string[]) => (names.length === 0 ? 'nothing' : names.join(', '));
  return `${saved.address} ${saved.op}: it waits for ${list(s)} in the plan file but for ${list(n)} now`;
}

function bindingsOf(plan: Plan, address: Address): string[] {
  return plan.bindings.filter((b) => b.address === address).map((b) => canonicalJson(bindingJson(b)));
}

/**
 * The first difference between a saved plan and the plan made now, for the addresses the saved
 * plan touches, in one line; undefined when there is none. Everything an action carries is
 * compared (op, request, refs, changes, risk, blocked, ...) except its ID: what it waits for is
 * compared by name, so renumbering cannot hide a change of order.
 */
export function findPlanDifference(saved: Plan, now: Plan): string | undefined {
  const savedNames = actionNames(saved.actions);
  const nowNames = actionNames(now.actions);
  // A binding planned now that takes an entry away from an address the file touches (a move, a
  // restore's retirement) is part of what happens to that address: a file without it is edited.
  const touched = new Set(touchedAddresses(saved));
  for (const b of now.bindings) if (b.from !== undefined && touched.has(b.from)) touched.add(b.address);
  for (const address of [...touched].sort(compareAddresses)) {
    const s = saved.actions.filter((a) => a.address === address);
    const n = now.actions.filter((a) => a.address === address);
    if (s.map((a) => a.op).join() !== n.map((a) => a.op).join()) {
      return `${address}: the plan file has ${opsList(s)}, but dbform plans ${opsList(n)} now`;
    }
    for (let i = 0; i < s.length; i++) {
      const d = actionFieldDifference(s[i]!, n[i]!) ?? dependencyDifference(s[i]!, n[i]!, savedNames, nowNames);
      if (d !== undefined) return d;
    }
    const [sb, nb] = [bindingsOf(saved, address), bindingsOf(now, address)];
    if (sb.join('\n') !== nb.join('\n')) {
      const list = (b: string[]) => (b.length === 0 ? 'no binding' : b.join(', '));
      return `${address}: the plan file has ${list(sb)}, but dbform plans ${list(nb)} now`;
    }
  }
  return undefined;
}
