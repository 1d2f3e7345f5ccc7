// The replica set's field descriptors (src/kinds/replica-set/kind.ts), held to the checks every
// kind's fields pass, and to the bodies plans have always shown.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ALLOWED_SERVICE_SIZES, afterCreateSteps, createBody } from '../../../src/model/index.js';
import { buildConfigSchema } from '../../../src/config/schema.js';
import { desiredReplicaSet, liveReplicaSet } from '../planner/builders.js';
import { checkFieldSet } from './field-set-checks.js';
import { REPLICA_SET_FIELDS } from '../../../src/kinds/replica-set/kind.js';

const set = REPLICA_SET_FIELDS;
const ctx = { key: 'r', vpcKey: () => undefined, quote: (s: string) => JSON.stringify(s), passwordEnv: 'R_PASSWORD' };
const size = fc.constantFrom(...ALLOWED_SERVICE_SIZES.slice(0, 4));
const opt = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

const live = fc
  .record({ name: fc.constantFrom('r', 'other'), size, nodes: fc.integer({ min: 1, max: 3 }), pooler: fc.boolean(), environment: fc.constantFrom('DEV', 'PROD') })
  .map(({ size: s, ...o }) => liveReplicaSet('r', { ...o, cpuMillis: s.cpuMillis, memoryGbs: s.memoryGbs }));
const desired = fc
  .record({ name: fc.constantFrom('r', 'other'), size, nodes: fc.integer({ min: 1, max: 3 }), pooler: opt(fc.boolean()), environment: opt(fc.constantFrom('DEV' as const, 'PROD' as const)) })
  .map(({ size: s, pooler, environment, ...o }) =>
    desiredReplicaSet('r', { ...o, cpuMillis: s.cpuMillis, memoryGbs: s.memoryGbs, ...(pooler !== undefined ? { pooler } : {}), ...(environment !== undefined ? { environment } : {}) }),
  );

describe('the replica set field set', () => {
  checkFieldSet({ set, ctx, blank: () => desiredReplicaSet('r'), live, desired });

  it('is the schema of a replica set, with protect after its fields', () => {
    const schema = buildConfigSchema() as { properties: { services: { additionalProperties: { properties: { replica_sets: { additionalProperties: { properties: object } } } } } } };
    const keys = set.fields.flatMap((f) => Object.keys(f.schema));
    expect(Object.keys(schema.properties.services.additionalProperties.properties.replica_sets.additionalProperties.properties)).toEqual([...keys, 'protect']);
  });

  it('creates with integer sizes and sorted request keys, then switches on the pooler and sets a PROD environment', () => {
    const d = desiredReplicaSet('r', { cpuMillis: 2000, memoryGbs: 8, nodes: 2, pooler: true, environment: 'PROD' });
    const body = createBody(set, d);
    expect(body.request).toEqual({ cpu_millis: 2000, memory_gbs: 8, name: 'r', nodes: 2 });
    expect(Object.keys(body.request)).toEqual(['cpu_millis', 'memory_gbs', 'name', 'nodes']);
    expect(body.changes.map((c) => c.path)).toEqual(['name', 'cpu_millis', 'memory_gbs', 'nodes']);
    expect(afterCreateSteps(set, d, false).map((s) => s.op)).toEqual(['enableReplicaPooler', 'setReplicaEnvironment']);
    expect(afterCreateSteps(set, desiredReplicaSet('r', { environment: 'DEV', pooler: false }), false)).toEqual([]);
  });
});
