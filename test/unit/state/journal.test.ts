// The local state journal: kept per (state, project, workspace), merged three ways on push.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Lockfile } from '../../../src/model/index.js';
import { mergeJournal, StateJournal, type JournalEntry } from '../../../src/state/journal.js';

const lock = (resources: Record<string, string>, serial = 1): Lockfile => ({
  version: 1,
  projectId: 'p',
  lineage: '11111111-1111-4111-8111-111111111111',
  serial,
  resources: Object.fromEntries(Object.entries(resources).map(([a, id]) => [a, { id }])),
});

const entry = (base: Lockfile, resources: Lockfile, workspace = 'default'): JournalEntry => ({
  state: 'postgres://u@h:5432/db',
  projectId: 'p',
  workspace,
  base,
  resources,
  savedAt: '2026-01-01T00:00:00.000Z',
});

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'dbform-journal-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('state journal', () => {
  it('keeps one entry per state, project and workspace; removing the last deletes the file', async () => {
    const j = new StateJournal(join(dir, '.dbform', 'state-journal.json'));
    await j.save(entry(lock({}), lock({ 'vpc.a': '1' })));
    await j.save(entry(lock({}), lock({ 'vpc.a': '1', 'vpc.b': '2' })));
    await j.save(entry(lock({}), lock({ 'vpc.c': '3' }), 'other'));
    expect((await j.read()).map((e) => [e.workspace, Object.keys(e.resources.resources)])).toEqual([
      ['default', ['vpc.a', 'vpc.b']],
      ['other', ['vpc.c']],
    ]);
    await j.remove({ state: 'postgres://u@h:5432/db', projectId: 'p', workspace: 'default' });
    await j.remove({ state: 'postgres://u@h:5432/db', projectId: 'p', workspace: 'other' });
    expect(await j.read()).toEqual([]);
  });

  it('replays what the run changed onto a state that moved on, and names an address changed both ways', () => {
    const base = lock({ 'vpc.a': '1', 'service.old': 'olddddddd1' });
    const ran = lock({ 'vpc.a': '1', 'service.new': 'newwwwwww1' });
    const moved = lock({ 'vpc.a': '1', 'service.old': 'olddddddd1', 'vpc.z': '9' }, 5);
    const merged = mergeJournal(moved, entry(base, ran));
    expect(merged.conflicts).toEqual([]);
    expect(merged.changed).toBe(2);
    expect(merged.merged.resources).toEqual({ 'vpc.a': { id: '1' }, 'vpc.z': { id: '9' }, 'service.new': { id: 'newwwwwww1' } });
    const clash = mergeJournal(lock({ 'vpc.a': '1', 'service.new': 'otherrrrr1' }), entry(base, ran));
    expect(clash.conflicts).toEqual(['service.new: the journal has newwwwwww1, the state now has otherrrrr1']);
  });
});
