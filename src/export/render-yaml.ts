// ExportDocument -> YAML text. Deterministic: entries sorted by key, fields in one fixed order
// (the order of SPEC section 1), comments fixed, no timestamps; the same world gives the same bytes.
import { configKey, kindDef, KINDS } from '../kinds/index.js';
import { KIND_NOUNS, type ExportValue } from '../model/index.js';
import { countResources, type ExportDocument, type ExportedCollection, type ExportedEntry, type ExportedField } from './document.js';
import { commentText, quotedValue, yamlString } from './yaml-text.js';

export interface RenderOptions {
  /** What the `# yaml-language-server: $schema=` comment points at (a relative path or a URL). */
  schemaRef: string;
}

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

function header(doc: ExportDocument, options: RenderOptions): string[] {
  const c = countResources(doc);
  const counts = KINDS.map((k) => plural(c[k.kind] ?? 0, KIND_NOUNS[k.kind].one, KIND_NOUNS[k.kind].many));
  const lines = [
    `# yaml-language-server: $schema=${commentText(options.schemaRef)}`,
    `# Exported by \`dbform export\` from project ${doc.projectId}: ${counts.join(', ')}.`,
    '# Its lockfile binds each address to its ID. Passwords are never exported: each',
    '# service shows, commented out, where a `password:` block would go.',
  ];
  if (doc.skipped.length > 0) {
    lines.push('#', '# Not exported (they stay unmanaged):', ...doc.skipped.map((s) => `#   - ${s}`));
  }
  return [...lines, 'version: 1', `project_id: ${yamlString(doc.projectId)}`];
}

const comments = (indent: string, list: readonly string[]): string[] => list.map((c) => `${indent}# ${c}`);

/** A value as YAML flow text: scalars plain when safe, IDs always quoted, lists and maps on one line. */
function yamlValue(v: ExportValue): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return yamlString(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(yamlValue).join(', ')}]`;
  const x = v as Exclude<ExportValue, string | number | boolean | null | readonly ExportValue[]>;
  if ('quoted' in x) return quotedValue(x.quoted);
  return `{ ${Object.entries(x.map).map(([k, item]) => `${k}: ${yamlValue(item)}`).join(', ')} }`;
}

/** The lines of an entry's fields, as their descriptors wrote them (a hint commented out). */
function fieldLines(indent: string, fields: readonly ExportedField[]): string[] {
  return fields.map((f) => `${indent}${f.commented ? '# ' : ''}${f.key}: ${yamlValue(f.value)}`);
}

/**
 * An entry at `indent`: a map kind's under its key, its comments and fields below; a list kind's
 * as `- <first field>` with its comments above; then each of its non-empty child collections.
 */
function renderEntry(kind: ExportedCollection['kind'], e: ExportedEntry, indent: string): string[] {
  const inner = `${indent}  `;
  let lines: string[];
  if (kindDef(kind).config.shape === 'map') lines = [`${indent}${yamlString(e.key)}:`, ...comments(inner, e.comments), ...fieldLines(inner, e.fields)];
  else {
    const [first, ...rest] = fieldLines('', e.fields);
    lines = [...comments(indent, e.comments), `${indent}- ${first}`, ...rest.map((l) => `${inner}${l}`)];
  }
  for (const c of e.children) {
    if (c.entries.length > 0) lines.push(`${inner}${configKey(kindDef(c.kind))}:`, ...c.entries.flatMap((x) => renderEntry(c.kind, x, `${inner}  `)));
  }
  return lines;
}

/** The YAML text of an export, ending in a newline. */
export function renderExportYaml(doc: ExportDocument, options: RenderOptions): string {
  const lines = header(doc, options);
  for (const c of doc.collections) {
    if (c.entries.length === 0) continue;
    // Long entries (a service's) read better apart.
    const spaced = kindDef(c.kind).export.spaced === true;
    lines.push('', `${configKey(kindDef(c.kind))}:`);
    c.entries.forEach((e, n) => lines.push(...(spaced && n > 0 ? [''] : []), ...renderEntry(c.kind, e, '  ')));
  }
  return `${lines.join('\n')}\n`;
}
