// What a kind is (STYLE.md "One kind, one folder"): everything dbform knows about VPCs, services
// and the kinds that belong to them is declared once, in the kind's folder, as one definition of
// this shape. Generic code (config, planner, API reads, executor, export, state show, output)
// iterates the registry (index.ts) and asks the definition; it never switches on a kind. The
// kinds' names (their address forms and nouns) are in src/model/address.ts, where plans, the
// lockfile and help texts read them without loading a kind. Adding a kind: docs/adding-a-kind.md.
import type { Address, FieldSet, Json, Kind, Lockfile, OperationId, OperationSpec, OperationWait } from '../model/index.js';
import type { Match, PlanContext, RemovedEntry } from '../planner/context.js';
import type { Draft } from '../planner/drafts.js';

/** How the planner plans a kind: its differ (decK's pkg/types). */
export interface KindPlanner<D, L> {
  /** The order its matches are planned in, when one depends on another planned first; default: the config's. */
  order?(matches: Array<Match<D, L>>, ctx: PlanContext): Array<Match<D, L>>;
  /** Create, update or replace a desired resource. */
  planDesired(m: Match<D, L>, ctx: PlanContext): Draft[];
  /** Delete a live resource whose address left the config. */
  planRemoved(r: RemovedEntry, live: L, ctx: PlanContext): Draft[];
  /**
   * Once every kind is planned: drafts that wrap other drafts of the plan (a start before them, a
   * stop after), and checks that need the whole plan in view.
   */
  finish?(ctx: PlanContext, drafts: readonly Draft[]): Draft[];
  /**
   * Once the plan is made: errors about what it creates next to what is live and stays (a VPC
   * over the block of a live VPC), added to `ctx.diagnostics`.
   */
  check?(ctx: PlanContext): void;
  /** The live fields that matter for a saved plan's staleness (no metrics, endpoints or timestamps). */
  fingerprint(live: L): Json;
}

/** A config entry as a kind's hooks see it: its key (a list's: its index) and its value, valid or not. */
export interface ConfigEntry {
  key: string;
  value: Json;
}

/** A problem a kind finds in its entries beyond the schema: at `path` within `entry`. */
export interface ConfigProblem {
  entry: ConfigEntry;
  path: string[];
  message: string;
  code: string;
  severity?: 'warning';
}

/** What the loader lends a kind's `check`: how messages name an entry, and where one's value is written. */
export interface ConfigKit {
  /** `services.db`, `vpcs.main.peerings[0]`. */
  where(entry: ConfigEntry): string;
  /** `file:line:col` of the value at `path` within `entry`: looked up only for a message that names it. */
  place(entry: ConfigEntry, path: readonly string[]): string;
  /** The entries of a top kind, which another kind's entries name by key (a service's `vpc:`). */
  entriesOf(kind: Kind): readonly ConfigEntry[];
}

/** How the kind is written in the config (SPEC section 1); its YAML key is its `listKey` in snake_case. */
export interface KindConfig<D> {
  /** A map of entries by key (`vpcs:`, `services:`), or a list whose entries `naming.key` identifies (under a VPC). */
  shape: 'map' | 'list';
  /** Its collection's description; for a map, what a key names (`a VPC`). */
  collection: { description: string; keyNoun?: string };
  /** One entry's schema: its description and required keys; its fields', `protect` and `properties` make its properties. */
  entry: { description: string; required?: string[]; dependentRequired?: Json; properties?: Json };
  /** Whether entries take `protect:` (SPEC section 2). */
  protect?: boolean;
  /** What the root schema's description calls them; default: the plural noun. */
  title?: string;
  /** An entry written as null: what it needs, in words (KEY is its key). */
  needs?: string;
  /** A missing required key: how the entry is made, in words. */
  requiredHint?: string;
  /** Config -> desired beyond its fields (the fork a service is created from). */
  build?(raw: Json, into: D): void;
  /** What `build` set, by its config key, in the desired state's values (undefined ones: not written). */
  built?(d: D): Record<string, unknown>;
  /**
   * A resource that stays when the resources `gone` leave the config (`destroy --target`), without
   * what it says of them (a service attached to a VPC that goes is detached); default: as it is.
   */
  without?(d: D, gone: (address: Address) => boolean): D;
  /** Problems of one parent's entries (or all entries of a top kind) beyond the schema. */
  check?(entries: readonly ConfigEntry[], kit: ConfigKit): ConfigProblem[];
}

