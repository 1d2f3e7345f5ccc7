// One row per line of SPEC section 3's in-place/replace table, for every kind.
import { describe, expect, it } from 'vitest';
import type { DesiredPeering, DesiredReplicaSet, DesiredService, LiveService } from '../../../src/model/index.js';
import {
  action,
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
} from './builders.js';

const LOCK = lockfile({
  'vpc.main': 'vpc-main',
  'peering.main.pv': 'pcx-pv',
  'service.db': { id: 'svc-db', passwordVersion: 1 },
  'replica_set.db.r': 'rs-r',
});

interface ServiceRow {
  name: string;
  desired: Partial<DesiredService>;
  live: Partial<LiveService>;
  ops: string[];
  request?: Record<string, unknown>;
}

const serviceInPlace: ServiceRow[] = [
  { name: 'size -> resizeService', desired: { size: { cpuMillis: 2000, memoryGbs: 8 } }, live: { size: { cpuMillis: 1000, memoryGbs: 4 } }, ops: ['resizeService'], request: { cpu_millis: '2000', memory_gbs: '8' } },
  { name: 'shared -> dedicated resizes', desired: { size: { cpuMillis: 500, memoryGbs: 2 } }, live: {}, ops: ['resizeService'], request: { cpu_millis: '500', memory_gbs: '2' } },
  { name: 'ha -> setHAReplica', desired: { ha: { replicas: 2, syncReplicas: 1 } }, live: {}, ops: ['setHAReplica'], request: { replica_count: 2, sync_replica_count: 1 } },
  { name: 'pooler on -> enablePooler', desired: { pooler: true }, live: {}, ops: ['enablePooler'] },
  { name: 'pooler off -> disablePooler', desired: { pooler: false }, live: { pooler: true }, ops: ['disablePooler'] },
  { name: 'environment -> setEnvironment', desired: { environment: 'PROD' }, live: {}, ops: ['setEnvironment'], request: { environment: 'PROD' } },
  { name: 'vpc id -> attachServiceToVPC', desired: { vpc: { id: '5555555555' } }, live: {}, ops: ['attachServiceToVPC'], request: { vpc_id: '5555555555' } },
  { name: 'vpc null -> detachServiceFromVPC', desired: { vpc: null }, live: { vpcId: '5555555555' }, ops: ['detachServiceFromVPC'], request: { vpc_id: '5555555555' } },
  { name: 'vpc moves -> detach then attach', desired: { vpc: { id: '6666666666' } }, live: { vpcId: '5555555555' }, ops: ['detachServiceFromVPC', 'attachServiceToVPC'] },
  { name: 'paused true -> stopService', desired: { paused: true }, live: {}, ops: ['stopService'] },
  { name: 'paused false -> startService', desired: { paused: false }, live: { status: 'PAUSED' }, ops: ['startService'] },
  { name: 'password.version -> updatePassword', desired: { password: { fromEnv: 'DB_PW', version: 2 } }, live: {}, ops: ['updatePassword'] },
  { name: 'fork is create-time only', desired: { fork: { from: { serviceId: 'parentid00' }, strategy: 'NOW' } }, live: {}, ops: [] },
];

describe('service: in-place changes', () => {
  it.each(serviceInPlace)('$name', (row) => {
    // VPCs dbform does not manage, by ID: the plan checks that they exist.
    const vpcs = ['5555555555', '6666666666'].map((id) => liveVpc(`unmanaged-${id}`, { id }));
    const p = plan(desiredState({ services: [desiredService('db', row.desired)] }), liveState({ vpcs, services: [liveService('db', row.live)] }), LOCK);
    expect(errors(p)).toEqual([]);
    expect(ops(p)).toEqual(row.ops.map((op) => `service.db ${op}`));
    if (row.request) expect(p.actions.at(-1)!.request).toEqual(row.request);
    for (const a of p.actions) expect(a.refs.target).toEqual({ address: 'service.db', id: 'svc-db' });
  });
});

const serviceReplace: ServiceRow[] = [
  { name: 'name', desired: { name: 'other' }, live: {}, ops: [] },
  { name: 'region_code', desired: { regionCode: 'eu-west-1' }, live: {}, ops: [] },
  { name: 'addons (type)', desired: { addons: ['time-series'] }, live: { serviceType: 'POSTGRES' }, ops: [] },
  { name: 'dedicated -> shared', desired: { size: { cpuMillis: 'shared', memoryGbs: 'shared' } }, live: { size: { cpuMillis: 1000, memoryGbs: 4 } }, ops: [] },
];

