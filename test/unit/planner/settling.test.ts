// Settling (SPEC section 5, issue 12): managed resources still in a transitional status are
// listed so that apply waits for them; settling alone is not a change; they keep their actions.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { renderPlanMarkdown, renderPlanText } from '../../../src/cli/render/index.js';
import { planHasChanges } from '../../../src/model/index.js';
import { fromPlanJson, toPlanJson } from '../../../src/planner/index.js';
import {
  desiredPeering,
  desiredReplicaSet,
  desiredService,
  desiredState,
  desiredVpc,
  livePeering,
  liveReplicaSet,
  liveService,
  liveState,
  liveVpc,
  lockfile,
  ops,
  plan,
} from './builders.js';

const oneService = (status: string, desired = desiredService('db')) =>
  plan(desiredState({ services: [desired] }), liveState({ services: [liveService('db', { status })] }), lockfile({ 'service.db': 'svc-db' }));

describe('settling resources', () => {
  it.each(['QUEUED', 'CONFIGURING', 'UPGRADING', 'PAUSING', 'RESUMING'])('a bound service %s is settling, not unchanged, and no change', (status) => {
    const p = oneService(status);
    expect(p.settling).toEqual([{ address: 'service.db', kind: 'service', id: 'svc-db', status }]);
    expect(p.summary).toMatchObject({ settling: 1, unchanged: 0 });
    expect(p.actions).toEqual([]);
    expect(planHasChanges(p)).toBe(false);
  });

  it.each(['READY', 'PAUSED', 'UNSTABLE', 'OPTIMIZING'])('a service %s is not settling', (status) => {
    const p = oneService(status, desiredService('db', { paused: status === 'PAUSED' }));
    expect(p.settling).toEqual([]);
    expect(p.summary).toMatchObject({ settling: 0, unchanged: 1 });
  });

  it('replica sets creating or resizing and peerings pending are settling, with their parent IDs', () => {
    const p = plan(
      desiredState({
        vpcs: [desiredVpc('main', { peerings: [desiredPeering('main', 'pv'), desiredPeering('main', 'pw')] })],
        services: [desiredService('db', { replicaSets: [desiredReplicaSet('a'), desiredReplicaSet('b'), desiredReplicaSet('c')] })],
      }),
      liveState({
        vpcs: [liveVpc('main', { peerings: [livePeering('vpc-main', 'pv', { status: 'pending' }), livePeering('vpc-main', 'pw', { status: 'PENDING' })] })],
        services: [liveService('db', { replicaSets: [liveReplicaSet('a', { status: 'creating' }), liveReplicaSet('b', { status: 'resizing' }), liveReplicaSet('c')] })],
      }),
      lockfile({ 'vpc.main': 'vpc-main', 'peering.main.pv': 'pcx-pv', 'peering.main.pw': 'pcx-pw', 'service.db': 'svc-db', 'replica_set.db.a': 'rs-a', 'replica_set.db.b': 'rs-b', 'replica_set.db.c': 'rs-c' }),
    );
    expect(p.settling).toEqual([
      { address: 'peering.main.pv', kind: 'peering', id: 'pcx-pv', parentId: 'vpc-main', status: 'pending' },
      { address: 'peering.main.pw', kind: 'peering', id: 'pcx-pw', parentId: 'vpc-main', status: 'PENDING' },
      { address: 'replica_set.db.a', kind: 'replica_set', id: 'rs-a', parentId: 'svc-db', status: 'creating' },
      { address: 'replica_set.db.b', kind: 'replica_set', id: 'rs-b', parentId: 'svc-db', status: 'resizing' },
    ]);
    expect(p.summary).toMatchObject({ settling: 4, unchanged: 3 });
  });

  it('a settling service keeps its actions; the actions that need READY wait for it', () => {
    const p = oneService('CONFIGURING', desiredService('db', { pooler: true, size: { cpuMillis: 1000, memoryGbs: 4 } }));
    expect(ops(p)).toEqual(['service.db resizeService', 'service.db enablePooler']);
    expect(p.settling.map((s) => s.address)).toEqual(['service.db']);
    expect(p.summary).toMatchObject({ update: 1, settling: 1, unchanged: 0 });
  });

  it('an adopted service still QUEUED is settling too (the config manages it from this plan on)', () => {
    const p = plan(desiredState({ services: [desiredService('db')] }), liveState({ services: [liveService('db', { status: 'QUEUED' })] }), lockfile());
    expect(p.bindings.map((b) => b.kind)).toEqual(['adopt']);
    expect(p.settling.map((s) => s.address)).toEqual(['service.db']);
  });

  it('nothing this plan replaces, deletes or does not manage is settling', () => {
    const p = plan(
      desiredState({ services: [desiredService('db')] }),
      liveState({ services: [liveService('db', { status: 'QUEUED' }), liveService('gone', { status: 'QUEUED' }), liveService('stranger', { status: 'QUEUED' })] }),
      lockfile({ 'service.db': 'svc-db', 'service.gone': 'svc-gone' }),
      { replace: ['service.db'], allowDataLoss: true },
    );
    expect(p.settling).toEqual([]);
    expect(p.summary.unmanaged).toBe(1);
  });

  it('--target keeps only the settling resources it selects', () => {
    const d = desiredState({ services: [desiredService('a', { environment: 'PROD' }), desiredService('b')] });
    const l = liveState({ services: [liveService('a', { status: 'QUEUED' }), liveService('b', { status: 'QUEUED' })] });
    const lock = lockfile({ 'service.a': 'svc-a', 'service.b': 'svc-b' });
    expect(plan(d, l, lock, { target: ['service.a'] }).settling.map((s) => s.address)).toEqual(['service.a']);
    expect(plan(d, l, lock).settling.map((s) => s.address)).toEqual(['service.a', 'service.b']);
  });
});