/** What export lends a kind's hooks: how a note quotes a name, and names a resource. */
export interface ExportKit {
  /** A name inside a comment or note, quoted and escaped so that any name reads unambiguously. */
  quote(name: string): string;
  /** Text made safe for a YAML comment. */
  comment(text: string): string;
  /** `VPC "main" (1234567890)`: a kind's noun, then the resource's name and ID. */
  describe(kind: Kind, name: string, id: string): string;
}

/** What export knows when it writes an entry: the project, and the key each exported resource got. */
export interface ExportScope {
  projectId: string;
  keyOf(kind: Kind, id: string): string | undefined;
}

/** How export writes the kind's live resources back as config (SPEC section 7), so that a plan right after shows no changes. */
export interface KindExport<L> {
  /** A map kind's key for a name that does not start with a letter: `<prefix>-...` (`svc-1`). */
  keyPrefix?: string;
  /**
   * Why a live resource cannot be written so that a plan reads it back as it is; undefined when it
   * can. `kept`: what identifies the siblings written before it (a list kind's).
   */
  unwritable?(l: L, kit: ExportKit, kept: ReadonlySet<string>): string | undefined;
  /** Of several with one name, the one kept: after those the lockfile binds, the lowest of this (creation time), then by ID. */
  rank?(l: L): string;
  /** Of the ones kept (in rank order), those that cannot stand together in a config (overlapping VPC blocks), and why. */
  together?(kept: readonly L[], kit: ExportKit): { kept: L[]; dropped: Array<{ item: L; why: string }> };
  /** Comments written first in its entry (a failed status, a fork's lineage). */
  comments?(l: L, scope: ExportScope, kit: ExportKit): string[];
  /** How a note names one that is not exported, when noun, name and ID do not say it; `parent`: how its parent is named. */
  describe?(l: L, kit: ExportKit, parent: string): string;
  /** Its entries are written with a blank line between them (long ones). */
  spaced?: boolean;
}

/** What `dbform import ADDR ID` tells about the live resource it binds. */
export interface KindImport<L> {
  /** How the message names it, when noun, name and ID (and its parent's name) do not say it; `parent`: its parent's live resource. */
  label?(l: L, parent?: unknown): string;
  /** What the next plan does when its live name is not the config's (a kind named by `name`). */
  renamed?: string;
  /** A list kind's resource whose identity is not the one its address names: why it does not fit, and its right address. */
  misaddressed?(id: string, l: L, address: string, named: string, right: string): string;
}

/** How `dbform output` connects to a resource of a kind that takes connections (SPEC section 11). */
export interface KindOutput<D, L> {
  /** The status in which it takes connections. */
  ready: string;
  /** Why its address has no connection when the resource it is bound to is gone (`live`: what is left of it, on its way out). */
  gone(address: string, id: string, live: L | undefined, projectId: string): string;
  /** The `password.from_env` its login reads (a child's: its parent's). */
  passwordEnv?(d: D): string | undefined;
}

/** What the executor waits for: the goals of the op table (`ready`, `paused`, `attachment`) and `settled` (SPEC section 5). */
export type WaitGoal = Exclude<OperationWait, 'none' | 'gone'> | 'settled';

/** The resource a wait is about: its ID, and its parent's for a kind whose lists are its parent's. */
export interface WaitRef {
  id: string;
  parentId?: string;
}

/** One goal of a kind: what it waits for in words, and when it holds; `arg` is what the waiting op knows (the VPC of an attach). */
export interface WaitGoalSpec<L> {
  /** After the resource, in a notice: `to be active`. */
  what(arg?: unknown): string;
  done(live: L | undefined, arg?: unknown): boolean;
  /** The status as a progress line tells it while waiting, where the status alone would mislead. */
  describe?(status: string, live: L | undefined, arg?: unknown): string;
}

/** What waiting for a resource of the kind means (SPEC sections 3 and 5). */
export interface KindWaits<L> {
  goals: Partial<Record<WaitGoal, WaitGoalSpec<L>>>;
  /** Why one that is still there can never reach a goal (failed, being deleted); undefined while it may. */
  terminal?(live: L): string | undefined;
  /** The same while waiting for it to be gone. */
  goneTerminal?(live: L): string | undefined;
  /** Still listed but deleted for good (a status that says so): as good as gone. */
  deleted?(live: L): boolean;
}

