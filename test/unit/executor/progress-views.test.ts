import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ActionError } from '../../../src/executor/errors.js';
import type { ApplyEvent } from '../../../src/executor/events.js';
import { emptyResult, type ApplyResult } from '../../../src/executor/result.js';
import { createPaint } from '../../../src/cli/progress/paint.js';
import { createPlainView, describeEvent } from '../../../src/cli/progress/plain-view.js';
import { createTtyView, cutMiddle } from '../../../src/cli/progress/tty-view.js';
import { renderSummary } from '../../../src/cli/progress/summary.js';
import { exitCodeOf } from '../../../src/app/run-plan.js';
import type { Action } from '../../../src/model/index.js';
import { FakeTimers } from '../../support/fake-timers.js';

const T0 = Date.parse('2026-11-22T10:00:00Z');
const db = { id: 'a1', address: 'service.db', op: 'createService' as const };
const rs = { id: 'a2', address: 'replica_set.db.r', op: 'createReplicaSet' as const };

function capture() {
  const out = new PassThrough();
  let text = '';
  out.on('data', (d: Buffer) => (text += d.toString('utf8')));
  return { out, text: () => text };
}

function fullAction(ref: { id: string; address: string; op: Action['op'] }, extra: Partial<Action> = {}): Action {
  return { ...ref, kind: 'service', reason: 'missing', risk: 'none', dependsOn: [], changes: [], refs: {}, ...extra };
}

function sampleResult(): ApplyResult {
  const r = emptyResult();
  r.done.push({ action: fullAction({ id: 'a0', address: 'vpc.main', op: 'createVPC' }), resourceId: '1234567890' });
  r.failed.push(new ActionError('service.db', 'createService', new Error('409 CONFLICT: name taken')));
  r.skipped.push({ action: fullAction(rs), reason: 'upstream-failed', root: db });
  r.blocked.push(fullAction({ id: 'a9', address: 'service.keep', op: 'deleteService' }, { blocked: 'service.keep is protected' }));
  return r;
}

describe('plain view', () => {
  it('prints one timestamped line per state change, deduplicating repeated statuses', () => {
    const { out, text } = capture();
    const view = createPlainView({ out, paint: createPaint(false) });
    const events: ApplyEvent[] = [
      { type: 'action-start', at: T0, action: db },
      { type: 'action-status', at: T0, action: db, status: 'QUEUED' },
      { type: 'action-status', at: T0 + 500, action: db, status: 'QUEUED' },
      { type: 'action-status', at: T0 + 1000, action: db, status: 'READY' },
      { type: 'action-done', at: T0 + 1000, action: db, elapsedMs: 1000, resourceId: 'kd9w2xp4mz' },
      { type: 'action-skipped', at: T0 + 1000, action: rs, reason: 'upstream-failed', root: db },
    ];
    for (const e of events) view.emit(e);
    expect(text().split('\n')).toEqual([
      '2026-11-22T10:00:00Z service.db createService started',
      '2026-11-22T10:00:00Z service.db createService QUEUED',
      '2026-11-22T10:00:01Z service.db createService READY',
      '2026-11-22T10:00:01Z service.db createService done (id kd9w2xp4mz, 1s)',
      '2026-11-22T10:00:01Z replica_set.db.r createReplicaSet skipped: upstream createService service.db failed',
      '',
    ]);
  });

  it('a wait with no progress says in one line what it waits for, naming a status dbform does not know', () => {
    const { out, text } = capture();
    const view = createPlainView({ out, paint: createPaint(false) });
    view.emit({ type: 'action-waiting', at: T0 + 60_000, action: db, waitingFor: 'service kd9w2xp4mz to be READY', status: 'MAINTENANCE', forMs: 60_000, knownStatus: false });
    view.emit({ type: 'action-waiting', at: T0 + 61_000, action: db, waitingFor: 'VPC 1234567890 to be created', status: 'CREATING', forMs: 60_000, knownStatus: true });
    view.emit({ type: 'action-waiting', at: T0 + 62_000, action: db, waitingFor: 'service kd9w2xp4mz to be READY', forMs: 61_000, knownStatus: true });
    expect(text().split('\n')).toEqual([
      '2026-11-22T10:01:00Z service.db createService still waiting for service kd9w2xp4mz to be READY: status MAINTENANCE (a status dbform does not know) for 1m00s; waiting up to --timeout',
      '2026-11-22T10:01:01Z service.db createService still waiting for VPC 1234567890 to be created: status CREATING for 1m00s; waiting up to --timeout',
      '2026-11-22T10:01:02Z service.db createService still waiting for service kd9w2xp4mz to be READY: no status seen yet for 1m01s; waiting up to --timeout',
      '',
    ]);
  });
});

