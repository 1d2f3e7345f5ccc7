// SPEC section 3 ordering rules, one test each, plus invariants of every plan's order.
import { describe, expect, it } from 'vitest';
import type { DesiredService, LiveReplicaSet, Plan } from '../../../src/model/index.js';
import {
  action,
  dependsOn,
  desiredPeering,
  desiredReplicaSet,
  desiredService,
  desiredState,
  desiredVpc,
  errors,
  livePeering,
  liveReplicaSet,
  liveService,
  liveState,
  liveVpc,
  lockfile,
  ops,
  plan,
  warnings,
} from './builders.js';

function expectTopological(p: Plan): void {
  const seen = new Set<string>();
  for (const a of p.actions) {
    for (const d of a.dependsOn) expect(seen.has(d), `${a.id} depends on later ${d}`).toBe(true);
    seen.add(a.id);
  }
}

const before = (p: Plan, first: [string, string], then: [string, string]) => {
  expectTopological(p);
  expect(dependsOn(p, action(p, ...then), action(p, ...first)), `${then.join(' ')} after ${first.join(' ')}`).toBe(true);
};

describe('ordering rules', () => {
  it('a VPC exists before its peerings', () => {
    const p = plan(desiredState({ vpcs: [desiredVpc('main', { peerings: [desiredPeering('main', 'pv')] })] }), liveState());
    before(p, ['vpc.main', 'createVPC'], ['peering.main.pv', 'createVPCPeering']);
    expect(action(p, 'peering.main.pv', 'createVPCPeering').refs.vpc).toEqual({ address: 'vpc.main' });
  });

  it('a VPC exists before any attach to it', () => {
    const p = plan(desiredState({ vpcs: [desiredVpc('main')], services: [desiredService('db', { vpc: { key: 'main' } })] }), liveState({ services: [liveService('db')] }), lockfile({ 'service.db': 'svc-db' }));
    before(p, ['vpc.main', 'createVPC'], ['service.db', 'attachServiceToVPC']);
    const attach = action(p, 'service.db', 'attachServiceToVPC');
    expect(attach.request).toEqual({});
    expect(attach.refs.vpc).toEqual({ address: 'vpc.main' });
  });

  it('a service is READY before its replica sets, attach, pooler and every other op on it', () => {
    const p = plan(
      desiredState({
        services: [
          desiredService('db', {
            vpc: { id: '5555555555' },
            pooler: true,
            environment: 'PROD',
            ha: { replicas: 2, syncReplicas: 1 },
            password: { fromEnv: 'PW', version: 1 },
            replicaSets: [desiredReplicaSet('r', { pooler: true, environment: 'PROD' })],
          }),
        ],
      }),
      liveState(),
    );
    const create = action(p, 'service.db', 'createService');
    expect(create.request).toEqual({ name: 'db', environment_tag: 'PROD', replica_count: 2 });
    for (const a of p.actions.filter((x) => x !== create)) expect(dependsOn(p, a, create), `${a.address} ${a.op}`).toBe(true);
    expect(ops(p)).toContain('service.db setHAReplica');
    expect(action(p, 'service.db', 'setHAReplica').request).toEqual({ replica_count: 2, sync_replica_count: 1 });
    expectTopological(p);
  });

  it('a fork parent is READY before the fork', () => {
    const p = plan(
      desiredState({
        services: [
          desiredService('preview', { fork: { from: { key: 'db' }, strategy: 'NOW' }, environment: 'DEV' }),
          desiredService('db', { size: { cpuMillis: 2000, memoryGbs: 8 } }),
        ],
      }),
      liveState({ services: [liveService('db', { size: { cpuMillis: 1000, memoryGbs: 4 } })] }),
      lockfile({ 'service.db': 'svc-db' }),
    );
    before(p, ['service.db', 'resizeService'], ['service.preview', 'forkService']);
    const fork = action(p, 'service.preview', 'forkService');
    expect(fork.request).toEqual({ fork_strategy: 'NOW', name: 'preview', environment_tag: 'DEV' });
    expect(fork.refs.forkParent).toEqual({ address: 'service.db', id: 'svc-db' });
  });

  it('a fork of a parent created in the same plan waits for its create', () => {
    const p = plan(
      desiredState({ services: [desiredService('preview', { fork: { from: { key: 'db' }, strategy: 'PITR', targetTime: '2026-11-01T00:00:00Z' } }), desiredService('db')] }),
      liveState(),
    );
    before(p, ['service.db', 'createService'], ['service.preview', 'forkService']);
    expect(action(p, 'service.preview', 'forkService').refs.forkParent).toEqual({ address: 'service.db' });
    expect(action(p, 'service.preview', 'forkService').request).toMatchObject({ target_time: '2026-11-01T00:00:00Z' });
  });

  it('a detach and every peering delete precede a VPC delete', () => {
    const p = plan(
      desiredState({ services: [desiredService('db', { vpc: null })] }),
      liveState({ vpcs: [liveVpc('old', { peerings: [livePeering('vpc-old', 'pv')] })], services: [liveService('db', { vpcId: 'vpc-old' })] }),
      lockfile({ 'vpc.old': 'vpc-old', 'peering.old.pv': 'pcx-pv', 'service.db': 'svc-db' }),
    );
    expect(errors(p)).toEqual([]);
    before(p, ['service.db', 'detachServiceFromVPC'], ['vpc.old', 'deleteVPC']);
    before(p, ['peering.old.pv', 'deleteVPCPeering'], ['vpc.old', 'deleteVPC']);
  });

  it('a managed service attached to a removed VPC is detached even when vpc: is not managed', () => {
    const p = plan(
      desiredState({ services: [desiredService('db')] }),
      liveState({ vpcs: [liveVpc('old')], services: [liveService('db', { vpcId: 'vpc-old' })] }),
      lockfile({ 'vpc.old': 'vpc-old', 'service.db': 'svc-db' }),
    );
    expect(action(p, 'service.db', 'detachServiceFromVPC').reason).toBe('removed');
    before(p, ['service.db', 'detachServiceFromVPC'], ['vpc.old', 'deleteVPC']);
  });

  it('a deleted service attached to a deleted VPC goes first', () => {
    const p = plan(
      desiredState(),
      liveState({ vpcs: [liveVpc('old')], services: [liveService('db', { vpcId: 'vpc-old' })] }),
      lockfile({ 'vpc.old': 'vpc-old', 'service.db': 'svc-db' }),
      { allowDataLoss: true },
    );
    before(p, ['service.db', 'deleteService'], ['vpc.old', 'deleteVPC']);
  });

  it('replica sets are deleted before their service', () => {
    const p = plan(
      desiredState(),
      liveState({ services: [liveService('db', { replicaSets: [liveReplicaSet('r')] })] }),
      lockfile({ 'service.db': 'svc-db', 'replica_set.db.r': 'rs-r' }),
      { allowDataLoss: true },
    );
    before(p, ['replica_set.db.r', 'deleteReplicaSet'], ['service.db', 'deleteService']);
    expect(action(p, 'replica_set.db.r', 'deleteReplicaSet').refs.service).toEqual({ address: 'service.db', id: 'svc-db' });
  });

  it('ops on one resource run one at a time in plan order', () => {
    const p = plan(
      desiredState({ services: [desiredService('db', { size: { cpuMillis: 2000, memoryGbs: 8 }, ha: { replicas: 1, syncReplicas: 0 }, environment: 'PROD', pooler: true })] }),
      liveState({ services: [liveService('db')] }),
      lockfile({ 'service.db': 'svc-db' }),
    );
    expect(ops(p)).toEqual(['service.db resizeService', 'service.db setHAReplica', 'service.db setEnvironment', 'service.db enablePooler']);
    for (let i = 1; i < p.actions.length; i++) expect(p.actions[i]!.dependsOn).toContain(p.actions[i - 1]!.id);
  });

  it('a service that will be paused gets its other changes first', () => {
    const p = plan(
      desiredState({ services: [desiredService('db', { paused: true, environment: 'PROD', replicaSets: [desiredReplicaSet('r')] })] }),
      liveState({ services: [liveService('db')] }),
      lockfile({ 'service.db': 'svc-db' }),
    );
    before(p, ['service.db', 'setEnvironment'], ['service.db', 'stopService']);
    before(p, ['replica_set.db.r', 'createReplicaSet'], ['service.db', 'stopService']);
    expect(p.actions.at(-1)!.op).toBe('stopService');
  });

  it('a service that will be started gets its changes after the start', () => {
    const p = plan(
      desiredState({ services: [desiredService('db', { paused: false, size: { cpuMillis: 2000, memoryGbs: 8 }, replicaSets: [desiredReplicaSet('r')] })] }),
      liveState({ services: [liveService('db', { status: 'PAUSED' })] }),
      lockfile({ 'service.db': 'svc-db' }),
    );
    expect(ops(p)[0]).toBe('service.db startService');
    before(p, ['service.db', 'startService'], ['service.db', 'resizeService']);
    before(p, ['service.db', 'resizeService'], ['replica_set.db.r', 'createReplicaSet']);
    expect(warnings(p)).toEqual([]);
  });

  it('a created service that is desired paused is stopped after everything else', () => {
    const p = plan(desiredState({ services: [desiredService('db', { paused: true, pooler: true, replicaSets: [desiredReplicaSet('r')] })] }), liveState());
    expect(p.actions.at(-1)!.op).toBe('stopService');
    before(p, ['replica_set.db.r', 'createReplicaSet'], ['service.db', 'stopService']);
  });

  it('a paused service that stays paused but needs READY-only changes: start, changes, stop, with a warning', () => {
    const p = plan(
      desiredState({ services: [desiredService('db', { size: { cpuMillis: 2000, memoryGbs: 8 } })] }),
      liveState({ services: [liveService('db', { status: 'PAUSED', size: { cpuMillis: 1000, memoryGbs: 4 } })] }),
      lockfile({ 'service.db': 'svc-db' }),
    );
    expect(ops(p)).toEqual(['service.db startService', 'service.db resizeService', 'service.db stopService']);
    expect(p.actions.map((a) => a.reason)).toEqual(['wake-for-changes', 'changed', 'restore-paused']);
    expect(warnings(p)).toHaveLength(1);
    expect(warnings(p)[0]).toContain('starts it');
  });

  it.each<[string, Partial<DesiredService>, LiveReplicaSet[]]>([
    ['setHA', { ha: { replicas: 1, syncReplicas: 0 } }, []],
    ['attach', { vpc: { id: '5555555555' } }, []],
    ['replica set create', { replicaSets: [desiredReplicaSet('r')] }, []],
    ['replica set resize', { replicaSets: [desiredReplicaSet('r', { cpuMillis: 2000, memoryGbs: 8 })] }, [liveReplicaSet('r')]],
  ])('wakes a paused service for %s', (_n, d, rs) => {
    const p = plan(
      desiredState({ services: [desiredService('db', { paused: true, ...d })] }),
      liveState({ vpcs: [liveVpc('other', { id: '5555555555' })], services: [liveService('db', { status: 'PAUSED', replicaSets: [...rs] })] }),
      lockfile({ 'service.db': 'svc-db', 'replica_set.db.r': 'rs-r' }),
    );
    expect(ops(p)[0]).toBe('service.db startService');
    expect(ops(p).at(-1)).toBe('service.db stopService');
    expect(warnings(p)).toHaveLength(1);
  });

  it('metadata changes on a paused service do not wake it', () => {
    const p = plan(
      desiredState({ services: [desiredService('db', { environment: 'PROD', password: { fromEnv: 'PW', version: 1 } })] }),
      liveState({ services: [liveService('db', { status: 'PAUSED' })] }),
      lockfile({ 'service.db': 'svc-db' }),
    );
    expect(ops(p)).toEqual(['service.db setEnvironment', 'service.db updatePassword']);
    expect(warnings(p)).toEqual([]);
  });

  it('a fork of a paused parent wakes the parent around the fork', () => {
    const p = plan(
      desiredState({ services: [desiredService('db'), desiredService('preview', { fork: { from: { key: 'db' }, strategy: 'LAST_SNAPSHOT' } })] }),
      liveState({ services: [liveService('db', { status: 'PAUSED' })] }),
      lockfile({ 'service.db': 'svc-db' }),
    );
    before(p, ['service.db', 'startService'], ['service.preview', 'forkService']);
    before(p, ['service.preview', 'forkService'], ['service.db', 'stopService']);
  });

  it('a replaced VPC: detach, peering delete, VPC delete, create, peering create, re-attach', () => {
    const p = plan(
      desiredState({ vpcs: [desiredVpc('main', { cidr: '10.9.0.0/16', peerings: [desiredPeering('main', 'pv')] })], services: [desiredService('db', { vpc: { key: 'main' } })] }),
      liveState({ vpcs: [liveVpc('main', { peerings: [livePeering('vpc-main', 'pv')] })], services: [liveService('db', { vpcId: 'vpc-main' })] }),
      lockfile({ 'vpc.main': 'vpc-main', 'peering.main.pv': 'pcx-pv', 'service.db': 'svc-db' }),
    );
    expect(errors(p)).toEqual([]);
    before(p, ['service.db', 'detachServiceFromVPC'], ['vpc.main', 'deleteVPC']);
    before(p, ['peering.main.pv', 'deleteVPCPeering'], ['vpc.main', 'deleteVPC']);
    before(p, ['vpc.main', 'deleteVPC'], ['vpc.main', 'createVPC']);
    before(p, ['vpc.main', 'createVPC'], ['peering.main.pv', 'createVPCPeering']);
    before(p, ['vpc.main', 'createVPC'], ['service.db', 'attachServiceToVPC']);
    expect(action(p, 'service.db', 'detachServiceFromVPC').request).toEqual({ vpc_id: 'vpc-main' });
    expect(action(p, 'service.db', 'attachServiceToVPC').refs.vpc).toEqual({ address: 'vpc.main' });
    expect(p.summary).toMatchObject({ replace: 2, update: 1 });
  });

  it('a replaced service recreates its replica sets: old sets deleted before it, new ones after', () => {
    const p = plan(
      desiredState({ services: [desiredService('db', { regionCode: 'eu-west-1', replicaSets: [desiredReplicaSet('r')] })] }),
      liveState({ services: [liveService('db', { replicaSets: [liveReplicaSet('r')] })] }),
      lockfile({ 'service.db': 'svc-db', 'replica_set.db.r': 'rs-r' }),
      { replace: ['service.db'], allowDataLoss: true },
    );
    before(p, ['replica_set.db.r', 'deleteReplicaSet'], ['service.db', 'deleteService']);
    before(p, ['service.db', 'createService'], ['replica_set.db.r', 'createReplicaSet']);
    expect(action(p, 'replica_set.db.r', 'deleteReplicaSet').refs.service).toEqual({ address: 'service.db', id: 'svc-db' });
    expect(action(p, 'replica_set.db.r', 'createReplicaSet').refs.service).toEqual({ address: 'service.db' });
  });

  it('action ids are a1..aN in plan order', () => {
    const p = plan(desiredState({ vpcs: [desiredVpc('a'), desiredVpc('b')], services: [desiredService('db')] }), liveState());
    expect(p.actions.map((a) => a.id)).toEqual(['a1', 'a2', 'a3']);
    expect(ops(p)).toEqual(['vpc.a createVPC', 'vpc.b createVPC', 'service.db createService']);
  });
});

describe('replica set names', () => {
  it('a name freed by a replace or delete is reused only after the delete', () => {
    const p = plan(
      desiredState({ services: [desiredService('a', { replicaSets: [desiredReplicaSet('x', { name: 'r2' }), desiredReplicaSet('y', { name: 'r1' })] })] }),
      liveState({ services: [liveService('a', { replicaSets: [liveReplicaSet('r1', { id: 'rs1' })] })] }),
      lockfile({ 'service.a': 'svc-a', 'replica_set.a.x': 'rs1' }),
    );
    expect(dependsOn(p, action(p, 'replica_set.a.y', 'createReplicaSet'), action(p, 'replica_set.a.x', 'deleteReplicaSet'))).toBe(true);
  });
});
