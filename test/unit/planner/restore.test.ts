// A restore (SPEC section 17) as the planner sees it: the config and the state as the restore
// wants them (planner/restore.ts), planned by the one planner; and retired bindings in every
// later plan: kept, protected, never adopted for another address, deleted only by a destroy.
import { describe, expect, it } from 'vitest';
import { bindRetiring, restoreStamp, retiredAddressOf, type LockEntry, type Plan, type RestoreRequest } from '../../../src/model/index.js';
import { findPlanDifference, fromPlanJson, toPlanJson, withSavedInputs } from '../../../src/planner/index.js';
import { action, dependsOn, desiredReplicaSet, desiredService, desiredState, errors, liveReplicaSet, liveService, liveState, lockfile, ops, plan, warnings } from './builders.js';

const NOW = Date.parse('2026-06-01T12:00:00Z');
const STAMP = '20260601-115900';
const TO = '2026-03-01T00:00:00Z';
const RETIRED = 'service.db-before-20260601-115900';
const RETIRED_SET = 'replica_set.db-before-20260601-115900.r1';
const request: RestoreRequest = { address: 'service.db', targetTime: TO, stamp: STAMP };

const config = (o: Parameters<typeof desiredService>[1] = {}) =>
  desiredState({ services: [desiredService('db', { pooler: true, size: { cpuMillis: 1000, memoryGbs: 4 }, replicaSets: [desiredReplicaSet('r1')], ...o })] });
const original = liveService('db', { pooler: true, size: { cpuMillis: 1000, memoryGbs: 4 }, replicaSets: [liveReplicaSet('r1')] });
const bound = { 'service.db': 'svc-db', 'replica_set.db.r1': 'rs-r1' };
const restorePlan = (o: { lock?: ReturnType<typeof lockfile>; live?: ReturnType<typeof liveState>; request?: RestoreRequest; desired?: ReturnType<typeof config> } = {}) =>
  plan(o.desired ?? config(), o.live ?? liveState({ services: [original] }), o.lock ?? lockfile(bound), { now: NOW, ...('request' in o ? (o.request ? { restore: o.request } : {}) : { restore: request }) });
const bindings = (p: Plan) => p.bindings.map((b) => `${b.kind} ${b.address}${b.from ? ` <- ${b.from}` : ''} ${b.id ?? ''}${b.protect ? ' protect' : ''}`.trim());

/** The state as an apply of the plan leaves it: the retire marks, then the fork bound (bindRetiring). */
function stateAfterApply(p: Plan, forkId: string, setIds: Record<string, string>): ReturnType<typeof lockfile> {
  const lock = lockfile(bound);
  for (const b of p.bindings.filter((x) => x.kind === 'retire')) lock.resources[b.from!] = { ...lock.resources[b.from!]!, restoring: { retireAs: b.address, targetTime: b.targetTime! } };
  bindRetiring(lock.resources, 'service.db', forkId, {});
  for (const [address, id] of Object.entries(setIds)) bindRetiring(lock.resources, address, id, {});
  return lock;
}

describe('restoreStamp and the retired addresses', () => {
  it('stamps to the second in UTC, and retires a service with the sets that belong to it', () => {
    expect(restoreStamp(Date.parse('2026-06-01T11:59:00.789Z'))).toBe(STAMP);
    expect(retiredAddressOf('service.db', 'service.db', STAMP)).toBe(RETIRED);
    expect(retiredAddressOf('replica_set.db.r1', 'service.db', STAMP)).toBe(RETIRED_SET);
    expect(retiredAddressOf('replica_set.other.r1', 'service.db', STAMP)).toBeUndefined();
    // A 63-character key leaves room for the stamp: the retired address is still an address.
    expect(retiredAddressOf(`service.${'k'.repeat(63)}`, `service.${'k'.repeat(63)}`, STAMP)).toBe(`service.${'k'.repeat(40)}-before-${STAMP}`);
  });
});