describe('settling in the outputs', () => {
  it('the plan JSON with settling resources of every kind validates against schemas/plan.schema.json, which wants parent_id for replica sets and peerings', () => {
    const schema = JSON.parse(readFileSync(join(import.meta.dirname, '../../../schemas/plan.schema.json'), 'utf8'));
    const validate = new Ajv2020.default({ allErrors: true, strict: true }).compile(schema);
    const p = plan(
      desiredState({ vpcs: [desiredVpc('main', { peerings: [desiredPeering('main', 'pv')] })], services: [desiredService('db', { replicaSets: [desiredReplicaSet('r')] })] }),
      liveState({
        vpcs: [liveVpc('main', { peerings: [livePeering('vpc-main', 'pv', { status: 'pending' })] })],
        services: [liveService('db', { status: 'UPGRADING', replicaSets: [liveReplicaSet('r', { status: 'resizing' })] })],
      }),
      lockfile({ 'vpc.main': 'vpc-main', 'peering.main.pv': 'pcx-pv', 'service.db': 'svc-db', 'replica_set.db.r': 'rs-r' }),
    );
    const json = JSON.parse(JSON.stringify(toPlanJson(p)));
    expect(json.settling).toHaveLength(3);
    expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
    expect(json.settling.map((s: { address: string }) => s.address)).toEqual(['peering.main.pv', 'service.db', 'replica_set.db.r']);
    delete json.settling[2].parent_id;
    expect(validate(json)).toBe(false);
  });


  it('JSON: summary.settling always; the settling list only when there is one; read back as written', () => {
    const p = oneService('QUEUED');
    const json = toPlanJson(p);
    expect(json.summary.settling).toBe(1);
    expect(json.settling).toEqual([{ address: 'service.db', id: 'svc-db', status: 'QUEUED' }]);
    const read = fromPlanJson(JSON.parse(JSON.stringify(json)));
    expect(read.ok && read.value.settling).toEqual(p.settling);
    expect(read.ok && read.value.summary.settling).toBe(1);
    const quiet = toPlanJson(oneService('READY'));
    expect(quiet.summary.settling).toBe(0);
    expect('settling' in quiet).toBe(false);
  });

  it('reading: a plan saved before settling existed reads as none; a replica set without parent_id is refused', () => {
    const json = JSON.parse(JSON.stringify(toPlanJson(oneService('READY'))));
    delete json.summary.settling;
    const old = fromPlanJson(json);
    expect(old.ok && old.value.settling).toEqual([]);
    expect(old.ok && old.value.summary.settling).toBe(0);
    const bad = fromPlanJson({ ...json, settling: [{ address: 'replica_set.db.r', id: 'rs-r', status: 'creating' }] });
    expect(bad.ok ? [] : bad.errors).toEqual(['settling[0].parent_id: must be a non-empty string']);
  });

  it('text: No changes, and the resource is named as settling with its status', () => {
    const out = renderPlanText(oneService('QUEUED'), { color: false });
    expect(out).toBe(
      'Still settling: 1 resource is still changing (an earlier apply, or a change made elsewhere); apply waits for it before it reports success:\n' +
        '\n' +
        '  … service.db  QUEUED\n' +
        '\n' +
        'No changes. 1 settling (apply waits for it), 0 unchanged, 0 unmanaged (not in the config or state; left alone).\n',
    );
  });

  it('markdown: a settling column and a note listing them', () => {
    const out = renderPlanMarkdown(oneService('CONFIGURING'));
    expect(out).toContain('| create | update | replace | delete | adopt | move | settling | unchanged | unmanaged |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n| 0 | 0 | 0 | 0 | 0 | 0 | 1 | 0 | 0 |\n');
    expect(out).toContain('**No changes** to make, but some resources are still settling (below); apply waits for them.');
    expect(out).toContain('> [!NOTE]\n> **Still settling: 1 resource is still changing');
    expect(out).toContain('> - <code>service.db</code> CONFIGURING\n');
    expect(renderPlanMarkdown(oneService('READY'))).not.toContain('settling');
  });
});
