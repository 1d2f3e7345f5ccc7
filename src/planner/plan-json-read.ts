// Reading a saved plan back (`apply PLAN`): a hand-written validator so the planner stays free of
// dependencies. Every problem names its field, e.g. `actions[2].op: unknown operation "x"`.
import {
  kindOf,
  OPERATION_IDS,
  type Action,
  type ActionReason,
  type Binding,
  type BindingKind,
  type Diagnostic,
  type Drift,
  type DriftChange,
  type DriftValue,
  type FieldChange,
  type Kind,
  type OperationId,
  type Plan,
  type ResourceRef,
  type Risk,
  type SettlingResource,
  type Summary,
} from '../model/index.js';

type Json = Record<string, unknown>;

const OPS = Object.fromEntries(OPERATION_IDS.map((op) => [op, true])) as Record<OperationId, true>;
const REASONS: Record<ActionReason, true> = {
  missing: true, drift: true, changed: true, 'immutable-field': true, 'replace-requested': true, 'parent-replaced': true,
  removed: true, destroy: true, 'wake-for-changes': true, 'restore-paused': true, failed: true,
};
const RISKS: Record<Risk, true> = { 'data-loss': true, connectivity: true, availability: true, none: true };
const KINDS: Record<Kind, true> = { vpc: true, peering: true, service: true, replica_set: true };
const BINDING_KINDS: Record<BindingKind, true> = { adopt: true, move: true, protect: true, forget: true };
const SUMMARY_KEYS = ['create', 'update', 'replace', 'delete', 'adopt', 'move', 'unchanged', 'unmanaged'] as const;
/** Keys added after format 1 was first written: a plan saved before them reads them as 0. */
const LATER_SUMMARY_KEYS = ['settling'] as const;
const HASH = /^sha256:[0-9a-f]{64}$/;

class Reader {
  readonly errors: string[] = [];
  fail(path: string, message: string): undefined {
    this.errors.push(`${path}: ${message}`);
    return undefined;
  }
  obj(v: unknown, path: string): Json | undefined {
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v as Json;
    return this.fail(path, 'must be an object');
  }
  arr(v: unknown, path: string): unknown[] {
    if (Array.isArray(v)) return v;
    this.fail(path, 'must be an array');
    return [];
  }
  str(o: Json, key: string, path: string, optional = false): string | undefined {
    const v = o[key];
    if (v === undefined && optional) return undefined;
    if (typeof v === 'string' && v !== '') return v;
    return this.fail(`${path}.${key}`, 'must be a non-empty string');
  }
  int(o: Json, key: string, path: string, optional = false): number | undefined {
    const v = o[key];
    if (v === undefined && optional) return undefined;
    if (typeof v === 'number' && Number.isInteger(v) && v >= 0) return v;
    return this.fail(`${path}.${key}`, 'must be a non-negative integer');
  }
  bool(o: Json, key: string, path: string): boolean | undefined {
    const v = o[key];
    if (v === undefined || typeof v === 'boolean') return v;
    return this.fail(`${path}.${key}`, 'must be true or false');
  }
  oneOf<T extends string>(o: Json, key: string, allowed: Record<T, true>, path: string): T | undefined {
    const v = o[key];
    if (typeof v === 'string' && Object.hasOwn(allowed, v)) return v as T;
    return this.fail(`${path}.${key}`, `must be one of ${Object.keys(allowed).join(', ')} (found ${JSON.stringify(v)})`);
  }
}

function readRef(r: Reader, v: unknown, path: string): ResourceRef | undefined {
  const o = r.obj(v, path);
  if (!o) return undefined;
  const address = r.str(o, 'address', path, true);
  const id = r.str(o, 'id', path, true);
  if (address === undefined && id === undefined) return r.fail(path, 'needs an address or an id');
  return { ...(address !== undefined ? { address } : {}), ...(id !== undefined ? { id } : {}) };
}

function readChange(r: Reader, v: unknown, path: string): FieldChange | undefined {
  const o = r.obj(v, path);
  if (!o) return undefined;
  const p = r.str(o, 'path', path);
  return { path: p ?? '', before: o.before ?? null, after: o.after ?? null, forcesReplace: r.bool(o, 'forces_replace', path) ?? false, sensitive: r.bool(o, 'sensitive', path) ?? false };
}

function readRefs(r: Reader, v: unknown, path: string): Action['refs'] {
  const o = r.obj(v ?? {}, path) ?? {};
  const refs: Action['refs'] = {};
  const map = { target: 'target', service: 'service', vpc: 'vpc', fork_parent: 'forkParent' } as const;
  for (const [json, key] of Object.entries(map)) {
    if (o[json] !== undefined) {
      const ref = readRef(r, o[json], `${path}.${json}`);
      if (ref) refs[key] = ref;
    }
  }
  return refs;
}

