// The file store: the state port over the lockfile file, one file per workspace, history as JSON lines.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emptyLockfile, type Lockfile } from '../../../src/model/index.js';
import {
  ClaimConflictError,
  FileStateStore,
  StateConflictError,
  StateLockHeldError,
  WorkspaceNotEmptyError,
  newHistoryId,
  newLineage,
  versionOf,
  workspaceLockfilePath,
  type HistoryRecord,
  type LockHolderInfo,
} from '../../../src/state/index.js';
import { thisProcess } from '../../../src/cli/local-process.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'dbform-filestore-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function store(workspace = 'default', projectId = 'proj-f'): FileStateStore {
  return new FileStateStore({ lockfilePath: join(dir, 'dbform.lock.json'), projectId, workspace, historyPath: join(dir, '.dbform', 'history.jsonl'), lockPollMs: 20, owner: thisProcess() });
}

function lockWith(resources: Record<string, string>, projectId = 'proj-f'): Lockfile {
  const lock = emptyLockfile(projectId);
  for (const [address, id] of Object.entries(resources)) lock.resources[address] = { id };
  return lock;
}

const holder: LockHolderInfo = { pid: process.pid, host: 'h', user: 'u', command: 'dbform apply', startedAt: '2026-01-01T00:00:00.000Z', ciRun: null };