describe('summary', () => {
  it('lists done, failed with the API message, skipped naming the root, and blocked', () => {
    const lines = renderSummary(sampleResult(), createPaint(false));
    expect(lines).toEqual([
      'Apply finished with errors: 1 created, 0 updated, 0 deleted, 0 replaced.',
      '  + vpc.main (1234567890)',
      'Actions: 1 done, 1 failed, 1 skipped, 1 blocked.',
      'Failed:',
      '  ✗ service.db createService: 409 CONFLICT: name taken',
      'Skipped:',
      '  - replica_set.db.r createReplicaSet: upstream createService service.db failed',
      'Blocked:',
      '  ! service.keep deleteService: service.keep is protected',
    ]);
  });

  it('says how to resume after an interruption', () => {
    const r = emptyResult();
    r.interrupted = true;
    r.skipped.push({ action: fullAction(rs), reason: 'interrupted' });
    const lines = renderSummary(r, createPaint(false));
    expect(lines).toEqual([
      'Apply interrupted: 0 created, 0 updated, 0 deleted, 0 replaced.',
      'Actions: 0 done, 0 failed, 1 skipped (not started), 0 blocked.',
      'Not started (interrupted):',
      '  - replica_set.db.r createReplicaSet',
    ]);
    // The resume advice is said once, by the command's closing error, not here as well.
    expect(lines.join('\n')).not.toMatch(/run the same command again/);
  });

  it('counts actions sent before the interruption on their own, with their IDs, not as skipped', () => {
    const r = emptyResult();
    r.interrupted = true;
    r.abandoned.push({ action: fullAction(db), resourceId: 'kd9w2xp4mz' });
    r.skipped.push({ action: fullAction(rs), reason: 'interrupted' });
    expect(renderSummary(r, createPaint(false))).toEqual([
      'Apply interrupted: 0 created, 0 updated, 0 deleted, 0 replaced.',
      'Actions: 0 done, 1 sent (wait abandoned), 0 failed, 1 skipped (not started), 0 blocked.',
      'Sent, wait abandoned (the cloud finishes these; the next run picks them up):',
      '  … service.db createService (kd9w2xp4mz)',
      'Not started (interrupted):',
      '  - replica_set.db.r createReplicaSet',
    ]);
    const plain = describeEvent({ type: 'action-abandoned', at: T0, action: db, elapsedMs: 2000, resourceId: 'kd9w2xp4mz' }, createPaint(false));
    expect(plain).toBe('sent; wait abandoned (id kd9w2xp4mz, interrupted after 2s)');
  });
});

