// Drift (SPEC section 11): the state's record of the managed fields as last applied (the field
// descriptors' `record`), and what differs from it live, told as plan changes tell it.
import { describe, expect, it } from 'vitest';
import { parseLockfileJson, serializeLockfile, type Lockfile } from '../../../src/model/index.js';
import { appliedRecords, findDrift } from '../../../src/planner/index.js';
import { desiredPeering, desiredReplicaSet, desiredService, desiredState, desiredVpc, liveService, liveState, liveVpc, livePeering, PROJECT } from './builders.js';

const lock = (resources: Lockfile['resources']): Lockfile => ({ version: 1, projectId: PROJECT, resources });

describe('the applied record', () => {
  it('holds only the fields the config manages, in live terms (a VPC key as the ID it is bound to), never a password', () => {
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
      'peering.main.vpc-peer': { peer_account_id: '123456789012', peer_region_code: 'us-east-1', peer_vpc_id: 'vpc-peer' },
      'service.db': { addons: 'TIMESERIESDB', name: 'db', password: 3, pooler: true, size: { cpuMillis: 2000, memoryGbs: 8 }, vpc: '111' },
      'replica_set.db.r': { name: 'r', nodes: 1, size: { cpuMillis: 1000, memoryGbs: 4 } },
      'service.bare': { name: 'bare' },
    });
    // The password's version, never its variable or value.
    expect(JSON.stringify([...records])).not.toContain('PW');
  });

  it('leaves out what is not bound, and what the caller says did not settle', () => {
    const desired = desiredState({ services: [desiredService('a'), desiredService('b'), desiredService('c')] });
    const records = appliedRecords(desired, lock({ 'service.a': { id: 'a1' }, 'service.b': { id: 'b1' } }), (a) => a !== 'service.b');
    expect([...records.keys()]).toEqual(['service.a']);
  });

  it('is kept in the lockfile snake_case and sorted at every level; an entry without one (an older lockfile) still reads', () => {
    const applied = { size: { memoryGbs: 8, cpuMillis: 2000 }, pooler: true, name: 'db', ha: { syncReplicas: 0, replicas: 1 }, vpc: null };
    const text = serializeLockfile(lock({ 'service.db': { id: 'db1', applied } }));
    expect(JSON.parse(text).resources['service.db'].applied).toEqual({ ha: { replicas: 1, sync_replicas: 0 }, name: 'db', pooler: true, size: { cpu_millis: 2000, memory_gbs: 8 }, vpc: null });
    expect(text).toContain('"applied": {\n        "ha": {\n          "replicas": 1,\n          "sync_replicas": 0\n        },\n        "name": "db",');
    const back = parseLockfileJson(JSON.parse(text));
    expect(back.ok && back.value.resources['service.db']!.applied).toEqual(applied);
    const old = parseLockfileJson({ version: 1, project_id: PROJECT, resources: { 'service.db': { id: 'db1' } } });
    expect(old.ok && old.value.resources['service.db']).toEqual({ id: 'db1' });
    const bad = parseLockfileJson({ version: 1, project_id: PROJECT, resources: { 'service.db': { id: 'db1', applied: [1] } } });
    expect(bad.ok ? [] : bad.errors).toEqual(['resources["service.db"].applied must be an object of field -> value']);
  });
});

describe('findDrift', () => {
  const svcLive = liveService('db', { id: 'db1', size: { cpuMillis: 2000, memoryGbs: 8 }, pooler: true, serviceType: 'TIMESERIESDB' });
  const applied = { addons: 'TIMESERIESDB', environment: 'DEV', name: 'db', paused: false, password: 2, pooler: true, size: { cpuMillis: 2000, memoryGbs: 8 }, vpc: null, ha: { replicas: 0, syncReplicas: 0 } };

  it.each([
    ['a hand resize', { size: { cpuMillis: 4000, memoryGbs: 16 } }, [{ path: 'cpu_millis', before: 2000, after: 4000 }, { path: 'memory_gbs', before: 8, after: 16 }]],
    ['one half of a size', { size: { cpuMillis: 2000, memoryGbs: 16 } }, [{ path: 'memory_gbs', before: 8, after: 16 }]],
    ['HA replicas added', { ha: { replicas: 2, syncReplicas: 1 } }, [{ path: 'ha.replicas', before: 0, after: 2 }, { path: 'ha.sync_replicas', before: 0, after: 1 }]],
    ['the pooler turned off', { pooler: false }, [{ path: 'pooler', before: true, after: false }]],
    ['a stop', { status: 'PAUSED' }, [{ path: 'paused', before: false, after: true }]],
    ['an attach', { vpcId: '999' }, [{ path: 'vpc_id', before: null, after: '999' }]],
    ['the environment set to PROD', { environment: 'PROD' }, [{ path: 'environment', before: 'DEV', after: 'PROD' }]],
    ['another type', { serviceType: 'POSTGRES' }, [{ path: 'service_type', before: 'TIMESERIESDB', after: 'POSTGRES' }]],
    ['the real service spelling the type TIMESCALEDB', { serviceType: 'TIMESCALEDB' }, []],
    ['a region the config does not manage', { regionCode: 'eu-west-1' }, []],
  ] as const)('%s', (_name, change, expected) => {
    const live = liveState({ services: [{ ...svcLive, ...change } as never] });
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

  it("says nothing of a peering whose VPC's peerings were not read", () => {
    const unread = liveState({ vpcs: [liveVpc('main', { id: '111', peerings: undefined })] });
    const state = lock({ 'vpc.main': { id: '111' }, 'peering.main.vpc-peer': { id: 'p1', applied: { peer_account_id: '123456789012' } } });
    expect(findDrift(unread, state)).toEqual([]);
    const read = liveState({ vpcs: [liveVpc('main', { id: '111', peerings: [livePeering('111', 'vpc-peer', { id: 'p1', peerAccountId: '210987654321' })] })] });
    expect(findDrift(read, state)).toEqual([{ address: 'peering.main.vpc-peer', id: 'p1', deleted: false, changes: [{ path: 'peer_account_id', before: '123456789012', after: '210987654321' }] }]);
  });
});
