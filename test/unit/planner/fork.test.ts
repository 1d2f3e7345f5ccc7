// Forks (SPEC sections 1 and 3, issue 12): a parent named by an ID the state binds is the key
// form; an unmanaged parent must be READY; a PITR target time must lie between the parent's
// creation and now.
import { describe, expect, it } from 'vitest';
import type { DesiredFork } from '../../../src/model/index.js';
import { action, dependsOn, desiredService, desiredState, errors, liveService, liveState, lockfile, ops, plan, warnings } from './builders.js';

const NOW = Date.parse('2026-06-01T12:00:00Z');
const byKey: DesiredFork = { from: { key: 'db' }, strategy: 'LAST_SNAPSHOT' };
const byId: DesiredFork = { from: { serviceId: 'svc-db' }, strategy: 'LAST_SNAPSHOT' };

describe('a fork parent given by ID', () => {
  const pausedParent = (fork: DesiredFork) =>
    plan(
      desiredState({ services: [desiredService('db'), desiredService('preview', { fork })] }),
      liveState({ services: [liveService('db', { status: 'PAUSED' })] }),
      lockfile({ 'service.db': 'svc-db' }),
    );

  it('that the state binds to a paused service plans start, fork, stop exactly like the key form', () => {
    const keyed = pausedParent(byKey);
    const p = pausedParent(byId);
    expect(errors(p)).toEqual([]);
    expect(ops(p)).toEqual(ops(keyed));
    expect(ops(p)).toEqual(['service.db startService', 'service.preview forkService', 'service.db stopService']);
    const [start, fork, stop] = [action(p, 'service.db', 'startService'), action(p, 'service.preview', 'forkService'), action(p, 'service.db', 'stopService')];
    expect(dependsOn(p, fork, start)).toBe(true);
    expect(dependsOn(p, stop, fork)).toBe(true);
    expect(fork.refs.forkParent).toEqual({ address: 'service.db', id: 'svc-db' });
    expect(fork.refs.forkParent).toEqual(action(keyed, 'service.preview', 'forkService').refs.forkParent);
    expect(warnings(p)).toEqual(warnings(keyed));
  });

  it('that this plan adopts by name is managed too', () => {
    const p = plan(
      desiredState({ services: [desiredService('db'), desiredService('preview', { fork: byId })] }),
      liveState({ services: [liveService('db', { status: 'PAUSED' })] }),
      lockfile(),
    );
    expect(errors(p)).toEqual([]);
    expect(ops(p)).toEqual(['service.db startService', 'service.preview forkService', 'service.db stopService']);
  });

  it('that the state binds waits for a parent created again in the same plan (replace)', () => {
    const p = plan(
      desiredState({ services: [desiredService('db'), desiredService('preview', { fork: byId })] }),
      liveState({ services: [liveService('db')] }),
      lockfile({ 'service.db': 'svc-db' }),
      { replace: ['service.db'], allowDataLoss: true },
    );
    expect(errors(p)).toEqual([]);
    const fork = action(p, 'service.preview', 'forkService');
    expect(dependsOn(p, fork, action(p, 'service.db', 'createService'))).toBe(true);
    expect(fork.refs.forkParent).toEqual({ address: 'service.db' });
  });

  it.each(['PAUSED', 'PAUSING', 'QUEUED', 'CONFIGURING', 'UPGRADING', 'UNSTABLE'])('that dbform does not manage, %s, is a plan error', (status) => {
    const p = plan(desiredState({ services: [desiredService('preview', { fork: { from: { serviceId: 'strangerid' }, strategy: 'NOW' } })] }), liveState({ services: [liveService('stranger', { id: 'strangerid', status })] }), lockfile());
    expect(errors(p)).toEqual([
      `fork.from: { service_id: "strangerid" } is ${status}, and forkService needs its parent READY; dbform does not manage that service, so it will not start it: make it READY first, or manage it in this config and fork from its key`,
    ]);
    expect(p.diagnostics[0]).toMatchObject({ address: 'service.preview', code: 'fork-parent' });
  });

  it('that dbform does not manage, READY, is forked as it is', () => {
    const p = plan(desiredState({ services: [desiredService('preview', { fork: { from: { serviceId: 'strangerid' }, strategy: 'NOW' } })] }), liveState({ services: [liveService('stranger', { id: 'strangerid' })] }), lockfile());
    expect(errors(p)).toEqual([]);
    expect(ops(p)).toEqual(['service.preview forkService']);
    expect(action(p, 'service.preview', 'forkService').refs.forkParent).toEqual({ id: 'strangerid' });
  });

  it('that the lockfile binds to an address this plan deletes is a plan error', () => {
    const p = plan(desiredState({ services: [desiredService('preview', { fork: byId })] }), liveState({ services: [liveService('db')] }), lockfile({ 'service.old': 'svc-db' }));
    expect(errors(p)).toEqual([
      'fork.from: { service_id: "svc-db" } is service.old in the state, which this plan deletes (it is no longer in the config); keep it in the config until the fork exists, or fork from another service',
    ]);
  });
});