describe('dbform restore service.db --to TIME, planned', () => {
  it('forks the original to TIME with the desired settings, and retires the original and its set', () => {
    const p = restorePlan();
    expect(errors(p)).toEqual([]);
    expect(ops(p)).toEqual(['service.db forkService', 'service.db enablePooler', 'replica_set.db.r1 createReplicaSet']);
    const fork = action(p, 'service.db', 'forkService');
    expect(fork.request).toMatchObject({ name: 'db', fork_strategy: 'PITR', target_time: TO, cpu_millis: '1000', memory_gbs: '4' });
    expect(fork.refs.forkParent).toEqual({ address: RETIRED, id: 'svc-db' });
    expect(fork.changes).toContainEqual({ path: 'fork.from', before: null, after: RETIRED, forcesReplace: false, sensitive: false });
    expect(action(p, 'replica_set.db.r1', 'createReplicaSet').refs.service).toEqual({ address: 'service.db' });
    expect(bindings(p)).toEqual([`retire ${RETIRED} <- service.db svc-db protect`, `retire ${RETIRED_SET} <- replica_set.db.r1 rs-r1`]);
    expect(p.bindings.every((b) => b.targetTime === TO)).toBe(true);
    expect(p.actions.every((a) => a.blocked === undefined && a.risk !== 'data-loss')).toBe(true);
  });

  it('saves as a plan file that records the restore, and reads back the same', () => {
    const p = restorePlan();
    const saved = withSavedInputs(p, lockfile(bound), `sha256:${'0'.repeat(64)}`, { replace: [], target: [], allowDataLoss: false, restore: request });
    const json = toPlanJson(saved);
    expect(json.options).toEqual({ replace: [], target: [], allow_data_loss: false, restore: { address: 'service.db', target_time: TO, stamp: STAMP } });
    expect(json.bindings[0]).toEqual({ kind: 'retire', address: RETIRED, id: 'svc-db', from: 'service.db', protect: true, target_time: TO });
    const read = fromPlanJson(JSON.parse(JSON.stringify(json)));
    if (!read.ok) throw new Error(read.errors.join('\n'));
    expect(read.value.options).toEqual(saved.options);
    expect(read.value.bindings).toEqual(p.bindings);
    const { target_time: _dropped, ...withoutTime } = json.bindings[0] as Record<string, unknown>;
    const broken = fromPlanJson({ ...JSON.parse(JSON.stringify(json)), bindings: [withoutTime] });
    expect(broken.ok ? [] : broken.errors).toEqual(['bindings[0].target_time: must be a non-empty string']);
  });

  it('a saved restore without its retirements is not what dbform plans (the original would lose its binding)', () => {
    const p = restorePlan();
    expect(findPlanDifference(p, restorePlan())).toBeUndefined();
    expect(findPlanDifference({ ...p, bindings: [] }, restorePlan())).toMatch(new RegExp(`^${RETIRED.replace(/[.]/g, '\\.')}: the plan file has no binding, but dbform plans`));
    expect(findPlanDifference({ ...p, bindings: p.bindings.slice(0, 1) }, restorePlan())).toMatch(/^replica_set\.db-before-20260601-115900\.r1: the plan file has no binding/);
  });

  it('keeps a protect the state records for the address on the fork', () => {
    const p = restorePlan({ lock: lockfile({ ...bound, 'service.db': { id: 'svc-db', protect: true } }) });
    expect(action(p, 'service.db', 'forkService').protect).toBe(true);
  });

  it.each([
    ['2025-12-31T23:59:59Z', `--to 2025-12-31T23:59:59Z is before the service (svc-db) was created (2026-01-01T00:00:00Z): a point-in-time restore goes back at most to its creation`],
    ['2026-06-01T12:00:00Z', '--to 2026-06-01T12:00:00Z is not in the past (now is 2026-06-01T12:00:00Z): a point-in-time restore goes back to a moment that has happened'],
    ['2027-01-01T00:00:00Z', '--to 2027-01-01T00:00:00Z is not in the past (now is 2026-06-01T12:00:00Z): a point-in-time restore goes back to a moment that has happened'],
    ['2026-02-30T00:00:00Z', '--to 2026-02-30T00:00:00Z is not an RFC 3339 time such as 2026-03-01T12:00:00Z'],
  ])('--to %s is refused with one error and nothing planned', (to, message) => {
    const p = restorePlan({ request: { ...request, targetTime: to } });
    expect(errors(p)).toEqual([message]);
    expect(p.actions).toEqual([]);
    expect(p.bindings).toEqual([]);
  });

  it('refuses an address the config or the state does not have, or whose service is gone', () => {
    // Each diagnostic names its address (service.other: ...), so the messages do not repeat it.
    const other = restorePlan({ request: { ...request, address: 'service.other' } });
    expect(errors(other)).toEqual(['not in the config: a restore makes the fork with the config\'s settings, so the config must have it']);
    expect(other.diagnostics[0]!.address).toBe('service.other');
    expect(errors(restorePlan({ lock: lockfile() }))).toEqual(['not bound in the state: there is no service of it to restore']);
    expect(errors(restorePlan({ live: liveState() }))).toEqual(['bound to service svc-db, which is gone or being deleted: a restore forks a live service']);
  });

  it('never adopts a live service of the desired name for the restored address: it forks', () => {
    const stranger = liveService('db', { id: 'svc-stranger' });
    const p = restorePlan({ live: liveState({ services: [original, stranger] }) });
    expect(errors(p)).toEqual([]);
    expect(ops(p)[0]).toBe('service.db forkService');
    expect(p.bindings.some((b) => b.kind === 'adopt')).toBe(false);
  });

  it('where the API renames services in place, renames the original first; where it does not, both keep the name', () => {
    const unknown = restorePlan();
    expect(unknown.needs).toEqual(['renamesServices']);
    const shared = plan(config(), liveState({ services: [original] }), lockfile(bound), { now: NOW, restore: request, api: { renamesServices: false } });
    expect(shared.api).toEqual({ renamesServices: false });
    expect(shared.needs).toBeUndefined();
    expect(ops(shared)).toEqual(ops(unknown));
    const renamed = plan(config(), liveState({ services: [original] }), lockfile(bound), { now: NOW, restore: request, api: { renamesServices: true } });
    expect(errors(renamed)).toEqual([]);
    expect(renamed.api).toEqual({ renamesServices: true });
    expect(ops(renamed)).toEqual([`${RETIRED} renameService`, 'service.db forkService', 'service.db enablePooler', 'replica_set.db.r1 createReplicaSet']);
    const rename = action(renamed, RETIRED, 'renameService');
    expect(rename).toMatchObject({ risk: 'none', request: { name: 'db-before-20260601-115900' }, refs: { target: { address: RETIRED, id: 'svc-db' } } });
    expect(rename.blocked).toBeUndefined();
    expect(dependsOn(renamed, action(renamed, 'service.db', 'forkService'), rename)).toBe(true);
    expect(renamed.bindings).toEqual(shared.bindings);
  });
});

