// ExportDocument -> YAML text. Deterministic: entries sorted by key, fields in one fixed order
// (the order of SPEC section 1), comments fixed, no timestamps; the same world gives the same bytes.
import type { ExportValue } from '../model/index.js';
import { countResources, type ExportDocument, type ExportedField, type ExportedReplicaSet, type ExportedService, type ExportedVpc } from './document.js';
import { commentText, quotedValue, yamlString } from './yaml-text.js';

export interface RenderOptions {
  /** What the `# yaml-language-server: $schema=` comment points at (a relative path or a URL). */
  schemaRef: string;
}

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

function header(doc: ExportDocument, options: RenderOptions): string[] {
  const c = countResources(doc);
  const counts = [plural(c.vpcs, 'VPC', 'VPCs'), plural(c.peerings, 'peering', 'peerings'), plural(c.services, 'service', 'services'), plural(c.replicaSets, 'replica set', 'replica sets')];
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

function renderVpc(v: ExportedVpc): string[] {
  const lines = [`  ${yamlString(v.key)}:`, ...comments('    ', v.comments), ...fieldLines('    ', v.fields)];
  if (v.peerings.length === 0) return lines;
  lines.push('    peerings:');
  for (const p of v.peerings) {
    const [first, ...rest] = fieldLines('', p.fields);
    lines.push(...comments('      ', p.comments), `      - ${first}`, ...rest.map((l) => `        ${l}`));
  }
  return lines;
}

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

function renderReplicaSet(r: ExportedReplicaSet): string[] {
  const i = '        ';
  return [`      ${yamlString(r.key)}:`, ...comments(i, r.comments), ...fieldLines(i, r.fields)];
}

function renderService(s: ExportedService): string[] {
  const i = '    ';
  const lines = [`  ${yamlString(s.key)}:`, ...comments(i, s.comments), ...fieldLines(i, s.fields)];
  if (s.replicaSets.length > 0) lines.push(`${i}replica_sets:`, ...s.replicaSets.flatMap(renderReplicaSet));
  return lines;
}

/** The YAML text of an export, ending in a newline. */
export function renderExportYaml(doc: ExportDocument, options: RenderOptions): string {
  const lines = header(doc, options);
  if (doc.vpcs.length > 0) lines.push('', 'vpcs:', ...doc.vpcs.flatMap(renderVpc));
  if (doc.services.length > 0) {
    lines.push('', 'services:');
    doc.services.forEach((s, n) => lines.push(...(n > 0 ? [''] : []), ...renderService(s)));
  }
  return `${lines.join('\n')}\n`;
}
