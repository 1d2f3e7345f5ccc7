// Drift (SPEC section 11): the state's record of the managed fields as last applied, and what
// differs from it live. Table-driven over the field table (src/model/applied-fields.ts).
import { describe, expect, it } from 'vitest';
import { parseLockfileJson, serializeLockfile, type Lockfile } from '../../../src/model/index.js';
import { appliedRecords, findDrift } from '../../../src/planner/index.js';
import { desiredPeering, desiredReplicaSet, desiredService, desiredState, desiredVpc, liveService, liveState, liveVpc, livePeering, PROJECT } from './builders.js';

const lock = (resources: Lockfile['resources']): Lockfile => ({ version: 1, projectId: PROJECT, resources });

describe('the applied record', () => {
  it('holds only the fields the config manages, in live terms (a VPC key as the ID it is bound to), sorted', () => {
    const desired = desiredState({
      vpcs: [desiredVpc('main', { peerings: [desiredPeering('main', 'vpc-peer')] })],
      services: [
        desiredService('db', { size: { cpuMillis: 2000, memoryGbs: 8 }, pooler: true, vpc: { key: 'main' }, addons: ['time-series'], password: { fromEnv: 'PW', version: 3 }, replicaSets: [desiredReplicaSet('r')] }),
        desiredService('bare'),
      ],
    });
    const state = lock({
      'vpc.main': { id: '111' },
      'peering.main.vpc-peer': { id: 'p1' },
      'service.db': { id: 'db1' },
      'replica_set.db.r': { id: 'r1' },
      'service.bare': { id: 'b1' },
    });
    const records = appliedRecords(desired, state, () => true);
    expect(Object.fromEntries(records)).toEqual({
      'vpc.main': { cidr: '10.0.0.0/16', name: 'main', region_code: 'us-east-1' },
      'peering.main.vpc-peer': { peer_account_id: '123456789012', peer_region_code: 'us-east-1' },
      'service.db': { cpu_millis: 2000, memory_gbs: 8, name: 'db', pooler: true, service_type: 'TIMESERIESDB', vpc_id: '111' },
      'replica_set.db.r': { cpu_millis: 1000, memory_gbs: 4, name: 'r', nodes: 1 },
      'service.bare': { name: 'bare' },
    });
    // No password, no version of one: only fields whose values are not secret.
    expect(JSON.stringify([...records])).not.toMatch(/password|PW/);
    expect(Object.keys(records.get('service.db')!)).toEqual(['cpu_millis', 'memory_gbs', 'name', 'pooler', 'service_type', 'vpc_id']);
  });

  it('leaves out what is not bound, and what the caller says did not settle', () => {
    const desired = desiredState({ services: [desiredService('a'), desiredService('b'), desiredService('c')] });
    const records = appliedRecords(desired, lock({ 'service.a': { id: 'a1' }, 'service.b': { id: 'b1' } }), (a) => a !== 'service.b');
    expect([...records.keys()]).toEqual(['service.a']);
  });

  it('is kept in the lockfile sorted, and an entry without one (an older lockfile) still reads', () => {
    const text = serializeLockfile(lock({ 'service.db': { id: 'db1', applied: { pooler: true, cpu_millis: 2000, name: 'db', vpc_id: null } } }));
    expect(text).toContain('"applied": {\n        "cpu_millis": 2000,\n        "name": "db",\n        "pooler": true,\n        "vpc_id": null\n      }');
    const back = parseLockfileJson(JSON.parse(text));
    expect(back.ok && back.value.resources['service.db']!.applied).toEqual({ cpu_millis: 2000, name: 'db', pooler: true, vpc_id: null });
    const old = parseLockfileJson({ version: 1, project_id: PROJECT, resources: { 'service.db': { id: 'db1' } } });
    expect(old.ok && old.value.resources['service.db']).toEqual({ id: 'db1' });
    const bad = parseLockfileJson({ version: 1, project_id: PROJECT, resources: { 'service.db': { id: 'db1', applied: { ha: { replicas: 1 } } } } });
    expect(bad.ok ? [] : bad.errors).toEqual(['resources["service.db"].applied must be an object of field -> string, number, true, false or null']);
  });
});

describe('findDrift', () => {
  const svcLive = liveService('db', { id: 'db1', size: { cpuMillis: 2000, memoryGbs: 8 }, pooler: true });

  it.each([
    ['a hand resize', { size: { cpuMillis: 4000, memoryGbs: 16 } }, [{ path: 'cpu_millis', before: 2000, after: 4000 }, { path: 'memory_gbs', before: 8, after: 16 }]],
    ['the pooler turned off', { pooler: false }, [{ path: 'pooler', before: true, after: false }]],
    ['a stop', { status: 'PAUSED' }, [{ path: 'paused', before: false, after: true }]],
    ['an attach', { vpcId: '999' }, [{ path: 'vpc_id', before: null, after: '999' }]],
    ['the environment set to PROD', { environment: 'PROD' }, [{ path: 'environment', before: 'DEV', after: 'PROD' }]],
    ['the real service spelling the type TIMESCALEDB', { serviceType: 'TIMESCALEDB' }, []],
    ['a change of a field the config does not manage', { ha: { replicas: 2, syncReplicas: 1 } }, []],
  ] as const)('%s', (_name, change, expected) => {
    const applied = { cpu_millis: 2000, environment: 'DEV', memory_gbs: 8, name: 'db', paused: false, pooler: true, service_type: 'TIMESERIESDB', vpc_id: null };
    const live = liveState({ services: [{ ...svcLive, serviceType: 'TIMESERIESDB', ...change }] });
    const drift = findDrift(live, lock({ 'service.db': { id: 'db1', applied } }));
    expect(drift).toEqual(expected.length === 0 ? [] : [{ address: 'service.db', id: 'db1', deleted: false, changes: expected }]);
  });

  it('reports resources deleted outside dbform (with or without a record), in address order', () => {
    const live = liveState({ services: [liveService('kept', { id: 'k1' }), liveService('going', { id: 'g1', status: 'DELETING' })], vpcs: [liveVpc('main', { id: '111' })] });
    const drift = findDrift(live, lock({ 'service.going': { id: 'g1' }, 'service.kept': { id: 'k1' }, 'vpc.gone': { id: '222' }, 'replica_set.kept.r': { id: 'r9' } }));
    expect(drift.map((d) => [d.address, d.deleted])).toEqual([
      ['vpc.gone', true],
      ['service.going', true],
      ['replica_set.kept.r', true],
    ]);
  });

  it('says nothing of a peering whose VPC\'s peerings were not read', () => {
    const unread = liveState({ vpcs: [liveVpc('main', { id: '111', peerings: undefined })] });
    const state = lock({ 'vpc.main': { id: '111' }, 'peering.main.vpc-peer': { id: 'p1', applied: { peer_account_id: '123456789012' } } });
    expect(findDrift(unread, state)).toEqual([]);
    const read = liveState({ vpcs: [liveVpc('main', { id: '111', peerings: [livePeering('111', 'vpc-peer', { id: 'p1', peerAccountId: '210987654321' })] })] });
    expect(findDrift(read, state)).toEqual([{ address: 'peering.main.vpc-peer', id: 'p1', deleted: false, changes: [{ path: 'peer_account_id', before: '123456789012', after: '210987654321' }] }]);
  });
});
