// Verifying a saved plan against the plan made now (SPEC section 3): the first difference for an
// address the saved plan touches, in one line; addresses it does not touch may differ.
import { describe, expect, it } from 'vitest';
import type { Plan } from '../../../src/model/index.js';
import { findPlanDifference, fromPlanJson, toPlanJson, withSavedInputs } from '../../../src/planner/index.js';
import { desiredService, desiredState, desiredVpc, liveService, liveState, liveVpc, lockfile, plan } from './builders.js';
import { richPlan } from './scenarios.js';

const copy = (p: Plan): Plan => structuredClone(p);

describe('findPlanDifference', () => {
  it('finds none between a plan and itself, or the same plan read back from its JSON', () => {
    const p = richPlan();
    expect(findPlanDifference(p, copy(p))).toBeUndefined();
    const back = fromPlanJson(JSON.parse(JSON.stringify(toPlanJson(p))));
    expect(back.ok && findPlanDifference(back.value, p)).toBeUndefined();
  });

  it('ignores action numbering, but not what an action waits for', () => {
    const now = richPlan();
    const renumbered = copy(now);
    const ids = new Map(renumbered.actions.map((a, i) => [a.id, `a${100 + i}`]));
    for (const a of renumbered.actions) Object.assign(a, { id: ids.get(a.id), dependsOn: a.dependsOn.map((d) => ids.get(d)!) });
    expect(findPlanDifference(renumbered, now)).toBeUndefined();
    const reordered = copy(now);
    const waiting = reordered.actions.find((a) => a.dependsOn.length > 0)!;
    const names = (p: Plan, ids: string[]) => ids.map((d) => p.actions.find((x) => x.id === d)!).map((x) => `${x.address} ${x.op}`).sort().join(', ');
    const expected = names(now, waiting.dependsOn);
    waiting.dependsOn = [];
    expect(findPlanDifference(reordered, now)).toBe(`${waiting.address} ${waiting.op}: it waits for nothing in the plan file but for ${expected} now`);
  });

  it.each<[string, (p: Plan) => void, string]>([
    ['an op', (p) => (p.actions.find((a) => a.op === 'createVPC')!.op = 'deleteVPC'), 'vpc.main: the plan file has deleteVPC, but dbform plans createVPC now'],
    ['a risk', (p) => (p.actions.find((a) => a.op === 'deleteService')!.risk = 'none'), 'service.gone-soon deleteService: its risk is "none" in the plan file but "data-loss" now'],
    ['a blocked mark removed', (p) => delete p.actions.find((a) => a.op === 'deleteService')!.blocked, 'service.gone-soon deleteService: its blocked is absent in the plan file but'],
    ['a request', (p) => (p.actions.find((a) => a.op === 'createVPC')!.request = { cidr: '0.0.0.0/0' }), 'vpc.main createVPC: its request is {"cidr":"0.0.0.0/0"} in the plan file but'],
    ['a ref', (p) => (p.actions.find((a) => a.op === 'deleteService')!.refs.target!.id = 'dbdbdbdbdb'), 'service.gone-soon deleteService: its refs is {"target":{"address":"service.gone-soon","id":"dbdbdbdbdb"}} in the plan file but'],
    ['a password variable', (p) => (p.actions.find((a) => a.op === 'updatePassword')!.password!.fromEnv = 'OTHER'), 'service.db updatePassword: its password is {"from_env":"OTHER","version":2} in the plan file but {"from_env":"DB_PASSWORD","version":2} now'],
    ['a binding', (p) => (p.bindings.find((b) => b.kind === 'adopt')!.id = 'zzzzzzzzzz'), 'service.adopted: the plan file has {"address":"service.adopted","id":"zzzzzzzzzz","kind":"adopt"}, but dbform plans {"address":"service.adopted","id":"adadadadad","kind":"adopt"} now'],
    ['an action added on an untouched address', (p) => p.actions.push({ ...p.actions[0]!, id: 'a99', address: 'vpc.other', op: 'deleteVPC', dependsOn: [] }), 'vpc.other: the plan file has deleteVPC, but dbform plans no action now'],
  ])('names %s that differs', (_n, edit, message) => {
    const now = richPlan();
    const saved = copy(now);
    edit(saved);
    expect(findPlanDifference(saved, now)).toContain(message);
  });

  it('a data-loss plan made without --allow-data-loss is not the one made with it', () => {
    expect(findPlanDifference(richPlan(true), richPlan(false))).toMatch(/^service\.gone-soon deleteService: its blocked is absent in the plan file but "data-loss: /);
  });

  it('compares only the addresses the saved plan touches, unless one of them now waits for another', () => {
    const desired = desiredState({ vpcs: [desiredVpc('main')], services: [desiredService('a', { environment: 'PROD' }), desiredService('b', { environment: 'PROD' })] });
    const lock = lockfile({ 'vpc.main': 'vpc-main', 'service.a': 'svc-a', 'service.b': 'svc-b' });
    const live = (bEnv: string) => liveState({ vpcs: [liveVpc('main')], services: [liveService('a', { environment: 'DEV' }), liveService('b', { environment: bEnv })] });
    const saved = plan(desired, live('PROD'), lock);
    expect(saved.actions.map((a) => `${a.address} ${a.op}`)).toEqual(['service.a setEnvironment']);
    // b drifted since: the plan made now also fixes b, which the saved plan does not touch.
    expect(findPlanDifference(saved, plan(desired, live('DEV'), lock))).toBeUndefined();
    // The VPC is gone since: service.a's plan is unchanged, but now a createVPC comes first for an attach.
    const attach = desiredState({ vpcs: [desiredVpc('main')], services: [desiredService('a', { vpc: { key: 'main' } })] });
    const savedAttach = plan(attach, liveState({ vpcs: [liveVpc('main')], services: [liveService('a')] }), lockfile({ 'vpc.main': 'vpc-main', 'service.a': 'svc-a' }));
    const nowAttach = plan(attach, liveState({ services: [liveService('a')] }), lockfile({ 'vpc.main': 'vpc-main', 'service.a': 'svc-a' }));
    expect(findPlanDifference(savedAttach, nowAttach)).toBe(
      'service.a attachServiceToVPC: its refs is {"target":{"address":"service.a","id":"svc-a"},"vpc":{"address":"vpc.main","id":"vpc-main"}} in the plan file but {"target":{"address":"service.a","id":"svc-a"},"vpc":{"address":"vpc.main"}} now',
    );
  });
});

describe('saved inputs', () => {
  it('records lineage (null for a state not written yet), serial, config_hash and the flags, and reads them back', () => {
    const hash = `sha256:${'b'.repeat(64)}`;
    const p = withSavedInputs(richPlan(true), { ...lockfile(), lineage: 'aaaaaaaa-1111-4222-8333-444444444444', serial: 4 }, hash, { replace: ['service.ts'], target: [], allowDataLoss: true });
    const json = toPlanJson(p);
    expect(Object.keys(json).slice(-4)).toEqual(['lineage', 'serial', 'config_hash', 'options']);
    expect(json).toMatchObject({ lineage: 'aaaaaaaa-1111-4222-8333-444444444444', serial: 4, config_hash: hash, options: { replace: ['service.ts'], target: [], allow_data_loss: true } });
    const back = fromPlanJson(JSON.parse(JSON.stringify(json)));
    expect(back.ok && back.value).toEqual(p);
    const fresh = withSavedInputs(richPlan(), lockfile(), hash, { replace: [], target: [], allowDataLoss: false });
    expect(toPlanJson(fresh)).toMatchObject({ lineage: null, serial: 0 });
    const freshBack = fromPlanJson(JSON.parse(JSON.stringify(toPlanJson(fresh))));
    expect(freshBack.ok && freshBack.value.lineage).toBeNull();
  });

  it('names a bad lineage, serial or options field', () => {
    const json = JSON.parse(JSON.stringify(toPlanJson(richPlan())));
    const back = fromPlanJson({ ...json, lineage: 3, serial: -1, config_hash: 'x', options: { replace: [7], target: 'service.a' } });
    expect(back.ok).toBe(false);
    if (!back.ok) {
      // In the order of the file, a missing field after its siblings; top-level fields named as
      // the file names them (plan.schema.json: lineage may also be null).
      expect(back.errors).toEqual([
        'lineage: must be a non-empty string or null',
        'serial: must be a non-negative integer',
        'config_hash: must be "sha256:<64 hex digits>"',
        'options.replace[0]: must be an address',
        'options.target: must be an array',
        'options.allow_data_loss: must be true or false',
      ]);
    }
  });
});