describe('after the restore', () => {
  const applied = () => stateAfterApply(restorePlan(), 'svc-fork', { 'replica_set.db.r1': 'rs-new' });
  const fork = liveService('db', { id: 'svc-fork', pooler: true, size: { cpuMillis: 1000, memoryGbs: 4 }, forkedFrom: { serviceId: 'svc-db' }, replicaSets: [liveReplicaSet('r1', { id: 'rs-new' })] });
  const both = liveState({ services: [original, fork] });

  it('the state binds the address to the fork and keeps the original retired and protected', () => {
    const lock = applied();
    expect(lock.resources).toEqual({
      'service.db': { id: 'svc-fork' },
      'replica_set.db.r1': { id: 'rs-new' },
      [RETIRED]: { id: 'svc-db', protect: true, retired: { from: 'service.db', targetTime: TO } },
      [RETIRED_SET]: { id: 'rs-r1', retired: { from: 'replica_set.db.r1', targetTime: TO } },
    } satisfies Record<string, LockEntry>);
  });

  it('the next plan is empty: the retired original is not "removed from the config"', () => {
    const p = plan(config(), both, applied(), { now: NOW });
    expect(errors(p)).toEqual([]);
    expect(p.actions).toEqual([]);
    expect(p.bindings).toEqual([]);
    expect(p.summary).toMatchObject({ create: 0, delete: 0, unchanged: 2, unmanaged: 0 });
  });

  it('the same restore again plans nothing more, and says so', () => {
    const p = plan(config(), both, applied(), { now: NOW, restore: { ...request, stamp: '20260601-120500' } });
    expect(ops(p)).toEqual([]);
    expect(warnings(p)).toEqual([`service.db was restored to ${TO} already (its original is retired as ${RETIRED}); this plan applies only what the config still asks of it. To restore it again, give another time`]);
  });

  it('a retired ID is never adopted for another address, even under its shared name', () => {
    const lock = applied();
    // The fork is deleted outside dbform: the address's ID is gone; the live "db" left is the retired original.
    const p = plan(config(), liveState({ services: [original] }), lock, { now: NOW });
    expect(errors(p)).toEqual([]);
    expect(ops(p)[0]).toBe('service.db createService');
    expect(p.bindings.filter((b) => b.kind === 'adopt' || b.kind === 'move')).toEqual([]);
  });

  it('a retired binding whose resource is gone is forgotten', () => {
    const p = plan(config(), liveState({ services: [fork] }), applied(), { now: NOW });
    expect(bindings(p)).toEqual([`forget ${RETIRED} svc-db`, `forget ${RETIRED_SET} rs-r1`]);
    expect(p.actions).toEqual([]);
  });

  it('a config block for the retired original lifts its protect without renaming it (the names are shared)', () => {
    const desired = config();
    desired.services.push(desiredService('db-before-20260601-115900', { protect: false }));
    const p = plan(desired, both, applied(), { now: NOW });
    expect(errors(p)).toEqual([]);
    expect(p.actions).toEqual([]);
    expect(bindings(p)).toEqual([`protect ${RETIRED} svc-db`]);
    expect(p.bindings[0]!.protect).toBe(false);
  });

  it('a destroy deletes retired bindings too, blocked while the original is protected, its set with it', () => {
    const destroy = (lock: ReturnType<typeof lockfile>) => plan(desiredState(), both, lock, { now: NOW, deleteRetired: true, allowDataLoss: true });
    const p = destroy(applied());
    expect(ops(p)).toContain(`${RETIRED} deleteService`);
    expect(action(p, RETIRED, 'deleteService').blocked).toMatch(/^protected: /);
    expect(action(p, RETIRED_SET, 'deleteReplicaSet').blocked).toMatch(/^protected: /);
    const unprotected = applied();
    unprotected.resources[RETIRED] = { ...unprotected.resources[RETIRED]!, protect: false };
    const q = destroy(unprotected);
    expect(action(q, RETIRED, 'deleteService').blocked).toBeUndefined();
    expect(action(q, RETIRED_SET, 'deleteReplicaSet').blocked).toBeUndefined();
  });
});

