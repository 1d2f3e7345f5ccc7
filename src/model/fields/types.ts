// A managed field, declared once (decK's generic differ, STYLE.md "one field, one descriptor"):
// its YAML keys and schema, how config and wire are read into the desired and live resources,
// how the two compare, which op changes it with what request, what a create carries for it, and
// how export writes it back. The schema, the config builder, the live mapping, the planner's
// diff, fingerprints and export all walk a kind's descriptors (walk.ts) instead of naming fields.
import type { LockEntry } from '../lockfile.js';
import type { OperationId } from '../operations.js';
import type { ApiCapabilities, ApiCapability, FieldChange } from '../plan.js';
import type { Endpoint } from '../resources.js';

export type Json = Record<string, unknown>;

/** One op that brings a field (or a pair, such as a size) to its desired value. */
export interface FieldStep {
  op: OperationId;
  changes: FieldChange[];
  /** The request body as sent (snake_case); never a secret. */
  request?: Record<string, unknown>;
  /** updatePassword: the variable read at apply time, and the version to record. */
  password?: { fromEnv: string; version: number };
}

/** A create request being put together: its body, and the changes a reviewer sees. */
export interface CreateBody {
  request: Record<string, unknown>;
  changes: FieldChange[];
}

/**
 * A value as export writes it in YAML: scalars, `[a, b]` flow lists, `{ k: v }` flow maps, and
 * strings that must stay quoted whatever they look like (IDs made of digits).
 */
export type ExportValue =
  | string
  | number
  | boolean
  | null
  | readonly ExportValue[]
  | { readonly quoted: string }
  | { readonly map: Readonly<Record<string, ExportValue>> };

/**
 * What export writes for a field: YAML keys and values that plan back to no change; keys written
 * commented out (a hint, such as where a password would go); or, when the live value cannot be
 * written faithfully, a note saying why the field is left unmanaged. Undefined writes nothing.
 */
export type FieldExport = { values: Readonly<Record<string, ExportValue>> } | { commented: Readonly<Record<string, ExportValue>> } | { unmanaged: string } | undefined;

/** What export knows beyond the live resource. */
export interface ExportContext {
  /** The key the resource is exported under. */
  key: string;
  /** The key of an exported VPC by its ID, if it is exported. */
  vpcKey(id: string): string | undefined;
  /** A name inside a comment, quoted and escaped so that any name reads unambiguously. */
  quote(name: string): string;
  /** The environment variable a service's password would be read from. */
  passwordEnv: string;
}

/**
 * The planner plans these with the whole plan in view rather than one resource's values: a VPC
 * attachment resolves keys to live IDs and frees VPCs other actions delete; start and stop
 * wrap every other change of the service.
 */
export type PlannedBy = 'vpc-attachment' | 'start-stop';

/**
 * An endpoint a field opens beside the resource's own (a switch's while it is on, the VPC's
 * while attached): `dbform output` prints it as `<prefix>_host` and `<prefix>_port`.
 */
export interface FieldEndpoint<L> {
  prefix: string;
  /** When it is there, as `dbform output --help` tells it. */
  when: string;
  /** The live endpoint while the field has it open; undefined otherwise. */
  of(l: L): Endpoint | undefined;
}

export interface FieldDescriptor<D, L, W> {
  /** Its name among the kind's fields, for order lists and messages. */
  id: string;
  /** The YAML keys it owns, each with its JSON Schema fragment, in the order of SPEC section 1. */
  schema: Readonly<Record<string, Json>>;
  /** Config -> desired: sets its property when the key is written (null: the value null means); left out, it stays undefined: unmanaged. */
  desired(raw: Json, into: D, key: string): void;
  /** Wire -> live, tolerant of what the API leaves out or adds. Absent for a write-only field. */
  wire?(w: W, into: L): void;
  /**
   * The live value in one vocabulary (DEV for a missing environment, null for an unknown size):
   * what fingerprints hash, and what drift compares a recorded value with. Absent for a
   * write-only field (a password is never read back).
   */
  live?(l: L): unknown;
  /**
   * The desired value in the vocabulary of `live`, never a secret (a password records its version):
   * what drift records as last applied. Undefined when unmanaged, or when only the plan can
   * resolve it (a VPC named by key).
   */
  record(d: D): unknown;
  /** Whether a recorded value and a live one mean the same; default: equal values. */
  same?(recorded: unknown, live: unknown): boolean;
  /** The fingerprint key of `live` (a saved plan goes stale when it changes); a function writes several keys. */
  fingerprint?: string | ((l: L, out: Json) => void);
  /**
   * Differences that cannot be made in place: each one forces a replace. `api`: what the API can
   * do (see `capability`); a capability not known counts as absent.
   */
  replace?(d: D, l: L, api: ApiCapabilities): readonly FieldChange[] | undefined;
  /** The in-place change: its op, changes and request; undefined when equal or unmanaged. */
  update?(d: D, l: L, entry: LockEntry | undefined, api: ApiCapabilities): FieldStep | undefined;
  /**
   * The API capability that decides whether a difference of this field is made in place (`update`)
   * or forces a replace (`replace`, which answers for an API without it): a service's name where
   * the API renames services (SPEC section 15).
   */
  capability?: ApiCapability;
  /** What the create request carries for it. */
  create?(d: D, body: CreateBody): void;
  /** Whether a fork's request carries it too (forks inherit the rest from their parent). */
  fork?: boolean;
  /** An op right after the create (or fork), for what the create body cannot carry. */
  afterCreate?(d: D, forked: boolean): FieldStep | undefined;
  /** Set when the planner plans its ops itself (see PlannedBy). */
  plannedBy?: PlannedBy;
  /** How export writes the live value (FieldExport). */
  export?(l: L, ctx: ExportContext): FieldExport;
  /** The endpoint the field opens, for `dbform output`. */
  endpoint?: FieldEndpoint<L>;
  /** A rule the schema cannot express on its keys (a size pair), on the config entry as written: where and why it fails. */
  check?(raw: Json): FieldProblem | undefined;
}

/** What a field's `check` finds: at which of its keys, in words, its diagnostic code, and whether it is only a warning. */
export interface FieldProblem {
  key: string;
  message: string;
  code: string;
  severity?: 'warning';
}

/**
 * A kind's managed fields, in the order of SPEC section 1 (the schema's and export's), and the
 * orders in which plans list a create body and a replace's changes, which differ for services.
 * A test holds every field with a `create` or `replace` hook to appearing in its list.
 */
export interface FieldSet<D, L, W> {
  fields: readonly FieldDescriptor<D, L, W>[];
  /** The fields a create body carries, in the order its changes (and, unless sorted, its request keys) are listed. */
  create: readonly FieldDescriptor<D, L, W>[];
  /** Whether the request keys are sorted by name (some kinds' bodies always were). */
  sortedRequest: boolean;
  /** The fields whose replace checks run, in the order their changes are listed. */
  replace: readonly FieldDescriptor<D, L, W>[];
}

/** A change line of a plan; `before`/`after` never hold a secret. */
export function fieldChange(path: string, before: unknown, after: unknown, forcesReplace = false): FieldChange {
  return { path, before: before ?? null, after: after ?? null, forcesReplace, sensitive: false };
}

export const SENSITIVE = '(sensitive)';

/** The change line of a write-only value: shown, never its value. */
export function sensitiveChange(path: string): FieldChange {
  return { path, before: SENSITIVE, after: SENSITIVE, forcesReplace: false, sensitive: true };
}
