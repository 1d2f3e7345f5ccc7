// The plan's JSON form (SPEC section 3): snake_case, fixed key order, `null` for absent values.
// The saved plan file is this object; `fromPlanJson` reads one back for `apply`.
import { API_CAPABILITIES, capabilityKey, type Action, type ApiCapabilities, type AwaitingResource, type Binding, type Diagnostic, type Drift, type FieldChange, type Plan, type PlanShape, type PolicyVerdict, type ResourceRef, type SettlingResource, type Summary } from '../model/index.js';
import { readPlanJson } from './plan-json-read.js';

type Json = Record<string, unknown>;

export interface PlanJson {
  format_version: 1;
  project_id: string;
  workspace?: string;
  state?: string;
  summary: Summary;
  /** Present only when something drifted, so that a plan without drift stays as it was. */
  drift?: Json[];
  actions: Json[];
  bindings: Json[];
  /** Present only when something is settling, so that a settled project's plan stays as it was. */
  settling?: Json[];
  /** Present only when something awaits others (SPEC section 15). */
  awaiting?: Json[];
  /** Present only when what the API can do decided a change (SPEC section 15): `renames_services`. */
  api?: Record<string, boolean>;
  fingerprints: Record<string, string>;
  state_fingerprint: string;
  diagnostics: Json[];
  policy?: Json[];
  lineage?: string | null;
  serial?: number;
  config_hash?: string;
  options?: { replace: string[]; target: string[]; allow_data_loss: boolean; restore?: { address: string; target_time: string; stamp: string } };
  policies_hash?: string;
}

function refJson(r: ResourceRef): Json {
  return { ...(r.address !== undefined ? { address: r.address } : {}), ...(r.id !== undefined ? { id: r.id } : {}) };
}

function changeJson(c: FieldChange): Json {
  return {
    path: c.path,
    before: c.before ?? null,
    after: c.after ?? null,
    ...(c.forcesReplace ? { forces_replace: true } : {}),
    ...(c.sensitive ? { sensitive: true } : {}),
  };
}

export function actionJson(a: Action): Json {
  const refs: Json = {};
  if (a.refs.target) refs.target = refJson(a.refs.target);
  if (a.refs.service) refs.service = refJson(a.refs.service);
  if (a.refs.vpc) refs.vpc = refJson(a.refs.vpc);
  if (a.refs.forkParent) refs.fork_parent = refJson(a.refs.forkParent);
  return {
    id: a.id,
    address: a.address,
    kind: a.kind,
    op: a.op,
    reason: a.reason,
    risk: a.risk,
    depends_on: [...a.dependsOn],
    changes: a.changes.map(changeJson),
    ...(a.blocked !== undefined ? { blocked: a.blocked } : {}),
    refs,
    ...(a.request !== undefined ? { request: a.request } : {}),
    ...(a.password !== undefined ? { password: { from_env: a.password.fromEnv, version: a.password.version } } : {}),
    ...(a.protect !== undefined ? { protect: a.protect } : {}),
    ...(a.policy !== undefined ? { policy: a.policy.map(verdictJson) } : {}),
  };
}

function verdictJson(v: PolicyVerdict): Json {
  return { rule: v.rule, effect: v.effect, message: v.message };
}

export function bindingJson(b: Binding): Json {
  return {
    kind: b.kind,
    address: b.address,
    ...(b.id !== undefined ? { id: b.id } : {}),
    ...(b.from !== undefined ? { from: b.from } : {}),
    ...(b.protect !== undefined ? { protect: b.protect } : {}),
    ...(b.targetTime !== undefined ? { target_time: b.targetTime } : {}),
  };
}

function settlingJson(s: SettlingResource): Json {
  return { address: s.address, id: s.id, ...(s.parentId !== undefined ? { parent_id: s.parentId } : {}), status: s.status, ...(s.op !== undefined ? { op: s.op } : {}) };
}

function awaitingJson(a: AwaitingResource): Json {
  return { address: a.address, id: a.id, ...(a.parentId !== undefined ? { parent_id: a.parentId } : {}), status: a.status, awaits: a.awaits };
}

function apiJson(api: ApiCapabilities): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  for (const c of API_CAPABILITIES) if (api[c] !== undefined) out[capabilityKey(c)] = api[c];
  return out;
}

export function driftJson(d: Drift): Json {
  return { address: d.address, id: d.id, deleted: d.deleted, changes: d.changes.map((c) => ({ path: c.path, before: c.before, after: c.after })) };
}

function diagnosticJson(d: Diagnostic): Json {
  return {
    severity: d.severity,
    message: d.message,
    ...(d.address !== undefined ? { address: d.address } : {}),
    ...(d.path !== undefined ? { path: d.path } : {}),
    ...(d.code !== undefined ? { code: d.code } : {}),
    ...(d.source !== undefined ? { source: { file: d.source.file, line: d.source.line, col: d.source.col } } : {}),
  };
}

function optionsJson(o: PlanShape): NonNullable<PlanJson['options']> {
  const restore = o.restore && { address: o.restore.address, target_time: o.restore.targetTime, stamp: o.restore.stamp };
  return { replace: [...o.replace], target: [...o.target], allow_data_loss: o.allowDataLoss, ...(restore ? { restore } : {}) };
}

export function toPlanJson(plan: Plan): PlanJson {
  const s = plan.summary;
  return {
    format_version: 1,
    project_id: plan.projectId,
    ...(plan.where ? { workspace: plan.where.workspace, state: plan.where.state } : {}),
    ...(plan.api ? { api: apiJson(plan.api) } : {}),
    summary: { create: s.create, update: s.update, replace: s.replace, delete: s.delete, adopt: s.adopt, move: s.move, unchanged: s.unchanged, unmanaged: s.unmanaged, settling: s.settling },
    ...(plan.drift && plan.drift.length > 0 ? { drift: plan.drift.map(driftJson) } : {}),
    actions: plan.actions.map(actionJson),
    bindings: plan.bindings.map(bindingJson),
    ...(plan.settling.length > 0 ? { settling: plan.settling.map(settlingJson) } : {}),
    ...(plan.awaiting && plan.awaiting.length > 0 ? { awaiting: plan.awaiting.map(awaitingJson) } : {}),
    fingerprints: Object.fromEntries(Object.keys(plan.fingerprints).sort().map((k) => [k, plan.fingerprints[k]!])),
    state_fingerprint: plan.stateFingerprint,
    diagnostics: plan.diagnostics.map(diagnosticJson),
    ...(plan.policy !== undefined ? { policy: plan.policy.map(verdictJson) } : {}),
    ...(plan.lineage !== undefined ? { lineage: plan.lineage } : {}),
    ...(plan.serial !== undefined ? { serial: plan.serial } : {}),
    ...(plan.configHash !== undefined ? { config_hash: plan.configHash } : {}),
    ...(plan.options !== undefined ? { options: optionsJson(plan.options) } : {}),
    ...(plan.policiesHash !== undefined ? { policies_hash: plan.policiesHash } : {}),
  };
}

/** Reads a plan JSON object back; every problem names the offending field. */
export function fromPlanJson(data: unknown): { ok: true; value: Plan } | { ok: false; errors: string[] } {
  return readPlanJson(data);
}