describe('service: changes that force a replace', () => {
  it.each(serviceReplace)('$name: refused without --replace, with a message saying how', (row) => {
    const p = plan(desiredState({ services: [desiredService('db', row.desired)] }), liveState({ services: [liveService('db', row.live)] }), LOCK);
    expect(errors(p)).toHaveLength(1);
    expect(errors(p)[0]).toContain('--replace service.db');
    expect(errors(p)[0]).toContain('losing its data');
    expect(ops(p)).toEqual([]);
  });

  it.each(serviceReplace)('$name: with --replace, delete then create, blocked as data-loss', (row) => {
    const p = plan(desiredState({ services: [desiredService('db', row.desired)] }), liveState({ services: [liveService('db', row.live)] }), LOCK, {
      replace: ['service.db'],
    });
    expect(errors(p)).toEqual([]);
    expect(ops(p).slice(0, 2)).toEqual(['service.db deleteService', 'service.db createService']);
    const del = action(p, 'service.db', 'deleteService');
    expect(del.reason).toBe('immutable-field');
    expect(del.risk).toBe('data-loss');
    expect(del.blocked).toMatch(/^data-loss: .*--allow-data-loss/);
    expect(del.changes.every((c) => c.forcesReplace)).toBe(true);
    expect(p.summary.replace).toBe(1);
  });

  it('--replace with --allow-data-loss is not blocked', () => {
    const p = plan(desiredState({ services: [desiredService('db', { name: 'other' })] }), liveState({ services: [liveService('db')] }), LOCK, {
      replace: ['service.db'],
      allowDataLoss: true,
    });
    expect(p.actions.every((a) => a.blocked === undefined)).toBe(true);
  });
});

describe('vpc', () => {
  const run = (d: Parameters<typeof desiredVpc>[1], l: Parameters<typeof liveVpc>[1] = {}) =>
    plan(desiredState({ vpcs: [desiredVpc('main', d)] }), liveState({ vpcs: [liveVpc('main', l)] }), LOCK);

  it('name -> renameVPC', () => {
    const p = run({ name: 'prod' });
    expect(ops(p)).toEqual(['vpc.main renameVPC']);
    expect(p.actions[0]!.request).toEqual({ name: 'prod' });
    expect(p.actions[0]!.changes).toEqual([{ path: 'name', before: 'main', after: 'prod', forcesReplace: false, sensitive: false }]);
  });

  it.each([
    ['cidr', { cidr: '10.1.0.0/16' }],
    ['region_code', { regionCode: 'eu-west-1' }],
  ] as const)('%s -> replace (delete + create)', (path, d) => {
    const p = run(d);
    expect(ops(p)).toEqual(['vpc.main deleteVPC', 'vpc.main createVPC']);
    expect(p.actions[0]!.changes.map((c) => [c.path, c.forcesReplace])).toEqual([[path, true]]);
    expect(p.actions[1]!.dependsOn).toEqual([p.actions[0]!.id]);
    expect(errors(p)).toEqual([]);
  });
});

describe('peering: any change replaces', () => {
  it.each<[string, Partial<DesiredPeering>]>([
    ['peer_account_id', { peerAccountId: '210987654321' }],
    ['peer_region_code', { peerRegionCode: 'eu-west-1' }],
  ])('%s', (path, d) => {
    const p = plan(
      desiredState({ vpcs: [desiredVpc('main', { peerings: [desiredPeering('main', 'pv', d)] })] }),
      liveState({ vpcs: [liveVpc('main', { peerings: [livePeering('vpc-main', 'pv')] })] }),
      LOCK,
    );
    expect(ops(p)).toEqual(['peering.main.pv deleteVPCPeering', 'peering.main.pv createVPCPeering']);
    expect(p.actions[0]!.changes[0]!.path).toBe(path);
    expect(p.actions[1]!.request).toEqual({ peer_account_id: d.peerAccountId ?? '123456789012', peer_region_code: d.peerRegionCode ?? 'us-east-1', peer_vpc_id: 'pv' });
    expect(p.actions[1]!.refs.vpc).toEqual({ address: 'vpc.main', id: 'vpc-main' });
  });

  it('an unchanged peering plans nothing', () => {
    const p = plan(
      desiredState({ vpcs: [desiredVpc('main', { peerings: [desiredPeering('main', 'pv')] })] }),
      liveState({ vpcs: [liveVpc('main', { peerings: [livePeering('vpc-main', 'pv')] })] }),
      LOCK,
    );
    expect(ops(p)).toEqual([]);
    expect(p.summary.unchanged).toBe(2);
  });
});