describe('a PITR target_time', () => {
  const pitr = (targetTime: string, from: DesiredFork['from'] = { key: 'db' }): DesiredFork => ({ from, strategy: 'PITR', targetTime });
  const live = liveState({ services: [liveService('db', { created: '2026-01-01T00:00:00Z' })] });
  const withParent = (fork: DesiredFork, options: { now?: number } = { now: NOW }) =>
    plan(desiredState({ services: [desiredService('db'), desiredService('preview', { fork })] }), live, lockfile({ 'service.db': 'svc-db' }), options);

  it('between the parent creation and now plans the fork', () => {
    const p = withParent(pitr('2026-03-01T00:00:00Z'));
    expect(errors(p)).toEqual([]);
    expect(action(p, 'service.preview', 'forkService').request).toMatchObject({ target_time: '2026-03-01T00:00:00Z' });
  });

  it('before the live parent was created is an error naming both times', () => {
    const p = withParent(pitr('2025-12-31T23:59:59Z'));
    expect(errors(p)).toEqual([
      'fork.target_time 2025-12-31T23:59:59Z of service.preview is before its parent service.db (svc-db) was created (2026-01-01T00:00:00Z); a point-in-time fork restores to a moment since then',
    ]);
    expect(p.diagnostics[0]).toMatchObject({ address: 'service.preview', code: 'fork-target-time' });
  });

  it('before the creation of a parent given by ID is an error too (offsets are compared as instants)', () => {
    const p = plan(
      desiredState({ services: [desiredService('preview', { fork: pitr('2026-01-01T00:30:00+01:00', { serviceId: 'strangerid' }) })] }),
      liveState({ services: [liveService('stranger', { id: 'strangerid', created: '2026-01-01T00:00:00Z' })] }),
      lockfile(),
      { now: NOW },
    );
    expect(errors(p)).toEqual([
      'fork.target_time 2026-01-01T00:30:00+01:00 of service.preview is before its parent service strangerid was created (2026-01-01T00:00:00Z); a point-in-time fork restores to a moment since then',
    ]);
  });

  it('in the future is an error naming now', () => {
    const p = withParent(pitr('2026-06-01T12:00:01Z'));
    expect(errors(p)).toEqual([
      'fork.target_time 2026-06-01T12:00:01Z of service.preview is not in the past (now is 2026-06-01T12:00:00Z); a point-in-time fork restores to a moment that has happened',
    ]);
  });

  it('is checked against now only when the caller gives now (the planner has no clock)', () => {
    expect(errors(withParent(pitr('2099-01-01T00:00:00Z'), {}))).toEqual([]);
  });

  it('of a parent created in the same plan is checked against now only', () => {
    const fresh = (targetTime: string) => plan(desiredState({ services: [desiredService('db'), desiredService('preview', { fork: pitr(targetTime) })] }), liveState(), lockfile(), { now: NOW });
    expect(errors(fresh('2020-01-01T00:00:00Z'))).toEqual([]);
    expect(errors(fresh('2027-01-01T00:00:00Z'))).toEqual([
      'fork.target_time 2027-01-01T00:00:00Z of service.preview is not in the past (now is 2026-06-01T12:00:00Z); a point-in-time fork restores to a moment that has happened',
    ]);
  });
});
