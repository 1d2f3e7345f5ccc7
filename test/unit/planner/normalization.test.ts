// Nothing diffs forever: both sides are normalized before comparing (USERS.md item 13).
import { describe, expect, it } from 'vitest';
import type { DesiredService, LiveService } from '../../../src/model/index.js';
import { action, desiredReplicaSet, desiredService, desiredState, desiredVpc, errors, liveReplicaSet, liveService, liveState, liveVpc, lockfile, ops, plan } from './builders.js';

const LOCK = lockfile({ 'service.db': { id: 'svc-db', passwordVersion: 1 }, 'vpc.main': 'vpc-main', 'replica_set.db.r': 'rs-r' });
const planOne = (d: Partial<DesiredService>, l: Partial<LiveService>, vpcs = [liveVpc('main')]) =>
  plan(desiredState({ vpcs: [desiredVpc('main')], services: [desiredService('db', d)] }), liveState({ vpcs, services: [liveService('db', l)] }), LOCK);

describe('values that must not diff', () => {
  it.each<[string, Partial<DesiredService>, Partial<LiveService>]>([
    ['shared = shared', { size: { cpuMillis: 'shared', memoryGbs: 'shared' } }, {}],
    ['a size the API did not report', { size: { cpuMillis: 2000, memoryGbs: 8 } }, { size: undefined }],
    ['environment DEV vs absent', { environment: 'DEV' }, { environment: undefined }],
    ['ha 0/0 vs default', { ha: { replicas: 0, syncReplicas: 0 } }, {}],
    ['pooler off vs off', { pooler: false }, {}],
    ['time-series vs TIMESERIESDB', { addons: ['time-series'] }, { serviceType: 'TIMESERIESDB' }],
    ['no addons vs POSTGRES', { addons: [] }, {}],
    ['ai is not readable', { addons: ['ai'] }, {}],
    ['ai and time-series vs TIMESERIESDB', { addons: ['ai', 'time-series'] }, { serviceType: 'TIMESERIESDB' }],
    ['ai vs legacy VECTOR', { addons: ['ai'] }, { serviceType: 'VECTOR' }],
    ['time-series vs TIMESCALEDB (the real spelling)', { addons: ['time-series'] }, { serviceType: 'TIMESCALEDB' }],
    ['ai and time-series vs TIMESCALEDB', { addons: ['ai', 'time-series'] }, { serviceType: 'TIMESCALEDB' }],
    ['region not given is unmanaged', {}, { regionCode: 'eu-central-1' }],
    ['unset fields are unmanaged', {}, { size: { cpuMillis: 4000, memoryGbs: 16 }, environment: 'PROD', ha: { replicas: 2, syncReplicas: 1 }, pooler: true, vpcId: '9999999999', status: 'PAUSED' }],
    ['vpc key resolves through the matched VPC ID', { vpc: { key: 'main' } }, { vpcId: 'vpc-main' }],
    ['vpc id equal to the live attachment', { vpc: { id: 'vpc-main' } }, { vpcId: 'vpc-main' }],
    ['vpc null and detached', { vpc: null }, {}],
    ['the pooler of a paused service, as the API reports it', { paused: true, pooler: true }, { status: 'PAUSED', pooler: true }],
    ['PAUSING counts as paused', { paused: true }, { status: 'PAUSING' }],
    ['a transitional status counts as running', { paused: false }, { status: 'CONFIGURING' }],
    ['password version equal to the lockfile', { password: { fromEnv: 'PW', version: 1 } }, {}],
  ])('%s', (_name, d, l) => {
    const p = planOne(d, l);
    expect(errors(p)).toEqual([]);
    expect(ops(p)).toEqual([]);
  });

  it('replica set environment absent vs DEV', () => {
    const p = plan(
      desiredState({ services: [desiredService('db', { replicaSets: [desiredReplicaSet('r', { environment: 'DEV', pooler: false })] })] }),
      liveState({ services: [liveService('db', { replicaSets: [liveReplicaSet('r', { environment: undefined })] })] }),
      LOCK,
    );
    expect(ops(p)).toEqual([]);
  });
});

describe('values that must diff', () => {
  it('a paused service that will be started gets its pooler change after the start', () => {
    const p = planOne({ paused: false, pooler: true }, { status: 'PAUSED', pooler: false });
    expect(ops(p)).toEqual(['service.db startService', 'service.db enablePooler']);
    expect(action(p, 'service.db', 'enablePooler').changes[0]).toMatchObject({ path: 'pooler', before: false, after: true });
    expect(action(p, 'service.db', 'enablePooler').dependsOn).toEqual([action(p, 'service.db', 'startService').id]);
  });

  it('a pooler change of a service that stays paused needs no start (the API takes it while paused)', () => {
    const p = planOne({ paused: true, pooler: true }, { status: 'PAUSED', pooler: false });
    expect(ops(p)).toEqual(['service.db enablePooler']);
    expect(p.diagnostics.filter((d) => d.code === 'wake-paused')).toEqual([]);
  });

  it('vpc key of another VPC: detach from the live one, attach to the desired ID', () => {
    const p = planOne({ vpc: { key: 'main' } }, { vpcId: '9999999999' });
    expect(ops(p)).toEqual(['service.db detachServiceFromVPC', 'service.db attachServiceToVPC']);
    expect(action(p, 'service.db', 'attachServiceToVPC').request).toEqual({ vpc_id: 'vpc-main' });
    expect(action(p, 'service.db', 'attachServiceToVPC').changes[0]).toMatchObject({ before: '9999999999', after: 'vpc.main' });
  });

  it('attaching to a VPC of another region is an error', () => {
    const p = planOne({ vpc: { key: 'main' }, regionCode: 'us-east-1' }, {}, [liveVpc('main')]);
    expect(errors(p)).toEqual([]);
    const q = plan(
      desiredState({ vpcs: [desiredVpc('main', { regionCode: 'eu-west-1' })], services: [desiredService('db', { vpc: { key: 'main' } })] }),
      liveState({ services: [liveService('db')] }),
      LOCK,
    );
    expect(errors(q)).toEqual(['cannot attach to vpc.main: the service is in us-east-1 and the VPC in eu-west-1']);
  });
});

