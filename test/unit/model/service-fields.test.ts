// The service's field descriptors (src/kinds/service/fields.ts): each declares its keys, reads,
// compare, ops and export once; these tests hold the declarations to each other, so that the
// schema, the planner's diff, drift and export cannot disagree about a field.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ALLOWED_SERVICE_SIZES,
  createBody,
  endpointKinds,
  exportFields,
  openEndpoints,
  recordFields,
} from '../../../src/model/index.js';
import { buildConfigSchema } from '../../../src/config/schema.js';
import { desiredService, liveReplicaSet, liveService } from '../planner/builders.js';
import { checkFieldSet } from './field-set-checks.js';
import { REPLICA_SET_FIELDS } from '../../../src/kinds/replica-set/kind.js';
import { SERVICE_FIELDS } from '../../../src/kinds/service/fields.js';

const set = SERVICE_FIELDS;
const ctx = { key: 'db', vpcKey: (id: string) => (id === '1000000001' ? 'main' : undefined), quote: (s: string) => JSON.stringify(s), passwordEnv: 'DB_PASSWORD' };

const dedicated = fc.constantFrom(...ALLOWED_SERVICE_SIZES.slice(0, 4));
const liveArb = fc.record({
  name: fc.constantFrom('db', 'other'),
  serviceType: fc.constantFrom('POSTGRES', 'TIMESERIESDB', 'TIMESCALEDB', 'VECTOR'),
  regionCode: fc.constantFrom('us-east-1', 'eu-west-1'),
  size: fc.oneof(dedicated, fc.constant({ cpuMillis: 'shared' as const, memoryGbs: 'shared' as const })),
  environment: fc.constantFrom('DEV', 'PROD'),
  ha: fc.constantFrom({ replicas: 0, syncReplicas: 0 }, { replicas: 2, syncReplicas: 1 }),
  pooler: fc.boolean(),
  vpcId: fc.constantFrom(null, '1000000001', '2000000002'),
  status: fc.constantFrom('READY', 'PAUSED'),
});
const opt = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const desiredArb = fc.record({
  name: fc.constantFrom('db', 'other'),
  addons: opt(fc.constantFrom<Array<'ai' | 'time-series'>>([], ['ai'], ['time-series'])),
  regionCode: opt(fc.constantFrom('us-east-1', 'eu-west-1')),
  size: opt(fc.oneof(dedicated, fc.constant({ cpuMillis: 'shared' as const, memoryGbs: 'shared' as const }))),
  environment: opt(fc.constantFrom('DEV' as const, 'PROD' as const)),
  ha: opt(fc.constantFrom({ replicas: 0, syncReplicas: 0 }, { replicas: 2, syncReplicas: 1 })),
  pooler: opt(fc.boolean()),
});

const strip = <T extends object>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

describe('the service field set', () => {
  checkFieldSet({ set, ctx, blank: () => desiredService('db'), live: liveArb.map((l) => liveService('db', l)), desired: desiredArb.map((d) => desiredService('db', strip(d))) });

  it('declares each YAML key of a service once, and the config schema has exactly those and the structural ones', () => {
    const keys = set.fields.flatMap((f) => Object.keys(f.schema));
    expect(new Set(keys).size).toBe(keys.length);
    const service = (buildConfigSchema() as { properties: { services: { additionalProperties: { properties: object } } } }).properties.services.additionalProperties;
    expect(Object.keys(service.properties)).toEqual([...keys, 'protect', 'fork', 'replica_sets']);
  });

  it('records a password by its version only, never where its value comes from', () => {
    const recorded = recordFields(set, desiredService('db', { password: { fromEnv: 'SECRET_VAR', version: 3 }, pooler: true }));
    expect(recorded).toEqual({ name: 'db', password: 3, pooler: true });
  });

  it('leaves a value export cannot write faithfully unmanaged, with a note, and writes the password hint commented out', () => {
    const live = liveService('db', { environment: 'STAGING', ha: { replicas: 3, syncReplicas: 0 }, regionCode: 'Moon', serviceType: 'GRAPH' });
    const { fields, unmanaged } = exportFields(set, live, ctx);
    expect(unmanaged).toEqual([
      'service_type "GRAPH" has no addons spelling: addons left unmanaged',
      'region "Moon" is not a region code: region_code left unmanaged',
      'environment "STAGING" is not DEV or PROD: left unmanaged',
      'HA 3/0 (replicas/sync) cannot be written in a config: ha left unmanaged',
    ]);
    expect(fields.map((f) => `${f.commented ? '# ' : ''}${f.key}`)).toEqual(['cpu_millis', 'memory_gbs', 'pooler', 'vpc', 'paused', '# password']);
  });

  it('builds the create body in the order plans have always listed it, and a fork body of name, size and environment only', () => {
    const d = desiredService('db', { addons: ['ai', 'time-series'], regionCode: 'eu-west-1', size: { cpuMillis: 1000, memoryGbs: 4 }, environment: 'PROD', ha: { replicas: 2, syncReplicas: 1 }, pooler: true });
    const body = createBody(set, d);
    expect(Object.keys(body.request)).toEqual(['name', 'addons', 'cpu_millis', 'memory_gbs', 'environment_tag', 'region_code', 'replica_count']);
    expect(body.changes.map((c) => c.path)).toEqual(['name', 'addons', 'service_type', 'cpu_millis', 'memory_gbs', 'environment', 'region_code', 'ha.replicas']);
    const fork = createBody(set, d, { request: { fork_strategy: 'NOW' }, changes: [] }, true);
    expect(fork.request).toEqual({ fork_strategy: 'NOW', name: 'db', cpu_millis: '1000', memory_gbs: '4', environment_tag: 'PROD' });
  });

  it('opens the pooler endpoint only while the pooler is enabled and the VPC endpoint only while attached, in that order (dbform output)', () => {
    const pooler = { host: 'p.example', port: 6432 };
    const vpc = { host: 'v.example', port: 5432 };
    const both = liveService('db', { pooler: true, poolerEndpoint: pooler, vpcId: '1000000001', vpcEndpoint: vpc });
    expect(openEndpoints(set, both)).toEqual([{ prefix: 'pooler', endpoint: pooler }, { prefix: 'vpc', endpoint: vpc }]);
    // A stale endpoint left on a switched-off pooler or a detached service is never offered.
    expect(openEndpoints(set, { ...both, pooler: false, vpcId: null })).toEqual([]);
    const rs = liveReplicaSet('r', { pooler: true, poolerEndpoint: pooler });
    expect(openEndpoints(REPLICA_SET_FIELDS, rs)).toEqual([{ prefix: 'pooler', endpoint: pooler }]);
    expect(endpointKinds(SERVICE_FIELDS, REPLICA_SET_FIELDS)).toEqual([
      { prefix: 'pooler', when: 'while the pooler is enabled' },
      { prefix: 'vpc', when: 'while attached to a VPC' },
    ]);
  });
});