function readAction(r: Reader, v: unknown, path: string): Action | undefined {
  const o = r.obj(v, path);
  if (!o) return undefined;
  const [id, address] = [r.str(o, 'id', path), r.str(o, 'address', path)];
  const [kind, op] = [r.oneOf(o, 'kind', KINDS, path), r.oneOf(o, 'op', OPS, path)];
  const [reason, risk] = [r.oneOf(o, 'reason', REASONS, path), r.oneOf(o, 'risk', RISKS, path)];
  if (address !== undefined && kind !== undefined && kindOf(address) !== kind) r.fail(`${path}.address`, `"${address}" is not a ${kind} address`);
  const dependsOn = r.arr(o.depends_on, `${path}.depends_on`).filter((d, i) => typeof d === 'string' || r.fail(`${path}.depends_on[${i}]`, 'must be an action id')) as string[];
  const changes = r.arr(o.changes, `${path}.changes`).map((c, i) => readChange(r, c, `${path}.changes[${i}]`));
  const blocked = r.str(o, 'blocked', path, true);
  const request = o.request === undefined ? undefined : r.obj(o.request, `${path}.request`);
  const pw = o.password === undefined ? undefined : r.obj(o.password, `${path}.password`);
  const password = pw ? { fromEnv: r.str(pw, 'from_env', `${path}.password`) ?? '', version: r.int(pw, 'version', `${path}.password`) ?? 0 } : undefined;
  const protect = r.bool(o, 'protect', path);
  if (!id || !address || !kind || !op || !reason || !risk) return undefined;
  const action: Action = { id, address, kind, op, reason, risk, dependsOn, changes: changes.filter((c): c is FieldChange => c !== undefined), refs: readRefs(r, o.refs, `${path}.refs`) };
  if (blocked !== undefined) action.blocked = blocked;
  if (request !== undefined) action.request = request;
  if (password !== undefined) action.password = password;
  if (protect !== undefined) action.protect = protect;
  return action;
}

function readBinding(r: Reader, v: unknown, path: string): Binding | undefined {
  const o = r.obj(v, path);
  if (!o) return undefined;
  const kind = r.oneOf(o, 'kind', BINDING_KINDS, path);
  const address = r.str(o, 'address', path);
  const id = r.str(o, 'id', path, kind === 'forget');
  const from = r.str(o, 'from', path, kind !== 'move');
  const protect = r.bool(o, 'protect', path);
  if (!kind || !address) return undefined;
  return { kind, address, ...(id !== undefined ? { id } : {}), ...(from !== undefined ? { from } : {}), ...(protect !== undefined ? { protect } : {}) };
}

function readSettling(r: Reader, v: unknown, path: string): SettlingResource | undefined {
  const o = r.obj(v, path);
  if (!o) return undefined;
  const address = r.str(o, 'address', path);
  const kind = address === undefined ? undefined : kindOf(address);
  if (address !== undefined && kind === undefined) r.fail(`${path}.address`, `"${address}" is not an address`);
  if (kind === 'vpc') r.fail(`${path}.address`, 'a VPC has no transitional status to wait for');
  const id = r.str(o, 'id', path);
  const parentId = r.str(o, 'parent_id', path, kind === 'service');
  if (kind !== undefined && kind !== 'service' && parentId === undefined) return undefined;
  const status = r.str(o, 'status', path);
  if (!address || !kind || !id || !status) return undefined;
  return { address, kind, id, ...(parentId !== undefined ? { parentId } : {}), status };
}

const isScalar = (v: unknown): v is DriftValue => v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/** Informative only (apply recomputes everything): read back so a saved plan shows what it showed. */
function readDrift(r: Reader, v: unknown, path: string): Drift | undefined {
  const o = r.obj(v, path);
  if (!o) return undefined;
  const address = r.str(o, 'address', path);
  const id = r.str(o, 'id', path);
  const deleted = r.bool(o, 'deleted', path);
  const changes = r.arr(o.changes, `${path}.changes`).flatMap((c, i): DriftChange[] => {
    const x = r.obj(c, `${path}.changes[${i}]`);
    const p = x && r.str(x, 'path', `${path}.changes[${i}]`);
    if (!x || !p) return [];
    if (!isScalar(x.before) || !isScalar(x.after)) return r.fail(`${path}.changes[${i}]`, 'before and after must be strings, numbers, true, false or null') ?? [];
    return [{ path: p, before: x.before, after: x.after }];
  });
  if (!address || !id || deleted === undefined) return undefined;
  return { address, id, deleted, changes };
}

function readDiagnostic(r: Reader, v: unknown, path: string): Diagnostic | undefined {
  const o = r.obj(v, path);
  if (!o) return undefined;
  const severity = r.oneOf(o, 'severity', { error: true, warning: true }, path);
  const message = r.str(o, 'message', path);
  if (!severity || !message) return undefined;
  const d: Diagnostic = { severity, message };
  for (const key of ['address', 'path', 'code'] as const) if (typeof o[key] === 'string') d[key] = o[key] as string;
  const src = o.source === undefined ? undefined : r.obj(o.source, `${path}.source`);
  if (src) d.source = { file: r.str(src, 'file', `${path}.source`) ?? '', line: r.int(src, 'line', `${path}.source`) ?? 0, col: r.int(src, 'col', `${path}.source`) ?? 0 };
  return d;
}