describe('passwords', () => {
  it('a new version is an updatePassword carrying only the env var name and version', () => {
    const p = planOne({ password: { fromEnv: 'DB_PW', version: 2 } }, {});
    const a = action(p, 'service.db', 'updatePassword');
    expect(a.password).toEqual({ fromEnv: 'DB_PW', version: 2 });
    expect(a.request).toBeUndefined();
    // The value never appears; its version (not a secret) says this is a rotation from 1 to 2.
    expect(a.changes).toEqual([
      { path: 'password', before: '(sensitive)', after: '(sensitive)', forcesReplace: false, sensitive: true },
      { path: 'password.version', before: 1, after: 2, forcesReplace: false, sensitive: false },
    ]);
  });

  it('an adopted service with a password gets it set (the version is unknown)', () => {
    const p = plan(desiredState({ services: [desiredService('db', { password: { fromEnv: 'PW', version: 1 } })] }), liveState({ services: [liveService('db')] }));
    expect(ops(p)).toEqual(['service.db updatePassword']);
  });

  it('a new service with a password: create, then updatePassword', () => {
    const p = plan(desiredState({ services: [desiredService('db', { password: { fromEnv: 'PW', version: 3 } })] }), liveState());
    expect(ops(p)).toEqual(['service.db createService', 'service.db updatePassword']);
    expect(action(p, 'service.db', 'updatePassword').refs.target).toEqual({ address: 'service.db' });
  });
});

describe('create bodies', () => {
  it('createService sends only managed fields', () => {
    const p = plan(desiredState({ services: [desiredService('db')] }), liveState());
    expect(p.actions[0]!.request).toEqual({ name: 'db' });
  });

  it('createService with every field, sizes as strings', () => {
    const p = plan(
      desiredState({
        services: [desiredService('db', { addons: ['time-series'], regionCode: 'eu-west-1', size: { cpuMillis: 2000, memoryGbs: 8 }, environment: 'PROD', ha: { replicas: 1, syncReplicas: 0 } })],
      }),
      liveState(),
    );
    expect(p.actions[0]!.request).toEqual({ name: 'db', addons: ['time-series'], cpu_millis: '2000', memory_gbs: '8', environment_tag: 'PROD', region_code: 'eu-west-1', replica_count: 1 });
    expect(ops(p)).toEqual(['service.db createService']);
  });

  it('shared size is sent as the literal shared', () => {
    const p = plan(desiredState({ services: [desiredService('db', { size: { cpuMillis: 'shared', memoryGbs: 'shared' } })] }), liveState());
    expect(p.actions[0]!.request).toMatchObject({ cpu_millis: 'shared', memory_gbs: 'shared' });
  });

  it('a fork by service ID; HA set after (forks start with none)', () => {
    const p = plan(
      desiredState({ services: [desiredService('f', { fork: { from: { serviceId: 'parent0000' }, strategy: 'LAST_SNAPSHOT' }, ha: { replicas: 1, syncReplicas: 0 }, size: { cpuMillis: 1000, memoryGbs: 4 } })] }),
      liveState({ services: [liveService('parent', { id: 'parent0000' })] }),
    );
    expect(ops(p)).toEqual(['service.f forkService', 'service.f setHAReplica']);
    expect(p.actions[0]!.request).toEqual({ fork_strategy: 'LAST_SNAPSHOT', name: 'f', cpu_millis: '1000', memory_gbs: '4' });
    expect(p.actions[0]!.refs.forkParent).toEqual({ id: 'parent0000' });
  });

  it('replica set create sends integers', () => {
    const p = plan(desiredState({ services: [desiredService('db', { replicaSets: [desiredReplicaSet('r', { cpuMillis: 2000, memoryGbs: 8, nodes: 3, pooler: true, environment: 'PROD' })] })] }), liveState({ services: [liveService('db')] }), LOCK);
    expect(ops(p)).toEqual(['replica_set.db.r createReplicaSet', 'replica_set.db.r setReplicaEnvironment', 'replica_set.db.r enableReplicaPooler']);
    expect(p.actions[0]!.request).toEqual({ cpu_millis: 2000, memory_gbs: 8, name: 'r', nodes: 3 });
  });
});

describe('project', () => {
  it('a lockfile or live state of another project is an error', () => {
    const p = plan(desiredState(), { projectId: 'other', vpcs: [], services: [] }, { version: 1, projectId: 'x', resources: {} });
    expect(errors(p)).toHaveLength(2);
  });
});
