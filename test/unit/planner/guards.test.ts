// protect (config and lockfile), --replace, --target, risk classes and blocking.
import { describe, expect, it } from 'vitest';
import { planHasChanges } from '../../../src/model/index.js';
import {
  action,
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

describe('protect', () => {
  it('config protect blocks a replace even with --allow-data-loss', () => {
    const p = plan(desiredState({ services: [desiredService('db', { protect: true })] }), liveState({ services: [liveService('db')] }), lockfile({ 'service.db': { id: 'svc-db', protect: true } }), {
      replace: ['service.db'],
      allowDataLoss: true,
    });
    const del = action(p, 'service.db', 'deleteService');
    expect(del.blocked).toMatch(/^protected: service.db has protect: true/);
    expect(action(p, 'service.db', 'createService').blocked).toBeUndefined();
  });

  it('lockfile protect holds after the block is deleted from the config', () => {
    const p = plan(desiredState(), liveState({ services: [liveService('db')] }), lockfile({ 'service.db': { id: 'svc-db', protect: true } }), { allowDataLoss: true });
    expect(action(p, 'service.db', 'deleteService').blocked).toContain('the state still records protect: true');
  });

  it('lockfile protect holds while the block leaves protect unset', () => {
    const p = plan(
      desiredState({ vpcs: [desiredVpc('main', { cidr: '10.2.0.0/16' })] }),
      liveState({ vpcs: [liveVpc('main')] }),
      lockfile({ 'vpc.main': { id: 'vpc-main', protect: true } }),
    );
    expect(action(p, 'vpc.main', 'deleteVPC').blocked).toContain('protected');
    expect(action(p, 'vpc.main', 'createVPC').protect).toBe(true);
  });

  it('a protect flag change alone is a protect binding', () => {
    const p = plan(desiredState({ services: [desiredService('db', { protect: true })] }), liveState({ services: [liveService('db')] }), lockfile({ 'service.db': 'svc-db' }));
    expect(ops(p)).toEqual([]);
    expect(p.bindings).toEqual([{ kind: 'protect', address: 'service.db', id: 'svc-db', protect: true }]);
    expect(planHasChanges(p)).toBe(true);
    // Only the lockfile changes, but it is a change the reviewer approves: counted as an update.
    expect(p.summary).toMatchObject({ update: 1, unchanged: 0 });
  });

  it('an applied protect: false unprotects; after that a delete is only data-loss blocked', () => {
    const unprotect = plan(desiredState({ services: [desiredService('db', { protect: false })] }), liveState({ services: [liveService('db')] }), lockfile({ 'service.db': { id: 'svc-db', protect: true } }));
    expect(unprotect.bindings).toEqual([{ kind: 'protect', address: 'service.db', id: 'svc-db', protect: false }]);
    const del = plan(desiredState(), liveState({ services: [liveService('db')] }), lockfile({ 'service.db': { id: 'svc-db', protect: false } }));
    expect(action(del, 'service.db', 'deleteService').blocked).toMatch(/^data-loss/);
  });

  it('a created resource carries protect for the lockfile', () => {
    const p = plan(desiredState({ services: [desiredService('db', { protect: true, replicaSets: [desiredReplicaSet('r', { protect: true })] })] }), liveState());
    expect(action(p, 'service.db', 'createService').protect).toBe(true);
    expect(action(p, 'replica_set.db.r', 'createReplicaSet').protect).toBe(true);
  });

  it('protect does not block in-place changes', () => {
    const p = plan(desiredState({ services: [desiredService('db', { protect: true, paused: true })] }), liveState({ services: [liveService('db')] }), lockfile({ 'service.db': { id: 'svc-db', protect: true } }));
    expect(action(p, 'service.db', 'stopService').blocked).toBeUndefined();
  });
});

describe('--replace', () => {
  it('replaces a service without a changed field (reason replace-requested)', () => {
    const p = plan(desiredState({ services: [desiredService('db')] }), liveState({ services: [liveService('db')] }), lockfile({ 'service.db': 'svc-db' }), { replace: ['service.db'] });
    expect(ops(p)).toEqual(['service.db deleteService', 'service.db createService']);
    expect(p.actions.map((a) => a.reason)).toEqual(['replace-requested', 'replace-requested']);
  });

  it('replaces other kinds too', () => {
    const p = plan(desiredState({ vpcs: [desiredVpc('main')] }), liveState({ vpcs: [liveVpc('main')] }), lockfile({ 'vpc.main': 'vpc-main' }), { replace: ['vpc.main'] });
    expect(ops(p)).toEqual(['vpc.main deleteVPC', 'vpc.main createVPC']);
  });

  it('an address not in the config is an error; a resource not yet live is a warning', () => {
    const p = plan(desiredState({ services: [desiredService('new')] }), liveState(), lockfile(), { replace: ['service.nope', 'service.new', 'nonsense'] });
    expect(errors(p)).toEqual([
      '--replace "nonsense": not an address (vpc.<key>, peering.<vpc>.<peer_vpc_id>, service.<key> or replica_set.<service>.<key>)',
      '--replace service.nope: no such resource in the config',
    ]);
    expect(warnings(p)).toEqual(['--replace service.new: it does not exist yet, so it is simply created']);
  });
});

describe('--target', () => {
  const desired = desiredState({
    vpcs: [desiredVpc('main')],
    services: [desiredService('a', { vpc: { key: 'main' }, size: { cpuMillis: 2000, memoryGbs: 8 }, replicaSets: [desiredReplicaSet('r')] }), desiredService('b', { environment: 'PROD' })],
  });
  const live = liveState({ services: [liveService('a'), liveService('b')] });
  const lock = lockfile({ 'service.a': 'svc-a', 'service.b': 'svc-b' });

  it('plans the named resources plus what they depend on', () => {
    const p = plan(desired, live, lock, { target: ['service.a'] });
    expect(ops(p)).toEqual(['vpc.main createVPC', 'service.a resizeService', 'service.a attachServiceToVPC']);
    expect(warnings(p)[0]).toContain('--target is in effect');
    expect(p.summary).toMatchObject({ create: 1, update: 1 });
    expect(Object.keys(p.fingerprints).sort()).toEqual(['service.a', 'vpc.main']);
  });

  it('a replica set target pulls in the service changes it waits for, not the others', () => {
    const p = plan(desired, live, lock, { target: ['replica_set.a.r'] });
    expect(ops(p)).toEqual(['service.a resizeService', 'replica_set.a.r createReplicaSet']);
  });

  it('an unknown target is an error', () => {
    expect(errors(plan(desired, live, lock, { target: ['service.zzz'] }))).toEqual(['--target service.zzz: no such resource in the config or the state']);
  });
});

describe('risk classes and blocking', () => {
  it.each([
    ['deleteService', 'data-loss'],
    ['deleteReplicaSet', 'availability'],
    ['deleteVPCPeering', 'connectivity'],
    ['deleteVPC', 'connectivity'],
  ])('%s is %s', (op, risk) => {
    const p = plan(
      desiredState(),
      liveState({ vpcs: [liveVpc('v', { peerings: [livePeering('vpc-v', 'pv')] })], services: [liveService('db', { replicaSets: [liveReplicaSet('r')] })] }),
      lockfile({ 'vpc.v': 'vpc-v', 'peering.v.pv': 'pcx-pv', 'service.db': 'svc-db', 'replica_set.db.r': 'rs-r' }),
    );
    expect(p.actions.find((a) => a.op === op)!.risk).toBe(risk);
  });

  it.each([
    ['detach', { vpc: null }, { vpcId: '5555555555' }, 'detachServiceFromVPC', 'connectivity'],
    ['disable pooler', { pooler: false }, { pooler: true }, 'disablePooler', 'connectivity'],
    ['stop', { paused: true }, {}, 'stopService', 'availability'],
    ['HA reduction', { ha: { replicas: 1, syncReplicas: 0 } }, { ha: { replicas: 2, syncReplicas: 0 } }, 'setHAReplica', 'availability'],
    ['HA increase', { ha: { replicas: 2, syncReplicas: 0 } }, {}, 'setHAReplica', 'none'],
    ['resize', { size: { cpuMillis: 500, memoryGbs: 2 } }, {}, 'resizeService', 'none'],
  ] as const)('%s', (_n, d, l, op, risk) => {
    const p = plan(desiredState({ services: [desiredService('db', d)] }), liveState({ services: [liveService('db', l)] }), lockfile({ 'service.db': 'svc-db' }));
    expect(action(p, 'service.db', op).risk).toBe(risk);
    expect(action(p, 'service.db', op).blocked).toBeUndefined();
  });

  it('a data-loss action is blocked unless --allow-data-loss; other actions are not', () => {
    const live = liveState({ services: [liveService('db'), liveService('keep')] });
    const desired = desiredState({ services: [desiredService('keep', { environment: 'PROD' })] });
    const lock = lockfile({ 'service.db': 'svc-db', 'service.keep': 'svc-keep' });
    const blocked = plan(desired, live, lock);
    expect(action(blocked, 'service.db', 'deleteService').blocked).toBe('data-loss: deleteService destroys service.db and its data; re-run with --allow-data-loss to allow it');
    expect(action(blocked, 'service.keep', 'setEnvironment').blocked).toBeUndefined();
    expect(plan(desired, live, lock, { allowDataLoss: true }).actions.every((a) => !a.blocked)).toBe(true);
  });
});

describe('VPC deletion blocked by unmanaged resources', () => {
  it('an unmanaged attached service or peering is an error', () => {
    const p = plan(
      desiredState(),
      liveState({ vpcs: [liveVpc('old', { peerings: [livePeering('vpc-old', 'pv')] })], services: [liveService('stranger', { vpcId: 'vpc-old' })] }),
      lockfile({ 'vpc.old': 'vpc-old' }),
    );
    expect(errors(p)).toHaveLength(2);
    expect(errors(p).join('\n')).toContain('service "stranger" (svc-stranger), which dbform does not manage, is attached');
    expect(errors(p).join('\n')).toContain('peering to pv (pcx-pv) that dbform does not manage');
  });
});

describe('references the live state can check', () => {
  const fork = (from: { key: string } | { serviceId: string }) => ({ from, strategy: 'NOW' as const });

  it('vpc: { id } of a VPC the project does not have is an error, not a 404 at apply', () => {
    const p = plan(desiredState({ services: [desiredService('db', { vpc: { id: '999' } })] }), liveState({ vpcs: [liveVpc('main')], services: [liveService('db')] }), lockfile({ 'service.db': 'svc-db' }));
    expect(errors(p)).toEqual(['vpc: { id: "999" }: project proj-demo has no VPC with that ID']);
    expect(p.actions).toEqual([]);
  });

  it('vpc: { id } of a live VPC in another region is an error', () => {
    const p = plan(
      desiredState({ services: [desiredService('db', { vpc: { id: 'vpc-west' } })] }),
      liveState({ vpcs: [liveVpc('west', { regionCode: 'eu-west-1' })], services: [liveService('db')] }),
      lockfile({ 'service.db': 'svc-db' }),
    );
    expect(errors(p)).toEqual(['cannot attach to VPC vpc-west ("west"): the service is in us-east-1 and the VPC in eu-west-1']);
  });

  it('fork.from { service_id } of a service the project does not have is an error', () => {
    const p = plan(desiredState({ services: [desiredService('preview', { fork: fork({ serviceId: 'nosuchsvc1' }) })] }), liveState(), lockfile());
    expect(errors(p)).toEqual(['fork.from: { service_id: "nosuchsvc1" }: project proj-demo has no such service (or it is being deleted)']);
  });

  it('a fork whose addons differ from its live parent is an error (it would be replaced on the next plan)', () => {
    const p = plan(
      desiredState({ services: [desiredService('db'), desiredService('preview', { addons: ['time-series'], fork: fork({ key: 'db' }) })] }),
      liveState({ services: [liveService('db')] }),
      lockfile({ 'service.db': 'svc-db' }),
    );
    expect(errors(p)).toEqual([
      'its addons ask for service type TIMESERIESDB, but a fork has its parent\'s type and service.db is POSTGRES; remove the setting from the fork or make it match',
    ]);
  });

  it('a fork of a parent created in the same plan without addons must not ask for time-series', () => {
    const p = plan(desiredState({ services: [desiredService('db'), desiredService('preview', { addons: ['time-series'], fork: fork({ key: 'db' }) })] }), liveState(), lockfile());
    expect(errors(p)).toEqual([
      'its addons ask for service type TIMESERIESDB, but a fork has its parent\'s type and service.db is POSTGRES; remove the setting from the fork or make it match',
    ]);
  });

  it('a fork of a live service by ID in another region is an error; matching addons and region are fine', () => {
    const live = liveState({ services: [liveService('ts', { id: 'tstststs01', serviceType: 'TIMESERIESDB', regionCode: 'eu-west-1' })] });
    const bad = plan(desiredState({ services: [desiredService('preview', { regionCode: 'us-east-1', fork: fork({ serviceId: 'tstststs01' }) })] }), live, lockfile());
    expect(errors(bad)).toEqual(['its region_code is us-east-1, but a fork lives in its parent\'s region and service tstststs01 is in eu-west-1; remove the setting from the fork or make it match']);
    const good = plan(desiredState({ services: [desiredService('preview', { addons: ['time-series'], regionCode: 'eu-west-1', fork: fork({ serviceId: 'tstststs01' }) })] }), live, lockfile());
    expect(errors(good)).toEqual([]);
    expect(ops(good)).toEqual(['service.preview forkService']);
  });
});
