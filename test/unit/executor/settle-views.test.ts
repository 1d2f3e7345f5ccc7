// How the views show settle steps (SPEC section 5): waits for resources still changing, which
// send nothing, in the log and in the summary.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createPaint } from '../../../src/cli/progress/paint.js';
import { createPlainView } from '../../../src/cli/progress/plain-view.js';
import { renderSummary } from '../../../src/cli/progress/summary.js';
import type { ApplyEvent } from '../../../src/executor/events.js';
import { emptyResult, isSuccess } from '../../../src/executor/result.js';
import type { SettlingResource } from '../../../src/model/index.js';

const T0 = Date.parse('2026-11-22T10:00:00Z');
const ref = { id: 's1', address: 'service.db', op: 'settle' as const };
const db: SettlingResource = { address: 'service.db', kind: 'service', id: 'kd9w2xp4mz', status: 'QUEUED' };
const rs: SettlingResource = { address: 'replica_set.db.r', kind: 'replica_set', id: 'rs00000001', parentId: 'kd9w2xp4mz', status: 'creating' };

describe('settle steps', () => {
  it('the log shows the statuses waited out and the end, without a "started" line', () => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (d: Buffer) => (text += d.toString('utf8')));
    const view = createPlainView({ out, paint: createPaint(false) });
    const events: ApplyEvent[] = [
      { type: 'plan-start', at: T0, actions: 0, bindings: 0, parallelism: 10, settling: 1 },
      { type: 'action-start', at: T0, action: ref },
      { type: 'action-status', at: T0, action: ref, status: 'QUEUED' },
      { type: 'action-status', at: T0 + 1000, action: ref, status: 'CONFIGURING' },
      { type: 'action-status', at: T0 + 5000, action: ref, status: 'READY' },
      { type: 'action-done', at: T0 + 5000, action: ref, elapsedMs: 5000 },
      { type: 'action-abandoned', at: T0 + 5000, action: { ...ref, id: 's2', address: 'service.other' }, elapsedMs: 2000 },
    ];
    for (const e of events) view.emit(e);
    expect(text.split('\n')).toEqual([
      '2026-11-22T10:00:00Z apply started: 0 action(s), 0 state binding(s), 1 settling resource(s) to wait for, parallelism 10',
      '2026-11-22T10:00:00Z service.db settle QUEUED',
      '2026-11-22T10:00:01Z service.db settle CONFIGURING',
      '2026-11-22T10:00:05Z service.db settle READY',
      '2026-11-22T10:00:05Z service.db settle settled (5s)',
      '2026-11-22T10:00:05Z service.other settle wait abandoned (interrupted after 2s; the next apply waits again)',
      '',
    ]);
  });

  it('the summary counts and lists what settled, and what did not', () => {
    const r = emptyResult();
    r.settling.push({ resource: db, outcome: 'settled', status: 'READY' }, { resource: rs, outcome: 'abandoned', status: 'creating' });
    r.interrupted = true;
    expect(renderSummary(r, createPaint(false))).toEqual([
      'Apply interrupted: 0 created, 0 updated, 0 deleted, 0 replaced.',
      'Actions: 0 done, 1 settled, 0 failed, 0 skipped, 0 blocked.',
      'Settled (still changing when planned; waited for):',
      '  ✓ service.db QUEUED -> READY',
      'Not settled yet (the next apply waits for these):',
      '  … replica_set.db.r creating',
    ]);
    expect(isSuccess(r)).toBe(false);
  });

  it('a run without settling resources reads as before', () => {
    expect(renderSummary(emptyResult(), createPaint(false))).toEqual([
      'Apply complete: 0 created, 0 updated, 0 deleted, 0 replaced.',
      'Actions: 0 done, 0 failed, 0 skipped, 0 blocked.',
    ]);
  });

  it('only a settled resource counts as success', () => {
    const r = emptyResult();
    r.settling.push({ resource: db, outcome: 'settled', status: 'READY' });
    expect(isSuccess(r)).toBe(true);
    r.settling.push({ resource: rs, outcome: 'not-started', status: 'creating' });
    expect(isSuccess(r)).toBe(false);
  });
});
