// A saved plan goes stale only when a resource it touches changed (SPEC section 3).
import { describe, expect, it } from 'vitest';
import type { LiveState } from '../../../src/model/index.js';
import { findStaleAddresses, fingerprintLive, fingerprintSubjects, stateFingerprint } from '../../../src/planner/index.js';
import { desiredReplicaSet, desiredService, desiredState, liveReplicaSet, liveService, liveState, lockfile, plan } from './builders.js';

const desired = desiredState({
  services: [desiredService('db', { size: { cpuMillis: 2000, memoryGbs: 8 }, replicaSets: [desiredReplicaSet('r')] }), desiredService('other'), desiredService('new')],
});
const lock = lockfile({ 'service.db': 'svc-db', 'service.other': 'svc-other' });
const baseLive = () => liveState({ services: [liveService('db'), liveService('other')] });
const mutate = (f: (l: LiveState) => void) => {
  const l = structuredClone(baseLive());
  f(l);
  return l;
};

describe('fingerprints', () => {
  const p = plan(desired, baseLive(), lock);

  it('covers exactly the touched resources, and state_fingerprint hashes them', () => {
    expect(Object.keys(p.fingerprints).sort()).toEqual(['replica_set.db.r', 'service.db', 'service.new']);
    for (const fp of Object.values(p.fingerprints)) expect(fp).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(p.stateFingerprint).toBe(stateFingerprint(p.fingerprints));
    expect(fingerprintLive(baseLive(), fingerprintSubjects(p))).toEqual(p.fingerprints);
  });

  it('is fresh against the same live state', () => {
    expect(findStaleAddresses(p, baseLive())).toEqual([]);
  });

  it.each<[string, (l: LiveState) => void, string[]]>([
    ['a touched resource changed', (l) => (l.services[0]!.size = { cpuMillis: 500, memoryGbs: 2 }), ['service.db']],
    ['a touched resource was paused', (l) => (l.services[0]!.status = 'PAUSED'), ['service.db']],
    ['a touched resource is gone', (l) => l.services.splice(0, 1), ['service.db']],
    ['a same-named resource appeared where the plan creates one', (l) => l.services.push(liveService('new')), ['service.new']],
    ['a same-named replica set appeared', (l) => l.services[0]!.replicaSets.push(liveReplicaSet('r', { serviceId: 'svc-db' })), ['replica_set.db.r']],
    ['an untouched resource changed', (l) => (l.services[1]!.environment = 'PROD'), []],
    ['an unrelated resource appeared', (l) => l.services.push(liveService('stranger')), []],
    ['only a transitional status flapped', (l) => (l.services[0]!.status = 'CONFIGURING'), []],
    ['only endpoints and timestamps changed', (l) => Object.assign(l.services[0]!, { created: '2027-01-01T00:00:00Z', endpoint: { host: 'h', port: 1 } }), []],
  ])('%s', (_n, f, stale) => {
    expect(findStaleAddresses(p, mutate(f))).toEqual(stale);
  });

  it('an address recorded on one side only is an edited file, not a live change: verifying the plan names it', () => {
    const edited = structuredClone(p);
    edited.actions[0]!.address = 'service.other';
    edited.actions[0]!.refs = { target: { address: 'service.other', id: 'svc-other' } };
    expect(findStaleAddresses(edited, baseLive())).toEqual([]);
    // service.other has no recorded fingerprint, so even a live change of it is not "stale".
    expect(findStaleAddresses(edited, mutate((l) => (l.services[1]!.environment = 'PROD')))).toEqual([]);
  });

  it('is independent of live list order', () => {
    const reversed = mutate((l) => l.services.reverse());
    expect(plan(desired, reversed, lock).fingerprints).toEqual(p.fingerprints);
  });
});
