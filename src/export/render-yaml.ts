// ExportDocument -> YAML text. Deterministic: entries sorted by key, fields in one fixed order
// (the order of SPEC section 1), comments fixed, no timestamps; the same world gives the same bytes.
import type { HaConfig, ServiceSize } from '../model/index.js';
import { countResources, type ExportDocument, type ExportedReplicaSet, type ExportedService, type ExportedVpc, type ExportedVpcRef } from './document.js';
import { passwordEnvName } from './keys.js';
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

function nameLine(indent: string, key: string, name: string): string[] {
  return name === key ? [] : [`${indent}name: ${yamlString(name)}`];
}

function renderVpc(v: ExportedVpc): string[] {
  const lines = [`  ${yamlString(v.key)}:`, ...nameLine('    ', v.key, v.name), `    cidr: ${yamlString(v.cidr)}`, `    region_code: ${yamlString(v.regionCode)}`];
  if (v.peerings.length === 0) return lines;
  lines.push('    peerings:');
  for (const p of v.peerings) {
    lines.push(
      ...comments('      ', p.comments),
      // Account IDs are digits: always quoted so that YAML keeps them strings.
      `      - peer_account_id: ${quotedValue(p.peerAccountId)}`,
      `        peer_region_code: ${yamlString(p.peerRegionCode)}`,
      `        peer_vpc_id: ${yamlString(p.peerVpcId)}`,
    );
  }
  return lines;
}

const sizeText = (v: number | 'shared'): string => String(v);

function sizeLines(indent: string, size: ServiceSize | { cpuMillis: number; memoryGbs: number }): string[] {
  return [`${indent}cpu_millis: ${sizeText(size.cpuMillis)}`, `${indent}memory_gbs: ${sizeText(size.memoryGbs)}`];
}

const haText = (ha: HaConfig): string => `{ replicas: ${ha.replicas}, sync_replicas: ${ha.syncReplicas} }`;

function vpcText(ref: ExportedVpcRef): string {
  if (ref === null) return 'null';
  return 'key' in ref ? yamlString(ref.key) : `{ id: ${quotedValue(ref.id)} }`;
}

function renderReplicaSet(r: ExportedReplicaSet): string[] {
  const i = '        ';
  const lines = [`      ${yamlString(r.key)}:`, ...comments(i, r.comments), ...nameLine(i, r.key, r.name), ...sizeLines(i, r), `${i}nodes: ${r.nodes}`, `${i}pooler: ${r.pooler}`];
  if (r.environment !== undefined) lines.push(`${i}environment: ${r.environment}`);
  return lines;
}

function renderService(s: ExportedService): string[] {
  const i = '    ';
  const lines = [`  ${yamlString(s.key)}:`, ...comments(i, s.comments), ...nameLine(i, s.key, s.name)];
  if (s.addons !== undefined) lines.push(`${i}addons: [${s.addons.join(', ')}]`);
  if (s.regionCode !== undefined) lines.push(`${i}region_code: ${yamlString(s.regionCode)}`);
  if (s.size !== undefined) lines.push(...sizeLines(i, s.size));
  if (s.environment !== undefined) lines.push(`${i}environment: ${s.environment}`);
  if (s.ha !== undefined) lines.push(`${i}ha: ${haText(s.ha)}`);
  lines.push(`${i}pooler: ${s.pooler}`);
  lines.push(`${i}vpc: ${vpcText(s.vpc)}`, `${i}paused: ${s.paused}`, `${i}# password: { from_env: ${passwordEnvName(s.key)}, version: 1 }`);
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
