// SPEC section 2: lockfile ID, adoption by unique name, ambiguity, drift, removal, moves, unmanaged.
import { describe, expect, it } from 'vitest';
import { planHasChanges } from '../../../src/model/index.js';
import {
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

describe('matching by lockfile ID', () => {
  it('binds by ID even when a same-named resource exists', () => {
    const p = plan(
      desiredState({ services: [desiredService('db')] }),
      liveState({ services: [liveService('db', { id: 'one' }), liveService('db', { id: 'two' })] }),
      lockfile({ 'service.db': 'two' }),
    );
    expect(errors(p)).toEqual([]);
    expect(ops(p)).toEqual([]);
    expect(p.bindings).toEqual([]);
    expect(p.summary).toMatchObject({ unchanged: 1, unmanaged: 1 });
  });

  it('a VPC bound by ID whose name changed is renamed, not adopted or created', () => {
    const p = plan(desiredState({ vpcs: [desiredVpc('main', { name: 'new' })] }), liveState({ vpcs: [liveVpc('old', { id: 'v1' })] }), lockfile({ 'vpc.main': 'v1' }));
    expect(ops(p)).toEqual(['vpc.main renameVPC']);
  });
});

describe('adoption by unique name', () => {
  it('binds a unique live resource with the desired name: adopt, no API call', () => {
    const p = plan(desiredState({ services: [desiredService('db')] }), liveState({ services: [liveService('db')] }));
    expect(ops(p)).toEqual([]);
    expect(p.bindings).toEqual([{ kind: 'adopt', address: 'service.db', id: 'svc-db' }]);
    expect(p.summary).toMatchObject({ adopt: 1, unchanged: 0, create: 0 });
    expect(planHasChanges(p)).toBe(true);
  });

  it('an adopted resource that differs is adopted and updated', () => {
    const p = plan(desiredState({ services: [desiredService('db', { environment: 'PROD' })] }), liveState({ services: [liveService('db')] }));
    expect(ops(p)).toEqual(['service.db setEnvironment']);
    expect(p.summary).toMatchObject({ adopt: 1, update: 1 });
  });

  it('adopting a protected resource records protect in the binding', () => {
    const p = plan(desiredState({ services: [desiredService('db', { protect: true })] }), liveState({ services: [liveService('db')] }));
    expect(p.bindings).toEqual([{ kind: 'adopt', address: 'service.db', id: 'svc-db', protect: true }]);
  });

  it('two live resources with the name is an error telling to run dbform import', () => {
    const p = plan(
      desiredState({ services: [desiredService('db', { size: { cpuMillis: 1000, memoryGbs: 4 }, replicaSets: [desiredReplicaSet('r')] })] }),
      liveState({ services: [liveService('db', { id: 'bbbbbbbbbb' }), liveService('db', { id: 'aaaaaaaaaa' })] }),
    );
    expect(errors(p)).toEqual([
      '2 live services have the name "db" (aaaaaaaaaa, bbbbbbbbbb); choose one with `dbform import service.db <ID>`',
    ]);
    expect(p.diagnostics[0]!.address).toBe('service.db');
    expect(ops(p)).toEqual([]);
  });

  it('peerings are identified by peer_vpc_id within their VPC', () => {
    const p = plan(
      desiredState({ vpcs: [desiredVpc('a', { peerings: [desiredPeering('a', 'pv')] }), desiredVpc('b')] }),
      liveState({ vpcs: [liveVpc('a'), liveVpc('b', { peerings: [livePeering('vpc-b', 'pv')] })] }),
      lockfile({ 'vpc.a': 'vpc-a', 'vpc.b': 'vpc-b' }),
    );
    expect(ops(p)).toEqual(['peering.a.pv createVPCPeering']);
    expect(p.summary.unmanaged).toBe(1);
  });

  it('replica sets are identified by name within their service', () => {
    const p = plan(
      desiredState({ services: [desiredService('a', { replicaSets: [desiredReplicaSet('r')] }), desiredService('b')] }),
      liveState({ services: [liveService('a'), liveService('b', { replicaSets: [liveReplicaSet('r')] })] }),
      lockfile({ 'service.a': 'svc-a', 'service.b': 'svc-b' }),
    );
    expect(ops(p)).toEqual(['replica_set.a.r createReplicaSet']);
    expect(p.summary.unmanaged).toBe(1);
  });

  it('adopts a peering by its peer_vpc_id', () => {
    const p = plan(
      desiredState({ vpcs: [desiredVpc('a', { peerings: [desiredPeering('a', 'pv')] })] }),
      liveState({ vpcs: [liveVpc('a', { peerings: [livePeering('vpc-a', 'pv')] })] }),
    );
    expect(p.bindings.map((b) => `${b.kind} ${b.address} ${b.id}`)).toEqual(['adopt vpc.a vpc-a', 'adopt peering.a.pv pcx-pv']);
  });
});

describe('drift', () => {
  it('a lockfile ID whose resource is gone is planned as a create with reason drift', () => {
    const p = plan(desiredState({ services: [desiredService('db')] }), liveState(), lockfile({ 'service.db': 'gone000000' }));
    expect(ops(p)).toEqual(['service.db createService']);
    expect(p.actions[0]!.reason).toBe('drift');
    expect(p.summary.create).toBe(1);
  });

  it('a service that is DELETING counts as gone', () => {
    const p = plan(desiredState({ services: [desiredService('db')] }), liveState({ services: [liveService('db', { status: 'DELETING' })] }), lockfile({ 'service.db': 'svc-db' }));
    expect(ops(p)).toEqual(['service.db createService']);
    expect(p.actions[0]!.reason).toBe('drift');
    expect(p.summary.unmanaged).toBe(0);
  });

  it('children of a drifted service are created again after it', () => {
    const p = plan(
      desiredState({ services: [desiredService('db', { replicaSets: [desiredReplicaSet('r')] })] }),
      liveState(),
      lockfile({ 'service.db': 'gone000000', 'replica_set.db.r': 'gonegone00' }),
    );
    expect(ops(p)).toEqual(['service.db createService', 'replica_set.db.r createReplicaSet']);
    expect(p.actions.map((a) => a.reason)).toEqual(['drift', 'drift']);
    expect(p.actions[1]!.refs.service).toEqual({ address: 'service.db' });
  });
});

describe("a parent's children, few (searched in order) or many (indexed by ID)", () => {
  // Matching searches up to 8 live children of one parent in order and indexes more: both ways
  // must bind by lockfile ID, skip one on its way out, and adopt a new one by name alike.
  for (const count of [3, 12]) {
    it(`${count} replica sets: bound ones are unchanged, a deleting one is created again (drift), an unbound one is adopted by name`, () => {
      const keys = Array.from({ length: count }, (_, i) => `r${i}`);
      const p = plan(
        desiredState({ services: [desiredService('db', { replicaSets: keys.map((k) => desiredReplicaSet(k)) })] }),
        liveState({
          services: [liveService('db', { replicaSets: keys.map((k) => liveReplicaSet(k, { serviceId: 'svc-db', ...(k === 'r1' ? { status: 'deleting' } : {}) })) })],
        }),
        lockfile(Object.fromEntries([['service.db', 'svc-db'], ...keys.filter((k) => k !== 'r2').map((k) => [`replica_set.db.${k}`, `rs-${k}`])])),
      );
      expect(errors(p)).toEqual([]);
      expect(ops(p)).toEqual(['replica_set.db.r1 createReplicaSet']);
      expect(p.actions[0]!.reason).toBe('drift');
      expect(p.bindings).toEqual([{ kind: 'adopt', address: 'replica_set.db.r2', id: 'rs-r2' }]);
      expect(p.summary).toMatchObject({ create: 1, adopt: 1, unchanged: count - 1 });
    });
  }
});

describe('removed from the config', () => {
  it('a live resource in the lockfile but not the config is deleted (reason removed)', () => {
    const p = plan(desiredState(), liveState({ vpcs: [liveVpc('old')] }), lockfile({ 'vpc.old': 'vpc-old' }));
    expect(ops(p)).toEqual(['vpc.old deleteVPC']);
    expect(p.actions[0]!.reason).toBe('removed');
    expect(p.summary.delete).toBe(1);
  });

  it('one already gone is forgotten: a lockfile-only binding', () => {
    const p = plan(desiredState(), liveState(), lockfile({ 'service.old': 'gone000000' }));
    expect(ops(p)).toEqual([]);
    expect(p.bindings).toEqual([{ kind: 'forget', address: 'service.old', id: 'gone000000' }]);
    expect(planHasChanges(p)).toBe(true);
  });
});

describe('unmanaged', () => {
  it('counts live resources neither configured nor in the lockfile, and never touches them', () => {
    const p = plan(
      desiredState({ services: [desiredService('db')] }),
      liveState({
        vpcs: [liveVpc('x', { peerings: [livePeering('vpc-x', 'p1')] })],
        services: [liveService('db'), liveService('other', { replicaSets: [liveReplicaSet('r1'), liveReplicaSet('r2')] })],
      }),
      lockfile({ 'service.db': 'svc-db' }),
    );
    expect(ops(p)).toEqual([]);
    expect(p.summary.unmanaged).toBe(5);
  });
});

describe('moves', () => {
  it('a renamed key whose old lockfile entry holds the ID it would adopt becomes a move', () => {
    const p = plan(
      desiredState({ services: [desiredService('new', { name: 'db', replicaSets: [desiredReplicaSet('r')] })] }),
      liveState({ services: [liveService('db', { replicaSets: [liveReplicaSet('r')] })] }),
      lockfile({ 'service.old': 'svc-db', 'replica_set.old.r': 'rs-r' }),
    );
    expect(errors(p)).toEqual([]);
    expect(ops(p)).toEqual([]);
    expect(p.bindings).toEqual([
      { kind: 'move', address: 'service.new', from: 'service.old', id: 'svc-db' },
      { kind: 'move', address: 'replica_set.new.r', from: 'replica_set.old.r', id: 'rs-r' },
    ]);
    expect(p.summary).toMatchObject({ move: 2, delete: 0 });
  });

  it('a renamed key follows its removed address\'s ID past an unmanaged look-alike of the same name', () => {
    const p = plan(
      desiredState({ services: [desiredService('new', { name: 'db' })] }),
      liveState({ services: [liveService('db', { id: 'look-alike' }), liveService('db', { id: 'ours' })] }),
      lockfile({ 'service.old': 'ours' }),
    );
    expect(errors(p)).toEqual([]);
    expect(ops(p)).toEqual([]);
    expect(p.bindings).toEqual([{ kind: 'move', address: 'service.new', from: 'service.old', id: 'ours' }]);
    expect(p.summary).toMatchObject({ move: 1, delete: 0, unmanaged: 1 });
  });

  it('two removed addresses holding IDs of the same name stay ambiguous', () => {
    const p = plan(
      desiredState({ services: [desiredService('new', { name: 'db' })] }),
      liveState({ services: [liveService('db', { id: 'one' }), liveService('db', { id: 'two' })] }),
      lockfile({ 'service.a': 'one', 'service.b': 'two' }),
    );
    expect(errors(p).join('\n')).toMatch(/2 live services have the name "db" \(one, two\)/);
    expect(p.bindings.filter((b) => b.kind === 'move')).toEqual([]);
  });

  it('an explicit moved entry moves the lockfile entry when the name changes too', () => {
    const p = plan(
      desiredState({ vpcs: [desiredVpc('new', { name: 'renamed' })], moved: [{ from: 'vpc.old', to: 'vpc.new' }] }),
      liveState({ vpcs: [liveVpc('old', { id: 'v1' })] }),
      lockfile({ 'vpc.old': { id: 'v1', protect: true } }),
    );
    expect(errors(p)).toEqual([]);
    expect(ops(p)).toEqual(['vpc.new renameVPC']);
    expect(p.bindings).toEqual([{ kind: 'move', address: 'vpc.new', from: 'vpc.old', id: 'v1' }]);
  });

  it('a moved entry already applied (to in the lockfile, from not) is a no-op', () => {
    const p = plan(
      desiredState({ vpcs: [desiredVpc('new')], moved: [{ from: 'vpc.old', to: 'vpc.new' }] }),
      liveState({ vpcs: [liveVpc('new', { id: 'v1' })] }),
      lockfile({ 'vpc.new': 'v1' }),
    );
    expect(p.diagnostics).toEqual([]);
    expect(planHasChanges(p)).toBe(false);
  });

  it('a moved entry whose from this lockfile never held is a no-op (a fresh environment keeps the record)', () => {
    const p = plan(
      desiredState({ vpcs: [desiredVpc('new')], moved: [{ from: 'vpc.nowhere', to: 'vpc.new' }] }),
      liveState(),
      lockfile({}),
    );
    expect(p.diagnostics).toEqual([]);
    expect(p.actions.map((a) => `${a.op} ${a.address}`)).toEqual(['createVPC vpc.new']);
    expect(p.bindings).toEqual([]);
  });

  it.each([
    ['both bound', { from: 'vpc.old', to: 'vpc.new' }, { 'vpc.old': 'v1', 'vpc.new': 'v2' }, 'already binds both'],
    ['to not configured', { from: 'vpc.old', to: 'vpc.other' }, { 'vpc.old': 'v1' }, 'vpc.other is not in the config'],
    ['kind mismatch', { from: 'service.old', to: 'vpc.new' }, { 'service.old': 's1' }, 'a service cannot move to a vpc'],
  ])('%s is an error', (_n, moved, lock, message) => {
    const p = plan(desiredState({ vpcs: [desiredVpc('new')], moved: [moved] }), liveState(), lockfile(lock));
    expect(errors(p).join('\n')).toContain(message);
  });

  it('a replica set cannot move to another service: an error, and the live one is neither lost nor re-created', () => {
    const p = plan(
      desiredState({
        services: [desiredService('a'), desiredService('b', { replicaSets: [desiredReplicaSet('r')] })],
        moved: [{ from: 'replica_set.a.r', to: 'replica_set.b.r' }],
      }),
      liveState({ services: [liveService('a', { replicaSets: [liveReplicaSet('r')] }), liveService('b')] }),
      lockfile({ 'service.a': 'svc-a', 'service.b': 'svc-b', 'replica_set.a.r': 'rs-r' }),
    );
    expect(errors(p)).toEqual([
      'moved from replica_set.a.r, it would take replica set rs-r, which belongs to service svc-a, not to this address\'s service: a replica set cannot change service. ' +
        'Drop the `moved` entry (or the state edit) to delete the old replica set and create a new one',
    ]);
    expect(ops(p)).toEqual([]);
  });

  it('a lockfile entry that binds a peering of another VPC is an error, not drift', () => {
    const p = plan(
      desiredState({ vpcs: [desiredVpc('one'), desiredVpc('two', { cidr: '10.1.0.0/16', peerings: [desiredPeering('two', 'vpc-x')] })] }),
      liveState({ vpcs: [liveVpc('one', { peerings: [livePeering('vpc-one', 'vpc-x')] }), liveVpc('two', { cidr: '10.1.0.0/16' })] }),
      lockfile({ 'vpc.one': 'vpc-one', 'vpc.two': 'vpc-two', 'peering.two.vpc-x': 'pcx-vpc-x' }),
    );
    expect(errors(p)).toEqual([
      'the state binds it to peering pcx-vpc-x, which belongs to VPC vpc-one, not to this address\'s VPC: a peering cannot change VPC. ' +
        'Drop the `moved` entry (or the state edit) to delete the old peering and create a new one',
    ]);
    expect(p.actions.filter((a) => a.op === 'createVPCPeering')).toEqual([]);
  });

  it('replica sets follow their service when the service moves too', () => {
    const p = plan(
      desiredState({ services: [desiredService('b', { name: 'a', replicaSets: [desiredReplicaSet('r')] })], moved: [{ from: 'replica_set.a.r', to: 'replica_set.b.r' }] }),
      liveState({ services: [liveService('a', { replicaSets: [liveReplicaSet('r')] })] }),
      lockfile({ 'service.a': 'svc-a', 'replica_set.a.r': 'rs-r' }),
    );
    expect(errors(p)).toEqual([]);
    expect(ops(p)).toEqual([]);
    expect(p.summary).toMatchObject({ move: 2 });
  });
});

describe('rename hints', () => {
  it('a key renamed without keeping the name: delete plus create, with a warning that says how to move it', () => {
    const p = plan(desiredState({ services: [desiredService('metrics-v2')] }), liveState({ services: [liveService('metrics')] }), lockfile({ 'service.metrics': 'svc-metrics' }));
    expect(ops(p)).toEqual(['service.metrics deleteService', 'service.metrics-v2 createService']);
    expect(p.diagnostics.filter((d) => d.code === 'rename-hint').map((d) => `${d.address}: ${d.message}`)).toEqual([
      'service.metrics: deleted while service.metrics-v2 is created: if you renamed its key, keep the live name with name: "metrics" under the new key, or add a moved: entry from service.metrics, so the plan only moves its binding in the state',
    ]);
  });

  it('no hint when nothing of the kind is created', () => {
    const p = plan(desiredState({ vpcs: [desiredVpc('other')] }), liveState({ vpcs: [liveVpc('other')], services: [liveService('metrics')] }), lockfile({ 'service.metrics': 'svc-metrics', 'vpc.other': 'vpc-other' }));
    expect(p.diagnostics.filter((d) => d.code === 'rename-hint')).toEqual([]);
  });
});

describe('one ID bound to two addresses', () => {
  it('is an error naming both addresses and the ID, and nothing is planned', () => {
    const p = plan(
      desiredState({ services: [desiredService('a', { environment: 'PROD' })] }),
      liveState({ services: [liveService('db', { id: 'dupdupdup1' })] }),
      lockfile({ 'service.a': 'dupdupdup1', 'service.b': 'dupdupdup1' }),
    );
    expect(errors(p)).toEqual([
      'the state binds service ID dupdupdup1 to both service.a and service.b; one resource can have one address only, so nothing is planned: ' +
        'remove the wrong binding with `dbform state rm ADDR` (bind an address to another resource with `dbform import ADDR ID`)',
    ]);
    // Not a rename hint, a delete of service.b or an update of service.a.
    expect(p.diagnostics).toHaveLength(1);
    expect(ops(p)).toEqual([]);
    expect(p.bindings).toEqual([]);
    expect(planHasChanges(p)).toBe(false);
  });

  it('replica sets and peerings too, one error per ID; the same ID under two kinds is no duplicate', () => {
    const p = plan(
      desiredState({
        vpcs: [desiredVpc('v', { peerings: [desiredPeering('v', 'p1')] })],
        services: [desiredService('s', { replicaSets: [desiredReplicaSet('r1')] })],
      }),
      liveState({
        vpcs: [liveVpc('v', { peerings: [livePeering('vpc-v', 'p1'), livePeering('vpc-v', 'p2')] })],
        services: [liveService('s', { replicaSets: [liveReplicaSet('r1'), liveReplicaSet('r2')] })],
      }),
      lockfile({
        'vpc.v': 'vpc-v',
        'peering.v.p1': 'pcx-p2',
        'peering.v.p2': 'pcx-p2',
        'service.s': 'svc-s',
        'replica_set.s.r1': 'rs-r1',
        'replica_set.s.r2': 'rs-r1',
        'replica_set.s.r3': 'rs-r1',
        'vpc.same': 'svc-s',
      }),
    );
    expect(errors(p).map((e) => e.slice(0, e.indexOf(';')))).toEqual([
      'the state binds peering ID pcx-p2 to both peering.v.p1 and peering.v.p2',
      'the state binds replica set ID rs-r1 to replica_set.s.r1, replica_set.s.r2 and replica_set.s.r3',
    ]);
    expect(ops(p)).toEqual([]);
    expect(p.bindings).toEqual([]);
  });
});

describe('a lockfile ID whose resource is gone, while one of the desired name is live', () => {
  it('adopts the one live resource of the name with a drift warning, never creating a second', () => {
    const p = plan(
      desiredState({ services: [desiredService('db', { replicaSets: [desiredReplicaSet('r')] })] }),
      liveState({ services: [liveService('db', { id: 'newnewnew1', replicaSets: [liveReplicaSet('r', { id: 'rsnew00001' })] })] }),
      lockfile({ 'service.db': { id: 'gonegone01', passwordVersion: 2 }, 'replica_set.db.r': 'gonegone02' }),
    );
    expect(errors(p)).toEqual([]);
    expect(ops(p)).toEqual([]);
    expect(p.bindings).toEqual([
      { kind: 'adopt', address: 'service.db', id: 'newnewnew1' },
      { kind: 'adopt', address: 'replica_set.db.r', id: 'rsnew00001' },
    ]);
    expect(p.diagnostics.map((d) => `${d.severity} ${d.address}: ${d.message}`)).toEqual([
      'warning service.db: drift: its ID in the state, gonegone01, no longer exists; the live service newnewnew1 has the name "db" and no address binds it, so it is adopted instead of creating another',
      'warning replica_set.db.r: drift: its ID in the state, gonegone02, no longer exists; the live replica set rsnew00001 has the name "r" and no address binds it, so it is adopted instead of creating another',
    ]);
    expect(p.summary).toMatchObject({ adopt: 2, create: 0 });
  });

  it('keeps the address protected, and plans the password of the new resource (its version was the gone one\'s)', () => {
    const p = plan(
      desiredState({ services: [desiredService('db', { password: { fromEnv: 'PW', version: 2 } })] }),
      liveState({ services: [liveService('db', { id: 'newnewnew1' })] }),
      lockfile({ 'service.db': { id: 'gonegone01', passwordVersion: 2, protect: true } }),
    );
    expect(p.bindings).toEqual([{ kind: 'adopt', address: 'service.db', id: 'newnewnew1', protect: true }]);
    expect(ops(p)).toEqual(['service.db updatePassword']);
  });

  it('VPCs and peerings too', () => {
    const p = plan(
      desiredState({ vpcs: [desiredVpc('main', { peerings: [desiredPeering('main', 'pv')] })] }),
      liveState({ vpcs: [liveVpc('main', { id: 'vpcnew0001', peerings: [livePeering('vpcnew0001', 'pv', { id: 'pcxnew0001' })] })] }),
      lockfile({ 'vpc.main': 'gonevpc001', 'peering.main.pv': 'gonepcx001' }),
    );
    expect(ops(p)).toEqual([]);
    expect(p.bindings.map((b) => `${b.kind} ${b.address} ${b.id}`)).toEqual(['adopt vpc.main vpcnew0001', 'adopt peering.main.pv pcxnew0001']);
    expect(p.diagnostics.map((d) => d.code)).toEqual(['stale-id', 'stale-id']);
  });

  it('two live resources of the name: the ambiguity error that says to run dbform import', () => {
    const p = plan(
      desiredState({ services: [desiredService('db')] }),
      liveState({ services: [liveService('db', { id: 'bbbbbbbbbb' }), liveService('db', { id: 'aaaaaaaaaa' })] }),
      lockfile({ 'service.db': 'gonegone01' }),
    );
    expect(errors(p)).toEqual([
      'its ID in the state, gonegone01, no longer exists, and 2 live services have the name "db" (aaaaaaaaaa, bbbbbbbbbb); choose one with `dbform import service.db <ID>`',
    ]);
    expect(ops(p)).toEqual([]);
    expect(p.bindings).toEqual([]);
  });

  it('never takes a resource another address of this state binds, nor one claimed elsewhere', () => {
    const bound = plan(
      desiredState({ services: [desiredService('db'), desiredService('other', { name: 'db' })] }),
      liveState({ services: [liveService('db', { id: 'takentaken' })] }),
      lockfile({ 'service.db': 'gonegone01', 'service.other': 'takentaken' }),
    );
    expect(bound.bindings).toEqual([]);
    expect(ops(bound)).toEqual(['service.db createService']);
    const elsewhere = plan(
      desiredState({ services: [desiredService('db'), desiredService('fresh')] }),
      liveState({ services: [liveService('db', { id: 'workspace2' }), liveService('fresh', { id: 'workspace3' })] }),
      lockfile({ 'service.db': 'gonegone01' }),
      {
        claimedElsewhere: new Map([
          ['workspace2', { workspace: 'pr-2', address: 'service.db' }],
          ['workspace3', { workspace: 'pr-3', address: 'service.fresh' }],
        ]),
      },
    );
    expect(elsewhere.bindings).toEqual([]);
    expect(ops(elsewhere)).toEqual(['service.db createService', 'service.fresh createService']);
    expect(elsewhere.actions.map((a) => a.reason)).toEqual(['drift', 'missing']);
    // Creating them again under those names would make twins (SPEC section 13): plan errors.
    expect(errors(elsewhere)).toEqual([
      expect.stringMatching(/^service\.db would be created with the name "db", which is the name of the live service workspace2 that workspace "pr-2" binds as service\.db: that would make a twin of it\. To work on workspace "pr-2", run with --workspace pr-2 /),
      expect.stringMatching(/^service\.fresh would be created with the name "fresh", which is the name of the live service workspace3 that workspace "pr-3" binds as service\.fresh/),
    ]);
  });
});
