// `resource` in the config's own names: every key the config schema has for a kind is there when
// the config sets it (the mapping walks the field descriptors: a new field appears by itself),
// unmanaged ones are absent, a delete sees the live resource as export would write it, and a
// saved plan's changes give what they can.
import { describe, expect, it } from 'vitest';
import { loadConfigText } from '../../../src/config/index.js';
import { kindDef } from '../../../src/kinds/index.js';
import { fieldSchemas } from '../../../src/model/index.js';
import { desiredResourceFields, fieldsFromChanges, liveResourceFields, resourcesFromSavedPlan } from '../../../src/policy/index.js';
import { desiredService, desiredState, liveReplicaSet, liveService, liveState, lockfile, plan } from '../planner/builders.js';

const FULL = `version: 1
project_id: proj-demo
vpcs:
  main:
    name: main-net
    cidr: 10.10.0.0/16
    region_code: us-east-1
    peerings:
      - { peer_account_id: "123456789012", peer_region_code: us-east-1, peer_vpc_id: vpc-0a1b2c3d }
services:
  db:
    name: db-prod
    addons: [time-series]
    region_code: us-east-1
    cpu_millis: 2000
    memory_gbs: 8
    environment: PROD
    ha: { replicas: 2, sync_replicas: 1 }
    pooler: true
    vpc: main
    paused: false
    password: { from_env: DB_PASSWORD, version: 3 }
    protect: true
    replica_sets:
      read: { name: db-read, cpu_millis: 1000, memory_gbs: 4, nodes: 2, pooler: true, environment: PROD }
  fork:
    fork: { from: db, strategy: NOW }
`;

function loaded() {
  const r = loadConfigText(FULL, 'dbform.yaml');
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('\n'));
  return r.value;
}

describe('desiredResourceFields', () => {
  it('holds every key the config schema has for each kind, as the config wrote it', () => {
    const d = loaded();
    const db = desiredResourceFields(d.services[0]!);
    const read = desiredResourceFields(d.services[0]!.replicaSets[0]!);
    const vpc = desiredResourceFields(d.vpcs[0]!);
    const peering = desiredResourceFields(d.vpcs[0]!.peerings[0]!);
    expect(Object.keys(db)).toEqual(expect.arrayContaining(Object.keys(fieldSchemas(kindDef('service').fields))));
    expect(Object.keys(read)).toEqual(expect.arrayContaining(Object.keys(fieldSchemas(kindDef('replica_set').fields))));
    expect(Object.keys(vpc)).toEqual(expect.arrayContaining(Object.keys(fieldSchemas(kindDef('vpc').fields))));
    expect(Object.keys(peering)).toEqual(expect.arrayContaining(Object.keys(fieldSchemas(kindDef('peering').fields))));
    expect(db).toEqual({
      key: 'db',
      name: 'db-prod',
      addons: ['time-series'],
      region_code: 'us-east-1',
      cpu_millis: 2000,
      memory_gbs: 8,
      environment: 'PROD',
      ha: { replicas: 2, sync_replicas: 1 },
      pooler: true,
      vpc: 'main',
      paused: false,
      password: { from_env: 'DB_PASSWORD', version: 3 },
      protect: true,
    });
    expect(read).toEqual({ key: 'read', service: 'db', name: 'db-read', cpu_millis: 1000, memory_gbs: 4, nodes: 2, pooler: true, environment: 'PROD' });
    expect(vpc).toEqual({ key: 'main', name: 'main-net', cidr: '10.10.0.0/16', region_code: 'us-east-1' });
    expect(peering).toEqual({ vpc: 'main', peer_account_id: '123456789012', peer_region_code: 'us-east-1', peer_vpc_id: 'vpc-0a1b2c3d' });
  });

  it('leaves out what the config does not manage', () => {
    expect(desiredResourceFields(loaded().services[1]!)).toEqual({ key: 'fork', name: 'fork', fork: { from: 'db', strategy: 'NOW' } });
  });
});

describe('liveResourceFields', () => {
  it('gives a live service in the same names, with its ID and status', () => {
    const l = liveService('old', { id: 's1', status: 'PAUSED', environment: undefined, size: { cpuMillis: 500, memoryGbs: 2 }, vpcId: '99', ha: { replicas: 1, syncReplicas: 0 } });
    expect(liveResourceFields({ kind: 'service', live: l }, 'service.old')).toEqual({
      key: 'old',
      id: 's1',
      status: 'PAUSED',
      name: 'old',
      addons: [],
      region_code: 'us-east-1',
      cpu_millis: 500,
      memory_gbs: 2,
      environment: 'DEV',
      ha: { replicas: 1, sync_replicas: 0 },
      pooler: false,
      vpc: { id: '99' },
      paused: true,
    });
    expect(liveResourceFields({ kind: 'replica_set', live: { ...liveReplicaSet('r'), serviceId: 's1' } }, 'replica_set.old.r')).toMatchObject({ key: 'r', service: 'old', nodes: 1 });
  });
});

describe('what a saved plan says of a resource', () => {
  it('nests dotted change paths and takes after-values (before-values for a delete)', () => {
    const changes = [
      { path: 'cpu_millis', before: 1000, after: 2000 },
      { path: 'ha.replicas', before: 0, after: 2 },
      { path: 'password.version', before: '(sensitive)', after: '(sensitive)', sensitive: true },
    ];
    expect(fieldsFromChanges(changes, false)).toEqual({ cpu_millis: 2000, ha: { replicas: 2 } });
    expect(fieldsFromChanges(changes, true)).toEqual({ cpu_millis: 1000, ha: { replicas: 0 } });
  });

  it('merges every action on an address without the config, and takes the desired resource with it', () => {
    const desired = desiredState({ services: [desiredService('db', { size: { cpuMillis: 2000, memoryGbs: 8 }, environment: 'PROD', ha: { replicas: 2, syncReplicas: 1 } })] });
    const p = plan(desired, liveState({ services: [liveService('gone')] }), lockfile({ 'service.gone': 'svc-gone' }), { allowDataLoss: true });
    const withoutConfig = resourcesFromSavedPlan(p);
    const withConfig = resourcesFromSavedPlan(p, desired);
    const create = p.actions.find((a) => a.op === 'createService')!;
    const ha = p.actions.find((a) => a.op === 'setHAReplica')!;
    const del = p.actions.find((a) => a.op === 'deleteService')!;
    expect(withoutConfig(ha)).toMatchObject({ cpu_millis: 2000, environment: 'PROD', ha: { replicas: 2, sync_replicas: 1 } });
    expect(withoutConfig(create)).toEqual(withoutConfig(ha));
    expect(withConfig(create)).toMatchObject({ key: 'db', name: 'db', environment: 'PROD', ha: { replicas: 2, sync_replicas: 1 } });
    expect(withoutConfig(del)).toEqual({});
    expect(withConfig(del)).toEqual({});
  });
});