function readFingerprints(r: Reader, v: unknown): Record<string, string> {
  const o = r.obj(v, 'fingerprints') ?? {};
  for (const [k, fp] of Object.entries(o)) if (typeof fp !== 'string' || !HASH.test(fp)) r.fail(`fingerprints["${k}"]`, 'must be "sha256:<64 hex digits>"');
  return o as Record<string, string>;
}

function checkGraph(r: Reader, actions: Action[]): void {
  const ids = new Set<string>();
  actions.forEach((a, i) => {
    if (ids.has(a.id)) r.fail(`actions[${i}].id`, `duplicate id "${a.id}"`);
    for (const d of a.dependsOn) if (!ids.has(d)) r.fail(`actions[${i}].depends_on`, `"${d}" is not an earlier action`);
    ids.add(a.id);
  });
}

export function readPlanJson(data: unknown): { ok: true; value: Plan } | { ok: false; errors: string[] } {
  const r = new Reader();
  const o = r.obj(data, 'plan');
  if (!o) return { ok: false, errors: r.errors };
  if (o.format_version !== 1) {
    return { ok: false, errors: [`format_version: this dbform reads plan format 1 (found ${JSON.stringify(o.format_version)}); create the plan again with this version`] };
  }
  const projectId = r.str(o, 'project_id', 'plan');
  const s = r.obj(o.summary, 'summary') ?? {};
  const summary = Object.fromEntries([
    ...SUMMARY_KEYS.map((k) => [k, r.int(s, k, 'summary') ?? 0]),
    ...LATER_SUMMARY_KEYS.map((k) => [k, r.int(s, k, 'summary', true) ?? 0]),
  ]) as unknown as Summary;
  const actions = r.arr(o.actions, 'actions').map((a, i) => readAction(r, a, `actions[${i}]`)).filter((a): a is Action => a !== undefined);
  checkGraph(r, actions);
  const bindings = r.arr(o.bindings ?? [], 'bindings').map((b, i) => readBinding(r, b, `bindings[${i}]`)).filter((b): b is Binding => b !== undefined);
  const settling = r.arr(o.settling ?? [], 'settling').map((x, i) => readSettling(r, x, `settling[${i}]`)).filter((x): x is SettlingResource => x !== undefined);
  const drift = r.arr(o.drift ?? [], 'drift').map((d, i) => readDrift(r, d, `drift[${i}]`)).filter((d): d is Drift => d !== undefined);
  const diagnostics = r.arr(o.diagnostics ?? [], 'diagnostics').map((d, i) => readDiagnostic(r, d, `diagnostics[${i}]`)).filter((d): d is Diagnostic => d !== undefined);
  const fingerprints = readFingerprints(r, o.fingerprints);
  const stateFp = r.str(o, 'state_fingerprint', 'plan');
  if (stateFp !== undefined && !HASH.test(stateFp)) r.fail('state_fingerprint', 'must be "sha256:<64 hex digits>"');
  const configHash = r.str(o, 'config_hash', 'plan', true);
  if (configHash !== undefined && !HASH.test(configHash)) r.fail('config_hash', 'must be "sha256:<64 hex digits>"');
  const saved = readSavedInputs(r, o);
  if (r.errors.length > 0) return { ok: false, errors: r.errors };
  const plan: Plan = { formatVersion: 1, projectId: projectId!, summary, actions, bindings, settling, fingerprints, stateFingerprint: stateFp!, diagnostics, ...saved };
  if (configHash !== undefined) plan.configHash = configHash;
  if (drift.length > 0) plan.drift = drift;
  return { ok: true, value: plan };
}

/** lineage, serial and options: what a saved plan records about the state and flags it came from. */
function readSavedInputs(r: Reader, o: Json): Pick<Plan, 'lineage' | 'serial' | 'options'> {
  const out: Pick<Plan, 'lineage' | 'serial' | 'options'> = {};
  if (o.lineage === null) out.lineage = null;
  else if (o.lineage !== undefined) out.lineage = r.str(o, 'lineage', 'plan');
  if (o.serial !== undefined) out.serial = r.int(o, 'serial', 'plan');
  if (o.options !== undefined) {
    const opts = r.obj(o.options, 'options');
    if (opts) {
      const addresses = (key: string) =>
        r.arr(opts[key], `options.${key}`).filter((a, i) => (typeof a === 'string' && a !== '') || r.fail(`options.${key}[${i}]`, 'must be an address')) as string[];
      const allow = opts.allow_data_loss;
      if (typeof allow !== 'boolean') r.fail('options.allow_data_loss', 'must be true or false');
      out.options = { replace: addresses('replace'), target: addresses('target'), allowDataLoss: allow === true };
    }
  }
  return out;
}
