// Reading a saved plan back (`apply PLAN`). The shape is checked by ajv's code for
// schemas/plan.schema.json, generated into ./generated/plan-validator.ts: plain code that imports
// nothing, so the planner stays pure and free of dependencies (`npm run schema` writes it, a test
// compares it). What a schema cannot say is checked by the small named checks below. Every
// problem names its field, e.g. `actions[2].op: must be one of createVPC, ...`, one line each.
import { kindDef } from '../kinds/index.js';
import { API_CAPABILITIES, capabilityKey, kindOf, nounOf, type Action, type ApiCapabilities, type AwaitingResource, type KeywordError, type Binding, type Diagnostic, type Drift, type DriftChange, type FieldChange, type OperationId, type Plan, type PolicyVerdict, type ResourceRef, type SettlingResource, type Summary } from '../model/index.js';
import { schema as planSchema, validate } from './generated/plan-validator.js';
import { describeSchemaErrors, formatPath, type Problem } from './plan-json-problems.js';

type Json = Record<string, unknown>;
type Validator = ((data: unknown) => boolean) & { errors?: KeywordError[] | null };

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const objects = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isObject) : []);

export function readPlanJson(data: unknown): { ok: true; value: Plan } | { ok: false; errors: string[] } {
  if (isObject(data) && data.format_version !== 1) {
    return { ok: false, errors: [`format_version: this dbform reads plan format 1 (found ${JSON.stringify(data.format_version)}); create the plan again with this version`] };
  }
  const json = withLaterFields(data);
  const run = validate as Validator;
  const problems = run(json) ? [] : describeSchemaErrors(run.errors ?? [], json, planSchema as Json);
  if (isObject(json)) problems.push(...checkActionGraph(json.actions), ...checkActionAddresses(json.actions), ...checkSettlingKinds(json.settling));
  if (problems.length > 0) return { ok: false, errors: problems.map((p) => `${formatPath(p.path)}: ${p.message}`) };
  return { ok: true, value: planOf(json as Json) };
}

/** Fields added to format 1 after it was first written: a plan saved before them reads them as none. */
function withLaterFields(data: unknown): unknown {
  if (!isObject(data) || !isObject(data.summary) || 'settling' in data.summary) return data;
  return { ...data, summary: { ...data.summary, settling: 0 } };
}

// ---- what the schema cannot say ---------------------------------------------------------------

/** Each action's id is new, and it depends only on actions before it (the plan is in order). */
function checkActionGraph(actions: unknown): Problem[] {
  const problems: Problem[] = [];
  const ids = new Set<unknown>();
  (Array.isArray(actions) ? actions : []).forEach((a: unknown, i) => {
    if (!isObject(a)) return;
    if (ids.has(a.id)) problems.push({ path: ['actions', i, 'id'], message: `duplicate id ${JSON.stringify(a.id)}` });
    for (const d of Array.isArray(a.depends_on) ? a.depends_on : []) {
      if (typeof d === 'string' && !ids.has(d)) problems.push({ path: ['actions', i, 'depends_on'], message: `${JSON.stringify(d)} is not an earlier action` });
    }
    ids.add(a.id);
  });
  return problems;
}

/** An action's address is one of its `kind`. */
function checkActionAddresses(actions: unknown): Problem[] {
  const problems: Problem[] = [];
  (Array.isArray(actions) ? actions : []).forEach((a: unknown, i) => {
    if (!isObject(a) || typeof a.address !== 'string' || typeof a.kind !== 'string') return;
    const kind = kindOf(a.address);
    if (kind !== undefined && kind !== a.kind) problems.push({ path: ['actions', i, 'address'], message: `"${a.address}" is not a ${a.kind} address` });
  });
  return problems;
}

/** A settling resource is one with a transitional status to wait for: never one of a kind without (a VPC). */
function checkSettlingKinds(settling: unknown): Problem[] {
  const problems: Problem[] = [];
  (Array.isArray(settling) ? settling : []).forEach((s: unknown, i) => {
    const kind = isObject(s) && typeof s.address === 'string' ? kindOf(s.address) : undefined;
    if (kind !== undefined && kindDef(kind).live.settling === undefined) {
      problems.push({ path: ['settling', i, 'address'], message: `a ${nounOf(kind)} has no transitional status to wait for` });
    }
  });
  return problems;
}

// ---- the plan, from JSON the schema accepted --------------------------------------------------

