// Where each kind's entries sit in a config file, over the kind registry: the YAML key of a kind's
// collection (its listKey in snake_case), and which kind's settings a path names. (The entries
// themselves: kind-entries.ts.)
import { childKinds, configKey, KINDS, TOP_KINDS, type AnyKind } from '../kinds/index.js';

type PathSeg = string | number;

export { configKey };

/** The kind whose collection the YAML key `key` is, if any. */
export const kindOfCollection = (key: unknown): AnyKind | undefined => KINDS.find((k) => configKey(k) === key);

/** The map-shaped kind whose entry's settings `path` names (`services.db`, or a map under an entry: `<parent>.<key>.<map>.<key>`). */
export function kindAtPath(path: readonly PathSeg[]): AnyKind | undefined {
  let found: AnyKind | undefined;
  let kinds = TOP_KINDS;
  for (let i = 0; i < path.length; i += 2) {
    found = kinds.find((k) => k.config.shape === 'map' && configKey(k) === path[i]);
    if (found === undefined || path[i + 1] === undefined) return undefined;
    kinds = childKinds(found.kind);
  }
  return found;
}
