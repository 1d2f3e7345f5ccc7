// A setting written at the wrong depth (the most common YAML slip) is named as mis-indented,
// instead of as a new key to spell differently: `cpu_millis` two spaces to the left becomes a
// service called `cpu_millis`; `replicas` beside `ha:` instead of under it becomes an unknown
// service key. The schema knows where each setting belongs, so the message says where to move it.
import { nounOf } from '../model/address.js';
import { kindOfCollection } from './kind-paths.js';
import type { PathSeg } from './positions.js';
import { formatPath } from './paths.js';
import { quoteCode } from './quote.js';
import { buildConfigSchema } from './schema.js';

type Json = Record<string, unknown>;

let root: Json | undefined;
const rootSchema = () => (root ??= buildConfigSchema());
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The schema of the value at `path` (properties, additionalProperties and items; the mapping or
 * list branch of a union). With `plain`, undefined for a union: its mapping branch is a reference
 * form (`vpc: { id }`), where an unknown key is a wrong form, not a line indented too far.
 */
export function schemaAt(path: readonly PathSeg[], plain = false): Json | undefined {
  let schema: Json | undefined = rootSchema();
  for (const seg of path) {
    if (Array.isArray(schema?.anyOf)) schema = (schema.anyOf as Json[]).find((b) => b.type === 'object' || b.type === 'array');
    if (!schema) return undefined;
    const next: unknown = typeof seg === 'number' ? schema.items : ((schema.properties as Json | undefined)?.[seg] ?? schema.additionalProperties);
    schema = isObject(next) ? next : undefined;
  }
  if (Array.isArray(schema?.anyOf)) schema = plain ? undefined : (schema.anyOf as Json[]).find((b) => b.type === 'object');
  return schema;
}

const fieldsOf = (schema: Json | undefined): string[] => (isObject(schema?.properties) ? Object.keys(schema.properties) : []);

/** What the entries of the collection at `path` are called, in messages. */
export function entryNoun(path: readonly PathSeg[]): string {
  const kind = kindOfCollection(path.at(-1))?.kind;
  return kind === undefined ? 'entry' : nounOf(kind);
}

/**
 * `key` under the collection of resources at `mapPath` (`services`, `vpcs`, a collection under a
 * resource) when it is a setting of such a resource: written one level too far left.
 * `before` is the key of the resource written above it, where it most likely belongs.
 */
export function describeMisindentedEntry(mapPath: readonly PathSeg[], key: string, before: string | undefined): string | undefined {
  const collection = schemaAt(mapPath);
  if (!collection || isObject(collection.properties) || !isObject(collection.additionalProperties)) return undefined;
  if (!fieldsOf(collection.additionalProperties).includes(key)) return undefined;
  const noun = entryNoun(mapPath);
  const where = before === undefined ? `under the ${noun} it belongs to` : `under ${formatPath([...mapPath, before])}, the ${noun} above it`;
  return `${quoteCode(key)} under ${formatPath(mapPath)} looks mis-indented: it is a ${noun} setting, not a ${noun}; indent it ${where}`;
}

/**
 * An unknown `key` of the mapping at `path` that is a setting one level deeper, or higher up.
 * `meantFor`: the mapping it belongs to, whose complaint that `key` is missing is a follow-on.
 */
export function describeMisindentedKey(path: readonly PathSeg[], key: string): { message: string; meantFor?: PathSeg[] } | undefined {
  const schema = schemaAt(path, true);
  if (!schema) return undefined;
  const lead = path.length === 0 ? `unknown top-level key ${quoteCode(key)} looks mis-indented` : `unknown key ${quoteCode(key)} under ${formatPath(path)} looks mis-indented`;
  for (const child of fieldsOf(schema)) {
    const childSchema = schemaAt([...path, child], true);
    if (fieldsOf(childSchema).includes(key)) {
      return { message: `${lead}: it belongs under \`${child}\` (${formatPath([...path, child, key])}); indent it under ${child}`, meantFor: [...path, child] };
    }
    const entries = childSchema?.additionalProperties ?? childSchema?.items;
    if (isObject(entries) && fieldsOf(entries).includes(key)) {
      const noun = entryNoun([...path, child]);
      return { message: `${lead}: it is a ${noun} setting; indent it under a ${noun} in ${formatPath([...path, child])}` };
    }
  }
  for (let depth = path.length - 1; depth >= 0; depth--) {
    const ancestor = path.slice(0, depth);
    if (fieldsOf(schemaAt(ancestor)).includes(key)) {
      const owner = ancestor.length === 0 ? 'the top level' : formatPath(ancestor);
      return { message: `${lead}: it is a setting of ${owner}; indent it less, to the level of ${String(path[depth])}`, meantFor: ancestor };
    }
  }
  return undefined;
}