describe('replica set', () => {
  const run = (d: Parameters<typeof desiredReplicaSet>[1], l: Parameters<typeof liveReplicaSet>[1] = {}) =>
    plan(
      desiredState({ services: [desiredService('db', { replicaSets: [desiredReplicaSet('r', d)] })] }),
      liveState({ services: [liveService('db', { replicaSets: [liveReplicaSet('r', l)] })] }),
      LOCK,
    );

  it('size -> resizeReplicaSet with digit strings', () => {
    const p = run({ cpuMillis: 2000, memoryGbs: 8 });
    expect(ops(p)).toEqual(['replica_set.db.r resizeReplicaSet']);
    expect(p.actions[0]!.request).toEqual({ cpu_millis: '2000', memory_gbs: '8' });
    expect(p.actions[0]!.refs).toEqual({ target: { address: 'replica_set.db.r', id: 'rs-r' }, service: { address: 'service.db', id: 'svc-db' } });
  });

  it.each([
    ['pooler on', { pooler: true }, {}, 'enableReplicaPooler'],
    ['pooler off', { pooler: false }, { pooler: true }, 'disableReplicaPooler'],
    ['environment', { environment: 'PROD' as const }, {}, 'setReplicaEnvironment'],
  ] as const)('%s -> %s', (_n, d, l, op) => {
    expect(ops(run(d, l))).toEqual([`replica_set.db.r ${op}`]);
  });

  it.each<[string, Partial<DesiredReplicaSet>]>([
    ['name', { name: 'renamed' }],
    ['nodes', { nodes: 3 }],
  ])('%s -> replace', (path, d) => {
    const p = run(d);
    expect(ops(p)).toEqual(['replica_set.db.r deleteReplicaSet', 'replica_set.db.r createReplicaSet']);
    expect(p.actions[0]!.changes.map((c) => c.path)).toEqual([path]);
    expect(p.actions[1]!.request).toEqual({ cpu_millis: 1000, memory_gbs: 4, name: d.name ?? 'r', nodes: d.nodes ?? 1 });
    expect(errors(p)).toEqual([]);
  });
});

describe('failed live resources are replaced', () => {
  it('a replica set in error', () => {
    const p = plan(
      desiredState({ services: [desiredService('db', { replicaSets: [desiredReplicaSet('r')] })] }),
      liveState({ services: [liveService('db', { replicaSets: [liveReplicaSet('r', { status: 'error' })] })] }),
      LOCK,
    );
    expect(ops(p)).toEqual(['replica_set.db.r deleteReplicaSet', 'replica_set.db.r createReplicaSet']);
    expect(p.actions.map((a) => a.reason)).toEqual(['failed', 'failed']);
    expect(p.actions[0]!.changes).toEqual([{ path: 'status', before: 'error', after: 'active', forcesReplace: true, sensitive: false }]);
  });

  it('a failed peering', () => {
    const p = plan(
      desiredState({ vpcs: [desiredVpc('main', { peerings: [desiredPeering('main', 'pv')] })] }),
      liveState({ vpcs: [liveVpc('main', { peerings: [livePeering('vpc-main', 'pv', { status: 'failed', errorMessage: 'bad account' })] })] }),
      LOCK,
    );
    expect(ops(p)).toEqual(['peering.main.pv deleteVPCPeering', 'peering.main.pv createVPCPeering']);
    expect(p.actions[0]!.reason).toBe('failed');
  });

  it.each(['INVALID', 'TIMEOUT', 'DISABLED', 'FAILED', 'ERROR', 'Failed', 'error'])('a peering of the real service in %s is failed too', (status) => {
    const p = plan(
      desiredState({ vpcs: [desiredVpc('main', { peerings: [desiredPeering('main', 'pv')] })] }),
      liveState({ vpcs: [liveVpc('main', { peerings: [livePeering('vpc-main', 'pv', { status })] })] }),
      LOCK,
    );
    expect(ops(p)).toEqual(['peering.main.pv deleteVPCPeering', 'peering.main.pv createVPCPeering']);
    expect(p.actions[0]!.reason).toBe('failed');
  });

  it.each(['PENDING', 'APPROVED', 'ACTIVE', 'active'])('a peering of the real service in %s is left alone', (status) => {
    const p = plan(
      desiredState({ vpcs: [desiredVpc('main', { peerings: [desiredPeering('main', 'pv')] })] }),
      liveState({ vpcs: [liveVpc('main', { peerings: [livePeering('vpc-main', 'pv', { status })] })] }),
      LOCK,
    );
    expect(ops(p)).toEqual([]);
  });

  it('a pending peering is left alone', () => {
    const p = plan(
      desiredState({ vpcs: [desiredVpc('main', { peerings: [desiredPeering('main', 'pv')] })] }),
      liveState({ vpcs: [liveVpc('main', { peerings: [livePeering('vpc-main', 'pv', { status: 'pending' })] })] }),
      LOCK,
    );
    expect(ops(p)).toEqual([]);
  });
});
