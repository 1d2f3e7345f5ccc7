import { describe, expect, it } from 'vitest';
import { criticalPath, longestPath, pollTickAfter, quantizedCriticalPath } from '../../../bench/critical-path.js';

const action = (id: string, op: string, address: string, dependsOn: string[] = []) => ({ id, op, address, dependsOn });

describe('pollTickAfter', () => {
  it('follows the poller schedule before turn 2: first look after pollMs, then x1.5, capped at 10 x pollMs', () => {
    expect(pollTickAfter(0, 100, 'backoff')).toBe(100);
    expect(pollTickAfter(100, 100, 'backoff')).toBe(100);
    expect(pollTickAfter(101, 100, 'backoff')).toBe(250);
    expect(pollTickAfter(300, 100, 'backoff')).toBe(475);
    // 100, 250, 475, 812.5, 1318.75, 2078.125, then the 1000 ms cap: 3078.125
    expect(pollTickAfter(3000, 100, 'backoff')).toBeCloseTo(3078.125, 6);
    expect(pollTickAfter(4000, 100, 'backoff')).toBeCloseTo(4078.125, 6);
  });

  it('follows the default schedule: every pollMs until a fifth of the time waited is longer, then that fifth', () => {
    expect(pollTickAfter(0, 100)).toBe(100);
    expect(pollTickAfter(100, 100)).toBe(100);
    expect(pollTickAfter(101, 100)).toBe(200);
    expect(pollTickAfter(300, 100)).toBe(300);
    // ..., 500, 600, then 600 + 120 = 720
    expect(pollTickAfter(601, 100)).toBeCloseTo(720, 6);
    // 720, 864, 1036.8, ... each a fifth more: 2579.890176 + 515.9780352
    expect(pollTickAfter(3000, 100)).toBeCloseTo(3095.8682112, 6);
  });
});

describe('longestPath', () => {
  it('weighs the longest dependency chain and names it', () => {
    const actions = [
      action('a1', 'createVPC', 'vpc.v'),
      action('a2', 'createVPCPeering', 'peering.v.p', ['a1']),
      action('a3', 'createService', 'service.s'),
      action('a4', 'attachServiceToVPC', 'service.s', ['a1', 'a3']),
      action('a5', 'createReplicaSet', 'replica_set.s.r', ['a3']),
    ];
    const r = criticalPath(actions, 1);
    expect(r.ms).toBe(9000);
    expect(r.path).toEqual(['a3', 'a5']);
    expect(criticalPath(actions, 0.2).ms).toBeCloseTo(1800, 6);
  });

  it('serializes actions on one address even without an explicit dependency', () => {
    const actions = [action('a1', 'resizeService', 'service.s'), action('a2', 'setHAReplica', 'service.s')];
    expect(criticalPath(actions, 1)).toEqual({ ms: 6000, path: ['a1', 'a2'] });
  });

  it('runs independent actions in parallel: width does not add up', () => {
    const actions = Array.from({ length: 100 }, (_, i) => action(`a${i}`, 'resizeService', `service.s${i}`));
    expect(criticalPath(actions, 1).ms).toBe(3000);
  });

  it('counts a wait that ends at once as one poll tick, and no-wait ops as nothing', () => {
    const actions = [action('a1', 'deleteVPCPeering', 'peering.v.p'), action('a2', 'deleteVPC', 'vpc.v', ['a1'])];
    expect(criticalPath(actions, 1).ms).toBe(0);
    expect(quantizedCriticalPath(actions, 1, 50).ms).toBe(50);
  });

  it('rejects unknown dependencies and cycles', () => {
    expect(() => longestPath([action('a1', 'createVPC', 'vpc.v', ['zz'])], () => 1)).toThrow(/unknown action zz/);
    expect(() => longestPath([action('a1', 'createVPC', 'vpc.a', ['a2']), action('a2', 'createVPC', 'vpc.b', ['a1'])], () => 1)).toThrow(/cycle/);
  });

  it('is zero for an empty plan', () => {
    expect(longestPath([], () => 1)).toEqual({ ms: 0, path: [] });
  });
});
