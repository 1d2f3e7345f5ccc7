// Valid merged config -> the normalized desired state the planner reads (src/model/resources.ts),
// over the kind registry. Only called once the schema and every rule passed, so values have their
// schema types.
import { childKinds, KINDS, TOP_KINDS, type AnyKind } from '../kinds/index.js';
import { addressOf } from '../model/address.js';
import { readDesiredFields } from '../model/fields/index.js';
import type { DesiredState, MovedEntry } from '../model/resources.js';
import { childEntries, topEntries } from './kind-entries.js';
import { AT_ORIGIN, sourceOf, type Entry, type MergedConfig } from './merge.js';

/** The parent's key, as a resource of a kind with a parent holds it: `serviceKey`, `vpcKey`. */
// By parent kind, computed once: every child entry of 10,000 services asks.
const PARENT_KEY_PROPS = new Map<string, string>(KINDS.map((k) => [k.kind, `${k.kind.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase())}Key`]));
const parentKeyProp = (parent: string): string => PARENT_KEY_PROPS.get(parent)!;

/**
 * A desired resource of `def` from its entry: its managed fields set by their descriptors (each
 * only when written, so that undefined keeps meaning "unmanaged"), its children, its `protect`,
 * and what its kind builds beyond its fields. A map entry is named by its key; a list entry by the
 * field that identifies it (its kind's `naming`).
 */
function build(def: AnyKind, entry: Entry, parentKey?: string): Record<string, unknown> {
  const keyed = def.config.shape === 'map';
  const into: Record<string, unknown> = { kind: def.kind };
  if (def.parent !== undefined) into[parentKeyProp(def.parent)] = parentKey;
  if (keyed) into.key = entry.key;
  for (const child of childKinds(def.kind)) into[child.listKey] = childEntries(entry, child).map((c) => build(child, c, entry.key));
  into.source = keyed ? sourceOf(entry.origin, AT_ORIGIN, 'key') : sourceOf(entry.origin);
  readDesiredFields(def.fields, entry.value, into, keyed ? entry.key : '');
  into.address = addressOf(def.kind, parentKey, keyed ? entry.key : def.naming.desired(into));
  if (def.config.protect && entry.value.protect !== undefined) into.protect = entry.value.protect as boolean;
  def.config.build?.(entry.value, into);
  return into;
}

const buildMoved = (entry: Entry): MovedEntry => ({
  from: entry.value.from as string,
  to: entry.value.to as string,
  source: sourceOf(entry.origin),
});

export function buildDesiredState(config: MergedConfig): DesiredState {
  const state: Record<string, unknown> = {
    projectId: config.projectId ?? '',
    ...(config.state ? { state: { value: config.state.value, source: sourceOf(config.state.origin, ['state']) } } : {}),
  };
  for (const top of TOP_KINDS) state[top.listKey] = topEntries(config, top).map((e) => build(top, e));
  state.moved = config.moved.map(buildMoved);
  state.files = config.files;
  return state as unknown as DesiredState;
}
