#!/usr/bin/env node
// Writes a large, valid dbform config: `node scripts/gen-large-config.js [SERVICES=1000] > big.yaml`.
// Every service uses every setting and has two replica sets; 20 VPCs with a peering each.
import { pathToFileURL } from 'node:url';

export function generateLargeConfig(services = 1000, vpcs = 20) {
  const lines = ['# yaml-language-server: $schema=../schemas/dbform.schema.json', 'version: 1', 'project_id: proj-demo', 'vpcs:'];
  for (let v = 0; v < vpcs; v++) {
    lines.push(`  vpc-${v}:`, `    cidr: 10.${v}.0.0/16`, '    region_code: us-east-1', '    peerings:');
    lines.push('      - peer_account_id: "123456789012"', '        peer_region_code: us-east-1', `        peer_vpc_id: vpc-peer-${v}`);
  }
  lines.push('services:');
  for (let i = 0; i < services; i++) {
    lines.push(
      `  svc-${i}:`,
      `    name: service-${i}`,
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
    );
  }
  return `${lines.join('\n')}\n`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(generateLargeConfig(Number(process.argv[2] ?? 1000)));
}