describe('file store', () => {
  it('names workspace files beside the default lockfile', () => {
    expect(workspaceLockfilePath('/x/dbform.lock.json', 'default')).toBe('/x/dbform.lock.json');
    expect(workspaceLockfilePath('/x/dbform.lock.json', 'pr-12')).toBe('/x/dbform.pr-12.lock.json');
    expect(workspaceLockfilePath('/x/prod.json', 'dev')).toBe('/x/prod.dev.json');
    expect(store('pr-12').location).toBe(join(dir, 'dbform.pr-12.lock.json'));
  });

  it('writes the lockfile with lineage and serial, and reads it back', async () => {
    const s = store();
    expect(versionOf((await s.read()).lockfile)).toEqual({ lineage: null, serial: 0 });
    const lineage = newLineage();
    await s.write({ ...lockWith({ 'vpc.main': '123', 'service.db': 'abcdefghij' }), lineage, serial: 1 }, { lineage: null, serial: 0 });
    expect(readFileSync(join(dir, 'dbform.lock.json'), 'utf8')).toBe(
      `{\n  "version": 1,\n  "project_id": "proj-f",\n  "lineage": "${lineage}",\n  "serial": 1,\n  "resources": {\n` +
        `    "vpc.main": {\n      "id": "123"\n    },\n    "service.db": {\n      "id": "abcdefghij"\n    }\n  }\n}\n`,
    );
    expect((await s.read()).lockfile).toMatchObject({ lineage, serial: 1, resources: { 'vpc.main': { id: '123' } } });
  });

  it('reads a lockfile of before lineage/serial as serial 0, and upgrades it on its first write', async () => {
    writeFileSync(join(dir, 'dbform.lock.json'), '{"version":1,"project_id":"proj-f","resources":{"vpc.a":{"id":"9"}}}');
    const s = store();
    const snap = await s.read();
    expect(versionOf(snap.lockfile)).toEqual({ lineage: null, serial: 0 });
    expect(snap.lockfile.resources).toEqual({ 'vpc.a': { id: '9' } });
    const lineage = newLineage();
    await s.write({ ...snap.lockfile, lineage, serial: 1 }, versionOf(snap.lockfile));
    expect(JSON.parse(readFileSync(join(dir, 'dbform.lock.json'), 'utf8'))).toMatchObject({ lineage, serial: 1 });
  });

  it('a write over a file that changed since it was read is refused and changes nothing', async () => {
    const s = store();
    const lineage = newLineage();
    await s.write({ ...lockWith({}), lineage, serial: 1 }, { lineage: null, serial: 0 });
    await s.write({ ...lockWith({ 'vpc.a': '1' }), lineage, serial: 2 }, { lineage, serial: 1 });
    const before = readFileSync(s.location, 'utf8');
    await expect(s.write({ ...lockWith({ 'vpc.b': '2' }), lineage, serial: 2 }, { lineage, serial: 1 })).rejects.toBeInstanceOf(StateConflictError);
    expect(readFileSync(s.location, 'utf8')).toBe(before);
  });

  it('an ID bound by another workspace is reported by read and refused by write', async () => {
    await store('alpha').write({ ...lockWith({ 'service.app': 'svc0000001' }), lineage: newLineage(), serial: 1 }, { lineage: null, serial: 0 });
    const beta = store('beta');
    expect((await beta.read()).claimedElsewhere.get('svc0000001')).toEqual({ workspace: 'alpha', address: 'service.app' });
    const err = await beta.write({ ...lockWith({ 'service.x': 'svc0000001' }), lineage: newLineage(), serial: 1 }, { lineage: null, serial: 0 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ClaimConflictError);
    expect((err as Error).message).toMatch(/^resource ID svc0000001 \(service.x\) is already bound to service.app in workspace "alpha"/);
    expect(existsSync(beta.location)).toBe(false);
  });

  it('locks with <lockfile>.lock; a second locker fails, or waits with a timeout', async () => {
    const s = store('wsl');
    const lock = await s.lock(holder, { timeoutMs: 0 });
    expect(existsSync(`${s.location}.lock`)).toBe(true);
    await expect(store('wsl').lock(holder, { timeoutMs: 0 })).rejects.toBeInstanceOf(StateLockHeldError);
    const waiting = store('wsl').lock(holder, { timeoutMs: 5000 });
    setTimeout(() => void lock.release(), 100);
    const second = await waiting;
    await second.release();
    expect(existsSync(`${s.location}.lock`)).toBe(false);
  });

  it('state unlock clears the lock of a process of this host that is gone, and keeps a live one', async () => {
    const s = store();
    const lock = await s.lock(holder, { timeoutMs: 0 });
    expect(await s.unlock()).toMatchObject({ alive: true, cleared: false, holder: { pid: process.pid } });
    await lock.release();
    const { hostname } = await import('node:os');
    writeFileSync(`${s.location}.lock`, JSON.stringify({ pid: 999999, host: hostname(), started_at: 'then', command: 'dbform apply' }));
    expect(await s.unlock()).toMatchObject({ alive: false, cleared: true, holder: { pid: 999999 } });
    expect(existsSync(`${s.location}.lock`)).toBe(false);
  });

  it('history: JSON lines in .dbform/history.jsonl, newest first per workspace', async () => {
    const rec = (workspace: string, startedAt: string): HistoryRecord => ({
      id: newHistoryId(), workspace, user: 'u', host: 'h', ciRun: null, command: 'dbform apply', startedAt, finishedAt: startedAt,
      configHash: null, serialBefore: 0, serialAfter: 1, exitCode: 0, actions: [{ address: 'vpc.a', op: 'createVPC', outcome: 'done', id: '1' }],
    });
    const a1 = rec('default', '2026-01-01T00:00:00.000Z');
    const a2 = rec('default', '2026-01-02T00:00:00.000Z');
    await store().appendHistory(a1);
    await store('other').appendHistory(rec('other', '2026-01-03T00:00:00.000Z'));
    await store().appendHistory(a2);
    await store().appendHistory(a2);
    expect(readFileSync(join(dir, '.dbform', 'history.jsonl'), 'utf8').trim().split('\n')).toHaveLength(3);
    expect(await store().readHistory()).toEqual([a2, a1]);
    expect(await store().readHistory(1)).toEqual([a2]);
  });

  it('lists workspaces and deletes only an empty one', async () => {
    await store().write({ ...lockWith({ 'vpc.a': '1' }), lineage: newLineage(), serial: 1 }, { lineage: null, serial: 0 });
    await store('pr-1').write({ ...lockWith({}), lineage: newLineage(), serial: 1 }, { lineage: null, serial: 0 });
    await store('pr-2').write({ ...lockWith({ 'vpc.b': '2' }), lineage: newLineage(), serial: 1 }, { lineage: null, serial: 0 });
    expect((await store().listWorkspaces()).map((w) => [w.workspace, w.resources])).toEqual([['default', 1], ['pr-1', 0], ['pr-2', 1]]);
    await expect(store().deleteWorkspace('pr-2')).rejects.toBeInstanceOf(WorkspaceNotEmptyError);
    await store().deleteWorkspace('pr-1');
    expect(existsSync(join(dir, 'dbform.pr-1.lock.json'))).toBe(false);
    expect((await store().listWorkspaces()).map((w) => w.workspace)).toEqual(['default', 'pr-2']);
  });
});
