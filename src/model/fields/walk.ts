// The generic walks over a kind's field set: every layer that used to name fields one by one
// (schema, config builder, live mapping, planner diff, fingerprints, export) calls one of these.
// They sit on the planner's hot path (10,000 services per plan): plain loops, nothing allocated
// for a field that does not change.
import type { LockEntry } from '../lockfile.js';
import type { ApiCapabilities, ApiCapability, FieldChange } from '../plan.js';
import type { Endpoint } from '../resources.js';
import type { CreateBody, ExportContext, ExportValue, FieldEndpoint, FieldSet, FieldStep, Json } from './types.js';
import { sameValue } from './values.js';

/** The schema properties of a kind's fields, in SPEC order. */
export function fieldSchemas<D, L, W>(set: FieldSet<D, L, W>): Json {
  const out: Json = {};
  for (const f of set.fields) Object.assign(out, f.schema);
  return out;
}

/** Sets each field of `into` that the validated config entry `raw` writes. */
export function readDesiredFields<D, L, W>(set: FieldSet<D, L, W>, raw: Json, into: D, key: string): void {
  for (const f of set.fields) f.desired(raw, into, key);
}

/** Sets each field of `into` from the wire body. */
export function readLiveFields<D, L, W>(set: FieldSet<D, L, W>, wire: W, into: L): void {
  for (const f of set.fields) f.wire?.(wire, into);
}

const NO_CAPABILITIES: ApiCapabilities = {};

/** The differences that force a replace, in the kind's replace order; `api`: what the API can do. */
export function replaceChanges<D, L, W>(set: FieldSet<D, L, W>, d: D, l: L, api: ApiCapabilities = NO_CAPABILITIES): FieldChange[] {
  const out: FieldChange[] = [];
  for (const f of set.replace) {
    const forcing = f.replace?.(d, l, api);
    if (forcing) out.push(...forcing);
  }
  return out;
}

/** The in-place steps of the fields that differ, except those the planner plans itself; `api`: what the API can do. */
export function updateSteps<D, L, W>(set: FieldSet<D, L, W>, d: D, l: L, entry: LockEntry | undefined, api: ApiCapabilities = NO_CAPABILITIES): FieldStep[] {
  let out: FieldStep[] | undefined;
  for (const f of set.fields) {
    const step = f.plannedBy === undefined ? f.update?.(d, l, entry, api) : undefined;
    if (step) (out ??= []).push(step);
  }
  return out ?? NONE;
}
const NONE: FieldStep[] = [];

/**
 * The API capabilities that decide how `l` is brought to `d`: those of the fields that differ
 * (their `replace` answers for an API without the capability) and whose change the API may make in
 * place or not. Empty, and nothing allocated, for the usual resource whose such fields are equal.
 */
export function capabilitiesAt<D, L, W>(set: FieldSet<D, L, W>, d: D, l: L): readonly ApiCapability[] {
  let out: ApiCapability[] | undefined;
  for (const f of set.fields) if (f.capability !== undefined && f.replace?.(d, l, NO_CAPABILITIES) !== undefined) (out ??= []).push(f.capability);
  return out ?? NO_NEEDS;
}
const NO_NEEDS: readonly ApiCapability[] = [];

/** What a create request carries; `fork`: only the fields a fork's request carries, appended to `body`. */
export function createBody<D, L, W>(set: FieldSet<D, L, W>, d: D, body: CreateBody = { request: {}, changes: [] }, fork = false): CreateBody {
  for (const f of set.create) if (!fork || f.fork) f.create!(d, body);
  if (set.sortedRequest) body.request = Object.fromEntries(Object.keys(body.request).sort().map((k) => [k, body.request[k]]));
  return body;
}

/** The ops right after a create (or fork), for what its body cannot carry. */
export function afterCreateSteps<D, L, W>(set: FieldSet<D, L, W>, d: D, forked: boolean): FieldStep[] {
  const out: FieldStep[] = [];
  for (const f of set.fields) {
    const step = f.plannedBy === undefined ? f.afterCreate?.(d, forked) : undefined;
    if (step) out.push(step);
  }
  return out;
}

/** Writes each field's fingerprint entry of a live resource into `out`. */
export function fingerprintFields<D, L, W>(set: FieldSet<D, L, W>, l: L, out: Json): Json {
  for (const f of set.fields) {
    if (typeof f.fingerprint === 'string') out[f.fingerprint] = f.live!(l);
    else f.fingerprint?.(l, out);
  }
  return out;
}

/**
 * What drift needs (SPEC: last applied values): each managed field's recorded value, by id.
 * Write-only fields record what is not secret (a password's version).
 */
export function recordFields<D, L, W>(set: FieldSet<D, L, W>, d: D): Json {
  const out: Json = {};
  for (const f of set.fields) {
    const v = f.record(d);
    if (v !== undefined) out[f.id] = v;
  }
  return out;
}

/** The ids of the fields whose recorded value no longer matches the live one. */
export function driftedFields<D, L, W>(set: FieldSet<D, L, W>, recorded: Json, l: L): string[] {
  const out: string[] = [];
  for (const f of set.fields) {
    if (f.live === undefined || !(f.id in recorded)) continue;
    const live = f.live(l);
    if (!(f.same ? f.same(recorded[f.id], live) : sameValue(recorded[f.id], live))) out.push(f.id);
  }
  return out;
}

export interface ExportedField {
  key: string;
  value: ExportValue;
  /** Written commented out. */
  commented: boolean;
}

/** The YAML lines of a live resource's fields, in SPEC order, and a note for each left unmanaged. */
export function exportFields<D, L, W>(set: FieldSet<D, L, W>, l: L, ctx: ExportContext): { fields: ExportedField[]; unmanaged: string[] } {
  const fields: ExportedField[] = [];
  const unmanaged: string[] = [];
  for (const f of set.fields) {
    const out = f.export?.(l, ctx);
    if (out === undefined) continue;
    if ('unmanaged' in out) unmanaged.push(out.unmanaged);
    else {
      const commented = 'commented' in out;
      const values = 'commented' in out ? out.commented : out.values;
      for (const key of Object.keys(values)) fields.push({ key, value: values[key]!, commented });
    }
  }
  return { fields, unmanaged };
}

/** The endpoints a live resource's fields have open, in field order (SPEC section 11's order). */
export function openEndpoints<D, L, W>(set: FieldSet<D, L, W>, l: L): Array<{ prefix: string; endpoint: Endpoint }> {
  const out: Array<{ prefix: string; endpoint: Endpoint }> = [];
  for (const f of set.fields) {
    const endpoint = f.endpoint?.of(l);
    if (endpoint) out.push({ prefix: f.endpoint!.prefix, endpoint });
  }
  return out;
}

/** The endpoints the fields of these kinds can open, each prefix once, in field order: for help texts. */
export function endpointKinds(...sets: ReadonlyArray<FieldSet<never, never, never>>): Array<Omit<FieldEndpoint<unknown>, 'of'>> {
  const out = new Map<string, string>();
  for (const set of sets) for (const f of set.fields) if (f.endpoint && !out.has(f.endpoint.prefix)) out.set(f.endpoint.prefix, f.endpoint.when);
  return [...out].map(([prefix, when]) => ({ prefix, when }));
}
