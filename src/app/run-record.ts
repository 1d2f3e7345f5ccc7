// What an apply, destroy or sweep did, as the run fills it in, and its `--json` result (SPEC
// section 14, schemas/result.schema.json): the workspace and state, every action of the plan with
// its address, op, outcome, ID and error, the counts, the exit code. Built from the plan and the
// engine's result only: no request body, no password, no credential ever enters it.
import type { ActionError } from '../executor/errors.js';
import type { ApplyResult } from '../executor/result.js';
import { terminalLine, type Action, type Plan, type PlanWhere, type Summary } from '../model/index.js';

/** Filled as a run goes (run-plan.ts): whatever is known when it ends is reported. */
export interface RunRecord {
  command: 'apply' | 'destroy';
  projectId?: string;
  where?: PlanWhere;
  plan?: Plan;
  result?: ApplyResult;
  /** The approval was refused. */
  cancelled?: boolean;
}

/** One workspace of a sweep. */
export interface SweepEntry {
  workspace: string;
  /** Why it was due: `expired at ...`, `last applied at ...`. */
  why: string;
  outcome: 'swept' | 'skipped' | 'blocked' | 'failed';
  exitCode: number;
  error?: string;
  run?: RunRecord;
}

export interface SweepRecord {
  projectId?: string;
  state?: string;
  /** Every workspace that was due, in the order swept (a refusal without a terminal stops the rest). */
  due?: string[];
  entries: SweepEntry[];
}

/**
 * An action failure's message without the "<op> <address> failed: " it starts with: the views
 * already name the address and op, so the line says them once.
 */
export function failureText(address: string, op: string, message: string): string {
  const prefix = `${op} ${address} failed: `;
  // The message carries the API's words: written as data, on one line.
  return terminalLine(message.startsWith(prefix) ? message.slice(prefix.length) : message);
}

/** `service.db createService: 409 CONFLICT: name taken`, the order the other lists use. */
export function describeFailure(f: ActionError): string {
  return `${f.address} ${f.op}: ${failureText(f.address, f.op, f.message)}`;
}

export type ActionOutcome = 'done' | 'failed' | 'skipped' | 'abandoned' | 'blocked' | 'not-started';

interface ActionLine {
  address: string;
  op: string;
  outcome: ActionOutcome;
  id: string | null;
  error: string | null;
  blocked?: string;
}

const OUTCOMES: readonly ActionOutcome[] = ['done', 'failed', 'skipped', 'abandoned', 'blocked', 'not-started'];

/** The ID an action acted on or made: a create's new ID, else the one its plan names. */
const idOf = (a: Action, made?: string): string | null => made ?? a.refs.target?.id ?? null;

/** Every action of the plan once, in plan order, with what became of it. */
function actionLines(plan: Plan | undefined, result: ApplyResult | undefined): ActionLine[] {
  const byId = new Map<string, ActionLine>();
  for (const d of result?.done ?? []) byId.set(d.action.id, { address: d.action.address, op: d.action.op, outcome: 'done', id: idOf(d.action, d.resourceId), error: null });
  for (const a of result?.abandoned ?? []) byId.set(a.action.id, { address: a.action.address, op: a.action.op, outcome: 'abandoned', id: idOf(a.action, a.resourceId), error: null });
  for (const s of result?.skipped ?? []) {
    const why = s.reason === 'interrupted' ? 'interrupted' : s.root ? `upstream ${s.root.op} ${s.root.address} ${s.reason === 'upstream-blocked' ? 'is blocked' : 'failed'}` : s.reason;
    byId.set(s.action.id, { address: s.action.address, op: s.action.op, outcome: 'skipped', id: idOf(s.action), error: why });
  }
  const failed = [...(result?.failed ?? [])];
  const takeFailure = (a: Action) => {
    const i = failed.findIndex((f) => f.address === a.address && f.op === a.op);
    return i === -1 ? undefined : failed.splice(i, 1)[0];
  };
  const lines = (plan?.actions ?? []).map((a): ActionLine => {
    const known = byId.get(a.id);
    if (known) return known;
    if (a.blocked !== undefined) return { address: a.address, op: a.op, outcome: 'blocked', id: idOf(a), error: null, blocked: a.blocked };
    const f = takeFailure(a);
    if (f) return { address: a.address, op: a.op, outcome: 'failed', id: idOf(a), error: failureText(f.address, f.op, f.message) };
    return { address: a.address, op: a.op, outcome: 'not-started', id: idOf(a), error: null };
  });
  // What failed beside the plan's actions: the wait for a resource that was still settling.
  for (const f of failed) lines.push({ address: f.address, op: f.op, outcome: 'failed', id: null, error: failureText(f.address, f.op, f.message) });
  return lines;
}

function summaryJson(s: Summary | undefined): Record<string, number> | null {
  if (!s) return null;
  return { create: s.create, update: s.update, replace: s.replace, delete: s.delete, adopt: s.adopt, move: s.move, unchanged: s.unchanged, unmanaged: s.unmanaged, settling: s.settling };
}

/** The `--json` result of an apply or destroy (schemas/result.schema.json, `$defs/run`). */
export function runResultJson(record: RunRecord, exitCode: number, error: string | undefined): Record<string, unknown> {
  const actions = actionLines(record.plan, record.result);
  const counts = Object.fromEntries(OUTCOMES.map((o) => [o.replace('-', '_'), actions.filter((a) => a.outcome === o).length]));
  return {
    format_version: 1,
    command: record.command,
    project_id: record.projectId ?? null,
    workspace: record.where?.workspace ?? null,
    state: record.where?.state ?? null,
    exit_code: exitCode,
    error: error ?? null,
    cancelled: record.cancelled === true,
    summary: summaryJson(record.plan?.summary),
    counts: { ...counts, bindings_written: record.result?.bindingsApplied ?? 0 },
    actions: actions.map((a) => ({ address: a.address, op: a.op, outcome: a.outcome, id: a.id, error: a.error, ...(a.blocked !== undefined ? { blocked: a.blocked } : {}) })),
  };
}

/** The `--json` result of a sweep: each workspace's result (schemas/result.schema.json, `$defs/sweep`). */
export function sweepResultJson(record: SweepRecord, exitCode: number, error: string | undefined): Record<string, unknown> {
  const count = (o: SweepEntry['outcome']) => record.entries.filter((e) => e.outcome === o).length;
  return {
    format_version: 1,
    command: 'sweep',
    project_id: record.projectId ?? null,
    state: record.state ?? null,
    exit_code: exitCode,
    error: error ?? null,
    counts: { due: record.due?.length ?? record.entries.length, swept: count('swept'), skipped: count('skipped'), blocked: count('blocked'), failed: count('failed') },
    workspaces: record.entries.map((e) => ({
      workspace: e.workspace,
      why: e.why,
      outcome: e.outcome,
      exit_code: e.exitCode,
      error: e.error ?? null,
      result: e.run ? runResultJson(e.run, e.exitCode, e.error) : null,
    })),
  };
}