describe('an interrupted restore', () => {
  /** The state as the first write of the apply leaves it: the address still bound, marked. */
  const marked = () => {
    const lock = lockfile(bound);
    lock.resources['service.db'] = { id: 'svc-db', restoring: { retireAs: RETIRED, targetTime: TO } };
    lock.resources['replica_set.db.r1'] = { id: 'rs-r1', restoring: { retireAs: RETIRED_SET, targetTime: TO } };
    return lock;
  };

  it('is finished by a plain plan, as the restore planned it, before the fork was sent', () => {
    const fresh = restorePlan();
    const p = restorePlan({ lock: marked(), request: undefined });
    expect(errors(p)).toEqual([]);
    expect(ops(p)).toEqual(ops(fresh));
    expect(p.bindings).toEqual(fresh.bindings);
    expect(warnings(p)).toEqual([`the restore of service.db to ${TO} was interrupted; this plan finishes it`]);
  });

  it('and by the same restore command, whatever its own stamp', () => {
    const p = restorePlan({ lock: marked(), request: { ...request, stamp: '20260601-120700' } });
    expect(ops(p)).toEqual(ops(restorePlan()));
    expect(p.bindings).toEqual(restorePlan().bindings);
  });

  it('adopts the fork the killed run sent (its parent and name say which), and never forks again', () => {
    const lost = liveService('db', { id: 'svc-lost', status: 'QUEUED', forkedFrom: { serviceId: 'svc-db' }, size: { cpuMillis: 1000, memoryGbs: 4 } });
    const stranger = liveService('db', { id: 'svc-stranger', forkedFrom: { serviceId: 'svc-other' } });
    const p = restorePlan({ lock: marked(), request: undefined, live: liveState({ services: [original, lost, stranger] }) });
    expect(errors(p)).toEqual([]);
    expect(ops(p)).toEqual(['service.db enablePooler', 'replica_set.db.r1 createReplicaSet']);
    // In address order; the apply writes the retirements first (their marks), then the adoption moves them.
    expect(bindings(p)).toEqual(['adopt service.db svc-lost', `retire ${RETIRED} <- service.db svc-db protect`, `retire ${RETIRED_SET} <- replica_set.db.r1 rs-r1`]);
  });

  it('refuses a restore to another time until it is finished', () => {
    const p = restorePlan({ lock: marked(), request: { ...request, targetTime: '2026-04-01T00:00:00Z' } });
    expect(errors(p)).toEqual([
      `a restore of service.db to ${TO} is under way (it was interrupted); finish it with \`dbform apply\` (or \`dbform restore service.db --to ${TO}\`) before restoring it to 2026-04-01T00:00:00Z`,
    ]);
    expect(p.actions).toEqual([]);
  });

  it('is not resumed by a destroy, which deletes what the state binds as it is', () => {
    const p = plan(desiredState(), liveState({ services: [original] }), marked(), { now: NOW, deleteRetired: true, allowDataLoss: true });
    expect(ops(p)).toEqual(['replica_set.db.r1 deleteReplicaSet', 'service.db deleteService']);
  });
});