describe('summary: resources first', () => {
  const done = (id: string, address: string, op: Action['op'], resourceId?: string, adopted?: boolean) => ({
    action: fullAction({ id, address, op }),
    ...(resourceId ? { resourceId } : {}),
    ...(adopted ? { adopted } : {}),
  });

  it('groups done actions by resource: created, updated (its operations once), deleted, replaced', () => {
    const r = emptyResult();
    r.done.push(
      done('a1', 'vpc.main', 'createVPC', '1234567890'),
      done('a2', 'service.db', 'resizeService'),
      done('a3', 'service.db', 'setHAReplica'),
      done('a4', 'service.db', 'resizeService'),
      done('a5', 'replica_set.db.r', 'deleteReplicaSet'),
      done('a6', 'replica_set.db.r', 'createReplicaSet', 'rs-new'),
      done('a7', 'service.old', 'deleteService'),
      done('a8', 'service.new', 'createService', 'kd9w2xp4mz', true),
      done('a9', 'service.new', 'updatePassword'),
    );
    r.bindingsApplied = 2;
    expect(renderSummary(r, createPaint(false))).toEqual([
      'Apply complete: 2 created, 1 updated, 1 deleted, 1 replaced.',
      '  + vpc.main (1234567890)',
      '  + service.new (adopted kd9w2xp4mz)',
      '  ~ service.db (resizeService, setHAReplica)',
      '  - service.old',
      '  -/+ replica_set.db.r (rs-new)',
      'Actions: 9 done, 0 failed, 0 skipped, 0 blocked; 2 state binding(s) written.',
    ]);
  });

  it('stays short for a large apply: 20 resources of a kind by address, the rest counted', () => {
    const r = emptyResult();
    for (let i = 0; i < 25; i++) r.done.push(done(`c${i}`, `service.s${i}`, 'createService', `id${i}`), done(`p${i}`, `service.s${i}`, 'enablePooler'));
    const lines = renderSummary(r, createPaint(false), 'Destroy');
    expect(lines[0]).toBe('Destroy complete: 25 created, 0 updated, 0 deleted, 0 replaced.');
    expect(lines.slice(1, 21)).toEqual(Array.from({ length: 20 }, (_, i) => `  + service.s${i} (id${i})`));
    expect(lines.slice(21)).toEqual(['  ... and 5 more created', 'Actions: 50 done, 0 failed, 0 skipped, 0 blocked.']);
  });

  it('lists failed, skipped and abandoned actions one by one below the resources', () => {
    const r = sampleResult();
    r.abandoned.push({ action: fullAction({ id: 'a7', address: 'service.slow', op: 'resizeService' }) });
    const lines = renderSummary(r, createPaint(false));
    expect(lines.indexOf('  + vpc.main (1234567890)')).toBeLessThan(lines.findIndex((l) => l.startsWith('Actions: ')));
    expect(lines.slice(lines.findIndex((l) => l.startsWith('Actions: ')) + 1)).toEqual([
      'Sent, wait abandoned (the cloud finishes these; the next run picks them up):',
      '  … service.slow resizeService',
      'Failed:',
      '  ✗ service.db createService: 409 CONFLICT: name taken',
      'Skipped:',
      '  - replica_set.db.r createReplicaSet: upstream createService service.db failed',
      'Blocked:',
      '  ! service.keep deleteService: service.keep is protected',
    ]);
  });
});

describe('failure lines', () => {
  it('name the address and op once, in the order of the other lists, then the cause', () => {
    const err = new ActionError('peering.main.vpc-bad', 'createVPCPeering', new Error('peer account "12345" is not a 12-digit cloud account ID'));
    const line = describeEvent({ type: 'action-failed', at: T0, action: { id: 'p', address: err.address, op: err.op }, elapsedMs: 270, message: err.message }, createPaint(false));
    expect(line).toBe('failed after 270ms: peer account "12345" is not a 12-digit cloud account ID');
    const r = emptyResult();
    r.failed.push(err);
    expect(renderSummary(r, createPaint(false))).toContain('  ✗ peering.main.vpc-bad createVPCPeering: peer account "12345" is not a 12-digit cloud account ID');
  });

  it('counts skipped actions as not started only for those the interrupt stopped', () => {
    const r = emptyResult();
    r.interrupted = true;
    r.skipped.push({ action: fullAction(rs), reason: 'interrupted' }, { action: fullAction({ id: 'a5', address: 'service.x', op: 'createService' }), reason: 'upstream-failed', root: db });
    expect(renderSummary(r, createPaint(false)).slice(0, 2)).toEqual([
      'Apply interrupted: 0 created, 0 updated, 0 deleted, 0 replaced.',
      'Actions: 0 done, 0 failed, 2 skipped (1 not started), 0 blocked.',
    ]);
  });
});