function planOf(o: Json): Plan {
  const s = o.summary as Json;
  const plan: Plan = {
    formatVersion: 1,
    projectId: o.project_id as string,
    summary: Object.fromEntries(['create', 'update', 'replace', 'delete', 'adopt', 'move', 'unchanged', 'unmanaged', 'settling'].map((k) => [k, s[k]])) as unknown as Summary,
    actions: objects(o.actions).map(actionOf),
    bindings: objects(o.bindings).map(bindingOf),
    settling: objects(o.settling).map(settlingOf),
    fingerprints: { ...(o.fingerprints as Record<string, string>) },
    stateFingerprint: o.state_fingerprint as string,
    diagnostics: objects(o.diagnostics).map(diagnosticOf),
  };
  if (typeof o.workspace === 'string' && typeof o.state === 'string') plan.where = { workspace: o.workspace, state: o.state };
  if (isObject(o.api)) plan.api = apiOf(o.api);
  if (o.lineage !== undefined) plan.lineage = o.lineage as string | null;
  if (o.serial !== undefined) plan.serial = o.serial as number;
  if (o.config_hash !== undefined) plan.configHash = o.config_hash as string;
  if (o.policies_hash !== undefined) plan.policiesHash = o.policies_hash as string;
  const policy = objects(o.policy).map(verdictOf);
  if (policy.length > 0) plan.policy = policy;
  // Informative only (apply recomputes everything): read back so a saved plan shows what it showed.
  const drift = objects(o.drift).map(driftOf);
  if (drift.length > 0) plan.drift = drift;
  const awaiting = objects(o.awaiting).map(awaitingOf);
  if (awaiting.length > 0) plan.awaiting = awaiting;
  if (isObject(o.options)) {
    plan.options = { replace: [...(o.options.replace as string[])], target: [...(o.options.target as string[])], allowDataLoss: o.options.allow_data_loss as boolean };
    const restore = o.options.restore;
    if (isObject(restore)) plan.options.restore = { address: restore.address as string, targetTime: restore.target_time as string, stamp: restore.stamp as string };
  }
  return plan;
}

function apiOf(o: Json): ApiCapabilities {
  const api: ApiCapabilities = {};
  for (const c of API_CAPABILITIES) if (typeof o[capabilityKey(c)] === 'boolean') api[c] = o[capabilityKey(c)] as boolean;
  return api;
}

function refOf(o: Json): ResourceRef {
  return { ...(o.address !== undefined ? { address: o.address as string } : {}), ...(o.id !== undefined ? { id: o.id as string } : {}) };
}

const REF_KEYS = { target: 'target', service: 'service', vpc: 'vpc', fork_parent: 'forkParent' } as const;

function actionOf(o: Json): Action {
  const refs: Action['refs'] = {};
  for (const [json, key] of Object.entries(REF_KEYS)) if (isObject((o.refs as Json)[json])) refs[key] = refOf((o.refs as Json)[json] as Json);
  const action: Action = {
    id: o.id as string,
    address: o.address as string,
    kind: o.kind as Action['kind'],
    op: o.op as Action['op'],
    reason: o.reason as Action['reason'],
    risk: o.risk as Action['risk'],
    dependsOn: [...(o.depends_on as string[])],
    changes: objects(o.changes).map(changeOf),
    refs,
  };
  if (o.blocked !== undefined) action.blocked = o.blocked as string;
  if (isObject(o.request)) action.request = o.request;
  if (isObject(o.password)) action.password = { fromEnv: o.password.from_env as string, version: o.password.version as number };
  if (o.protect !== undefined) action.protect = o.protect as boolean;
  const policy = objects(o.policy).map(verdictOf);
  if (policy.length > 0) action.policy = policy;
  return action;
}

function verdictOf(o: Json): PolicyVerdict {
  return { rule: o.rule as string, effect: o.effect as PolicyVerdict['effect'], message: o.message as string };
}

function changeOf(o: Json): FieldChange {
  return { path: o.path as string, before: o.before ?? null, after: o.after ?? null, forcesReplace: o.forces_replace === true, sensitive: o.sensitive === true };
}

function driftOf(o: Json): Drift {
  const changes = objects(o.changes).map((c): DriftChange => ({ path: c.path as string, before: c.before as DriftChange['before'], after: c.after as DriftChange['after'] }));
  return { address: o.address as string, id: o.id as string, deleted: o.deleted as boolean, changes };
}

function bindingOf(o: Json): Binding {
  return {
    kind: o.kind as Binding['kind'],
    address: o.address as string,
    ...(o.id !== undefined ? { id: o.id as string } : {}),
    ...(o.from !== undefined ? { from: o.from as string } : {}),
    ...(o.protect !== undefined ? { protect: o.protect as boolean } : {}),
    ...(o.target_time !== undefined ? { targetTime: o.target_time as string } : {}),
  };
}

function settlingOf(o: Json): SettlingResource {
  const address = o.address as string;
  return {
    address,
    kind: kindOf(address)!,
    id: o.id as string,
    ...(o.parent_id !== undefined ? { parentId: o.parent_id as string } : {}),
    status: o.status as string,
    ...(o.op !== undefined ? { op: o.op as OperationId } : {}),
  };
}

function awaitingOf(o: Json): AwaitingResource {
  const address = o.address as string;
  return { address, kind: kindOf(address)!, id: o.id as string, ...(o.parent_id !== undefined ? { parentId: o.parent_id as string } : {}), status: o.status as string, awaits: o.awaits as string };
}

function diagnosticOf(o: Json): Diagnostic {
  const d: Diagnostic = { severity: o.severity as Diagnostic['severity'], message: o.message as string };
  for (const key of ['address', 'path', 'code'] as const) if (typeof o[key] === 'string') d[key] = o[key] as string;
  if (isObject(o.source)) d.source = { file: o.source.file as string, line: o.source.line as number, col: o.source.col as number };
  return d;
}