describe('bindRetiring', () => {
  it('binds as before where no restore is under way', () => {
    const resources: Record<string, LockEntry> = { 'service.db': { id: 'a', protect: true } };
    bindRetiring(resources, 'service.db', 'a', { passwordVersion: 2 });
    expect(resources).toEqual({ 'service.db': { id: 'a', protect: true, passwordVersion: 2 } });
  });

  it('moves a marked entry and its marked children in the same change that binds the fork', () => {
    const resources: Record<string, LockEntry> = {
      'service.db': { id: 'orig', passwordVersion: 3, applied: { name: 'db' }, restoring: { retireAs: RETIRED, targetTime: TO } },
      'replica_set.db.r1': { id: 'rs', restoring: { retireAs: RETIRED_SET, targetTime: TO } },
      'replica_set.db.r2': { id: 'rs2' },
    };
    bindRetiring(resources, 'service.db', 'fork', { protect: true });
    expect(resources).toEqual({
      'service.db': { id: 'fork', protect: true },
      'replica_set.db.r2': { id: 'rs2' },
      [RETIRED]: { id: 'orig', protect: true, retired: { from: 'service.db', targetTime: TO } },
      [RETIRED_SET]: { id: 'rs', retired: { from: 'replica_set.db.r1', targetTime: TO } },
    });
  });
});