describe('the closing error', () => {
  const failedResult = () => {
    const r = emptyResult();
    r.failed.push(new ActionError('service.db', 'createService', new Error('409 CONFLICT: name taken')));
    r.skipped.push({ action: fullAction(rs), reason: 'upstream-failed', root: db });
    return r;
  };

  it('does not repeat the Failed: list that is on screen just above', () => {
    expect(() => exitCodeOf('apply', failedResult(), true)).toThrow(/^apply failed: 1 action\(s\) failed, listed under Failed: above \(1 dependent action\(s\) skipped\)$/);
  });

  it('names each failure once when stdout goes to a log', () => {
    expect(() => exitCodeOf('apply', failedResult(), false)).toThrow(
      /^apply failed: 1 action\(s\) failed \(1 dependent action\(s\) skipped\):\n {2}service\.db createService: 409 CONFLICT: name taken$/,
    );
  });

  it('closes an interrupted run with the one resume sentence, exit 130', () => {
    const r = emptyResult();
    r.interrupted = true;
    expect(() => exitCodeOf('destroy', r)).toThrow(expect.objectContaining({ exitCode: 130, message: expect.stringMatching(/^destroy interrupted; .*Run the same command again to resume\.$/) }));
  });
});

// On fake time: each redraw is checked at its exact moment, however loaded the machine is.
describe('TTY view', () => {
  it('redraws one live line per running action in place and prints finished ones above', async () => {
    const { out, text } = capture();
    let now = T0;
    const timers = new FakeTimers();
    const view = createTtyView({ out, paint: createPaint(false), timers, now: () => now, size: () => ({ columns: 80, rows: 24 }) });
    view.emit({ type: 'action-start', at: now, action: db });
    view.emit({ type: 'action-start', at: now, action: rs });
    now += 3000;
    view.emit({ type: 'action-status', at: now, action: db, status: 'CONFIGURING' });
    await timers.advance(150);
    const live = text();
    expect(live).toContain('  service.db        createService     CONFIGURING  3s\n');
    expect(live).toContain('  replica_set.db.r  createReplicaSet  starting  3s\n');
    view.emit({ type: 'action-done', at: now, action: db, elapsedMs: 3000 });
    view.emit({ type: 'summary', at: now, result: emptyResult() });
    const all = text();
    // The live region (2 lines) is erased before the finished line is printed above it.
    expect(all).toContain('\x1b[2A\r\x1b[Jservice.db createService done (3s)\n');
    expect(all.trimEnd().endsWith('Apply complete: 0 created, 0 updated, 0 deleted, 0 replaced.\nActions: 0 done, 0 failed, 0 skipped, 0 blocked.')).toBe(true);
    view.close();
  });

  it('draws at most every 100 ms however many events arrive', async () => {
    const { out, text } = capture();
    const timers = new FakeTimers();
    const view = createTtyView({ out, paint: createPaint(false), timers, size: () => ({ columns: 80, rows: 24 }) });
    view.emit({ type: 'action-start', at: timers.now(), action: db });
    for (let i = 0; i < 200; i++) view.emit({ type: 'action-status', at: timers.now(), action: db, status: `S${i}` });
    await timers.advance(120);
    const redraws = text().split('\r\x1b[J').length - 1;
    expect(redraws).toBeLessThanOrEqual(2);
    expect(text()).toContain('S199');
    view.close();
  });

  it('cuts live lines to the terminal width so redraws never wrap', async () => {
    const { out, text } = capture();
    const long = { id: 'a3', address: `service.${'x'.repeat(60)}`, op: 'resizeService' as const };
    const timers = new FakeTimers();
    const view = createTtyView({ out, paint: createPaint(false), timers, size: () => ({ columns: 40, rows: 24 }) });
    view.emit({ type: 'action-start', at: timers.now(), action: long });
    await timers.advance(120);
    const liveLine = text().split('\n').find((l) => l.includes('resizeService'))!;
    expect(liveLine).toContain('servic…xxxxx  resizeService');
    expect(liveLine.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '').replace('\r', '').length).toBeLessThanOrEqual(39);
    view.close();
  });

  it('in a narrow terminal cuts the address in the middle so op, status and elapsed stay visible', async () => {
    const { out, text } = capture();
    let now = T0;
    const a = { id: 'w1', address: 'service.analytics-warehouse-replica-01', op: 'createService' as const };
    const b = { id: 'w2', address: 'service.analytics-warehouse-replica-02', op: 'createService' as const };
    const timers = new FakeTimers();
    const view = createTtyView({ out, paint: createPaint(false), timers, now: () => now, size: () => ({ columns: 50, rows: 10 }) });
    view.emit({ type: 'action-start', at: now, action: a });
    view.emit({ type: 'action-start', at: now, action: b });
    now += 2000;
    view.emit({ type: 'action-status', at: now, action: a, status: 'CONFIGURING' });
    await timers.advance(150);
    const lines = text().replace(/\x1b\[[0-9;]*[A-Za-z]|\r/g, '').split('\n').filter((l) => l.includes('createService'));
    expect(lines.at(-2)).toBe('  service…lica-01  createService  CONFIGURING  2s');
    expect(lines.at(-1)).toBe('  service…lica-02  createService  starting  2s');
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(49);
    view.close();
  });

  it('redraws every second without events, so elapsed times move; close stops every timer', async () => {
    const { out, text } = capture();
    const timers = new FakeTimers();
    const view = createTtyView({ out, paint: createPaint(false), timers, size: () => ({ columns: 80, rows: 24 }) });
    view.emit({ type: 'action-start', at: timers.now(), action: db });
    await timers.advance(150);
    expect(text()).toContain('createService  starting  0ms\n');
    expect(text()).not.toContain('starting  2s');
    await timers.advance(2000);
    expect(text()).toContain('createService  starting  2s\n');
    view.close();
    expect(timers.pending()).toEqual([]);
  });

  it('cutMiddle keeps both ends and the exact width', () => {
    expect(cutMiddle('service.analytics-warehouse-replica-03', 20)).toBe('service.an…eplica-03');
    expect(cutMiddle('service.analytics-warehouse-replica-03', 20)).toHaveLength(20);
    expect(cutMiddle('service.db', 20)).toBe('service.db');
  });

  it('erases the live region before a write to stderr, then redraws it below', async () => {
    const { out, text } = capture();
    const err = new PassThrough();
    const timers = new FakeTimers();
    const view = createTtyView({ out, paint: createPaint(false), timers, size: () => ({ columns: 80, rows: 24 }), shared: err });
    // Both streams append to one "screen", in the order they were written.
    let screen = '';
    out.on('data', (d: Buffer) => (screen += d.toString('utf8')));
    err.on('data', (d: Buffer) => (screen += d.toString('utf8')));
    view.emit({ type: 'action-start', at: timers.now(), action: db });
    view.emit({ type: 'action-start', at: timers.now(), action: rs });
    await timers.advance(150);
    err.write('[api] GET /projects/p/services 200\n');
    await timers.advance(150);
    expect(screen).toMatch(/createReplicaSet  starting  \d+m?s\n\x1b\[2A\r\x1b\[J\[api\] GET \/projects\/p\/services 200\n\r\x1b\[J  service\.db/);
    view.close();
    // Closed: the stream's own write is back and writes pass straight through.
    err.write('after\n');
    expect(screen.endsWith('after\n')).toBe(true);
    expect(text()).not.toContain('after');
  });

  it('erases the last frame on close, so an interrupted run leaves no stale live lines', async () => {
    const { out, text } = capture();
    const timers = new FakeTimers();
    const view = createTtyView({ out, paint: createPaint(false), timers, size: () => ({ columns: 80, rows: 24 }) });
    view.emit({ type: 'action-start', at: timers.now(), action: db });
    view.emit({ type: 'action-start', at: timers.now(), action: rs });
    await timers.advance(150);
    view.emit({ type: 'action-abandoned', at: timers.now(), action: db, elapsedMs: 2000 });
    const r = emptyResult();
    r.interrupted = true;
    view.emit({ type: 'summary', at: timers.now(), result: r });
    const all = text();
    // The region (2 lines) is erased, the abandoned line printed, and no live line drawn after it.
    expect(all).toMatch(/\x1b\[2A\r\x1b\[Jservice\.db createService sent; wait abandoned \(interrupted after 2s\)\nApply interrupted: /);
  });
});
