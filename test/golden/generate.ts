// Large golden cases are generated rather than committed: `generate.json` says how many services
// (and replica sets each), and whether the live state matches the config or lacks it.
import type { ServiceDto } from '../../src/api/dto.js';
import type { LiveJson } from './golden-case.js';

export interface GenerateSpec {
  services: number;
  replica_sets_per_service?: number;
  /** `match`: live equals the config, bound by name (first plan adopts) unless `locked`. */
  live: 'match' | 'empty';
  /** The lockfile binds every generated resource. */
  locked?: boolean;
}

const key = (i: number) => `svc-${String(i).padStart(4, '0')}`;
const id = (prefix: string, i: number) => `${prefix}${String(i).padStart(10 - prefix.length, '0')}`;

function serviceYaml(i: number, replicaSets: number): string {
  const lines = [`  ${key(i)}:`, '    cpu_millis: 1000', '    memory_gbs: 4', '    environment: PROD', '    pooler: false'];
  if (replicaSets > 0) lines.push('    replica_sets:');
  for (let r = 0; r < replicaSets; r++) lines.push(`      r${r}:`, '        cpu_millis: 1000', '        memory_gbs: 4', '        nodes: 1');
  return lines.join('\n');
}

function serviceDto(i: number, replicaSets: number): ServiceDto {
  return {
    created: '2026-01-01T00:00:00Z',
    name: key(i),
    project_id: 'proj-demo',
    region_code: 'us-east-1',
    resources: [{ id: 'r', spec: { cpu_millis: 1000, memory_gbs: 4, volume_type: 'dedicated' } }],
    service_id: id('s', i),
    service_type: 'POSTGRES',
    status: 'READY',
    ha_replicas: { replica_count: 0, sync_replica_count: 0 },
    metadata: { environment: 'PROD' },
    read_replica_sets: Array.from({ length: replicaSets }, (_, r) => ({ id: id(`r${r}`, i), cpu_millis: 1000, memory_gbs: 4, name: `r${r}`, nodes: 1, status: 'active', metadata: { environment: 'DEV' } })),
  };
}

export function generateCase(spec: GenerateSpec): { yaml: string; live: LiveJson } {
  const n = spec.services;
  const rs = spec.replica_sets_per_service ?? 0;
  const yaml = ['version: 1', 'project_id: proj-demo', 'services:', ...Array.from({ length: n }, (_, i) => serviceYaml(i, rs))].join('\n');
  const live: LiveJson = { services: spec.live === 'match' ? Array.from({ length: n }, (_, i) => serviceDto(i, rs)) : [] };
  return { yaml: `${yaml}\n`, live };
}

/** The lockfile that binds every generated resource (a project dbform already manages). */
export function generatedLock(spec: GenerateSpec): Record<string, { id: string }> {
  const out: Record<string, { id: string }> = {};
  for (let i = 0; i < spec.services; i++) {
    out[`service.${key(i)}`] = { id: id('s', i) };
    for (let r = 0; r < (spec.replica_sets_per_service ?? 0); r++) out[`replica_set.${key(i)}.r${r}`] = { id: id(`r${r}`, i) };
  }
  return out;
}
