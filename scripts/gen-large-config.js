#!/usr/bin/env node
// Writes a large, valid dbform config: `node scripts/gen-large-config.js [SERVICES=1000] [STYLE=block] > big.yaml`.
// Every service uses every setting and has two replica sets; 20 VPCs with a peering each. The
// same config can be written in each YAML style SPEC section 8 names, to compare their cost:
//   block          block mappings, one setting a line (the default)
//   block-scalars  every service name a literal block scalar (`name: |-`)
//   flow           every service one flow mapping on one line
//   anchors        shared settings in `x-` anchors, merged with `<<: *anchor`, and aliases
//   comments       a comment line before every service and a comment after every setting
import { pathToFileURL } from 'node:url';

export const STYLES = ['block', 'block-scalars', 'flow', 'anchors', 'comments'];

function vpcLines(vpcs) {
  const lines = [];
  for (let v = 0; v < vpcs; v++) {
    lines.push(`  vpc-${v}:`, `    cidr: 10.${v}.0.0/16`, '    region_code: us-east-1', '    peerings:');
    lines.push('      - peer_account_id: "123456789012"', '        peer_region_code: us-east-1', `        peer_vpc_id: vpc-peer-${v}`);
  }
  return lines;
}

function blockService(i, vpcs, nameLines = [`    name: service-${i}`]) {
  return [
    `  svc-${i}:`,
    ...nameLines,
    '    addons: [time-series]',
    '    region_code: us-east-1',
    '    cpu_millis: 2000',
    '    memory_gbs: 8',
    '    environment: PROD',
    '    ha: { replicas: 2, sync_replicas: 1 }',
    '    pooler: true',
    `    vpc: vpc-${i % vpcs}`,
    '    paused: false',
    '    password:',
    `      from_env: DB_PASSWORD_${i}`,
    '      version: 1',
    '    protect: true',
    '    replica_sets:',
    '      reporting:',
    '        cpu_millis: 1000',
    '        memory_gbs: 4',
    '        nodes: 2',
    '        pooler: false',
    '        environment: PROD',
    '      analytics:',
    '        cpu_millis: 500',
    '        memory_gbs: 2',
    '        nodes: 1',
  ];
}

function flowService(i, vpcs) {
  return [
    `  svc-${i}: { name: service-${i}, addons: [time-series], region_code: us-east-1, cpu_millis: 2000, memory_gbs: 8, environment: PROD, ` +
      `ha: { replicas: 2, sync_replicas: 1 }, pooler: true, vpc: vpc-${i % vpcs}, paused: false, ` +
      `password: { from_env: DB_PASSWORD_${i}, version: 1 }, protect: true, replica_sets: { ` +
      'reporting: { cpu_millis: 1000, memory_gbs: 4, nodes: 2, pooler: false, environment: PROD }, ' +
      'analytics: { cpu_millis: 500, memory_gbs: 2, nodes: 1 } } }',
  ];
}

const ANCHORS = [
  'x-service: &service',
  '  addons: [time-series]',
  '  region_code: us-east-1',
  '  cpu_millis: 2000',
  '  memory_gbs: 8',
  '  environment: PROD',
  '  ha: { replicas: 2, sync_replicas: 1 }',
  '  pooler: true',
  '  paused: false',
  '  protect: true',
  'x-replica-sets: &replica-sets',
  '  reporting:',
  '    cpu_millis: 1000',
  '    memory_gbs: 4',
  '    nodes: 2',
  '    pooler: false',
  '    environment: PROD',
  '  analytics:',
  '    cpu_millis: 500',
  '    memory_gbs: 2',
  '    nodes: 1',
];

function anchoredService(i, vpcs) {
  return [
    `  svc-${i}:`,
    '    <<: *service',
    `    name: service-${i}`,
    `    vpc: vpc-${i % vpcs}`,
    '    password:',
    `      from_env: DB_PASSWORD_${i}`,
    '      version: 1',
    '    replica_sets: *replica-sets',
  ];
}

const commented = (lines, i) => [`  # service ${i}: owned by team ${i % 7}`, ...lines.map((l, k) => (k === 0 ? l : `${l}  # setting ${k}`))];

function serviceLines(style, i, vpcs) {
  if (style === 'block-scalars') return blockService(i, vpcs, ['    name: |-', `      service-${i}`]);
  if (style === 'flow') return flowService(i, vpcs);
  if (style === 'anchors') return anchoredService(i, vpcs);
  if (style === 'comments') return commented(blockService(i, vpcs), i);
  return blockService(i, vpcs);
}

export function generateLargeConfig(services = 1000, vpcs = 20, style = 'block') {
  if (!STYLES.includes(style)) throw new Error(`unknown style ${style}; styles: ${STYLES.join(', ')}`);
  const lines = ['# yaml-language-server: $schema=../schemas/dbform.schema.json', 'version: 1', 'project_id: proj-demo'];
  if (style === 'anchors') lines.push(...ANCHORS);
  lines.push('vpcs:', ...vpcLines(vpcs), 'services:');
  for (let i = 0; i < services; i++) lines.push(...serviceLines(style, i, vpcs));
  return `${lines.join('\n')}\n`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(generateLargeConfig(Number(process.argv[2] ?? 1000), 20, process.argv[3] ?? 'block'));
}