/** How its live resources are read from the API (src/api/live-state.ts, waiters.ts) and mapped. */
export interface KindRead<L, W> {
  /** The API client's method that lists them: the project's (a top kind), or one parent's. */
  list: string;
  /** Wire -> live, tolerant of what the API leaves out or adds; `parentId` for a kind with a parent. */
  map(dto: W, parentId: string): L;
  /** The ones a parent's wire body carries; undefined when it carries none (then its own list is read). */
  embedded?(parentDto: unknown): W[] | undefined;
  /**
   * A parent whose list was not read holds none (`absent`: which says nothing about them, unlike
   * an empty list); default: an empty list.
   */
  unread?: 'absent';
  /**
   * Where the parent's list does not carry them, they are read only for the parents a plan can
   * touch (the ones the state binds or the config names): 2 + V + M requests, not one per parent.
   */
  onlyManagedParents?: boolean;
  /** The debug line (`--debug`) said once when a parent's list leaves them out and they are read on their own. */
  unembeddedNote?: string;
}

/** What the live state says about a resource of the kind beyond its fields. */
export interface KindLive<L> {
  /** On its way out (being deleted): the plan counts it as gone. */
  gone(l: L): boolean;
  /** The live ID of the resource it belongs to (kinds with a parent). */
  parentId?(l: L): string;
  /** In a transitional status (SPEC section 5): apply waits until it settles. */
  settling?(l: L): boolean;
  /** In a terminal failed state: it never recovers by itself, so a plan replaces it. */
  failed?(l: L): boolean;
  /**
   * Made, and waiting for something only others can do (a connection another account has to
   * accept, SPEC section 15): what, in words after "awaiting" (`acceptance by account N`); undefined
   * otherwise. Neither a failure, nor a change, nor settling: apply reports it and never waits.
   */
  awaiting?(l: L): string | undefined;
  /** What a message calls one that dbform does not manage, after its noun: `to vpc-0a1b (1234567890)`. */
  describe?(l: L): string;
  /** Whether dbform knows what a status means (a wait that ends on one it does not know says so). */
  known?(status: string): boolean;
}

export interface KindDefinition<D, L, W> {
  /** Its name in addresses, plans and the state (SPEC section 2); its nouns and address form: src/model/address.ts. */
  kind: Kind;
  /** The kind a resource of this kind belongs to: its address, config entry and live record sit under one of those. */
  parent?: Kind;
  /**
   * The property that lists its resources: in the desired and live states (a top kind), or in
   * their parent desired and live resources. Also their segment in API routes, and (snake_case)
   * their key in the config.
   */
  listKey: string;
  /**
   * What identifies a resource among its siblings, by which a live one is matched and adopted: its
   * `name` (which defaults to its key), or another field (`key`: its YAML key and request key).
   */
  naming: { key: string; desired(d: D): string; live(l: L): string };
  /** Deleting its parent fails while one is live: unmanaged ones block the parent's delete. */
  blocksParentDelete?: boolean;
  /** Its managed fields, one descriptor each (src/model/fields/types.ts). */
  fields: FieldSet<D, L, W>;
  /** Its operations, one row each, in the order of the plan schema's `op` enum. */
  ops: { readonly [op in OperationId]?: OperationSpec };
  config: KindConfig<D>;
  export: KindExport<L>;
  import: KindImport<L>;
  /** For a kind that takes connections. */
  output?: KindOutput<D, L>;
  /** How a message names one where its noun alone could mislead (`a VPC ...`); default `a <noun>`. */
  described?: string;
  live: KindLive<L>;
  read: KindRead<L, W>;
  waits: KindWaits<L>;
  plan: KindPlanner<D, L>;
  /**
   * What drift records as last applied for a desired resource (SPEC section 11); default: each
   * field's `record`. `lock` is the state as the apply ended.
   */
  applied?(d: D, lock: Lockfile): Json;
}

/** A definition as generic code holds it: the kind's own types are its business. */
export type AnyKind = KindDefinition<any, any, any>;
