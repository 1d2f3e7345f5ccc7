import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WorkingState } from '../../../src/state/working-state.js';
import { emptyLockfile, parseLockfileJson, type Lockfile } from '../../../src/model/index.js';
import { removeTempDirs, tempDir } from '../../support/temp-dir.js';

afterAll(removeTempDirs);

const lockstoreDir = () => tempDir('dbform-lockstore-');
const readLock = (path: string) => {
  const parsed = parseLockfileJson(JSON.parse(readFileSync(path, 'utf8')));
  if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
  return parsed.value;
};

describe('WorkingState', () => {
  it('keeps every entry when many binds run concurrently', async () => {
    const path = join(lockstoreDir(), 'dbform.lock.json');
    const store = new WorkingState(path, emptyLockfile('proj-demo'));
    await Promise.all(Array.from({ length: 50 }, (_, i) => store.bind(`service.s${i}`, `id${i}`)));
    const lock = readLock(path);
    expect(Object.keys(lock.resources)).toHaveLength(50);
    expect(lock.resources['service.s49']).toEqual({ id: 'id49' });
    // No temp files are left behind by the atomic writes.
    expect(readdirSync(join(path, '..'))).toEqual(['dbform.lock.json']);
  });

  it('coalesces writes issued while one is in flight and never writes an older snapshot last', async () => {
    const writes: Lockfile[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const store = new WorkingState('x', emptyLockfile('p'), async (_p, lock) => {
      writes.push(lock);
      if (writes.length === 1) await gate;
    });
    const first = store.bind('vpc.a', '1');
    while (writes.length === 0) await new Promise((r) => setTimeout(r, 1));
    const second = store.bind('vpc.b', '2');
    const third = store.bind('vpc.c', '3');
    release();
    await Promise.all([first, second, third]);
    expect(writes).toHaveLength(2);
    expect(Object.keys(writes[0]!.resources)).toEqual(['vpc.a']);
    expect(Object.keys(writes[1]!.resources).sort()).toEqual(['vpc.a', 'vpc.b', 'vpc.c']);
  });

  it('records password versions and protect, moves and removes entries', async () => {
    const path = join(lockstoreDir(), 'dbform.lock.json');
    const store = new WorkingState(path, { version: 1, projectId: 'p', resources: { 'service.old': { id: 'abc', protect: true } } });
    await store.move('service.old', 'service.new');
    await store.update('service.new', { passwordVersion: 2 });
    await store.bind('vpc.main', '123', { protect: false });
    await store.remove('vpc.main');
    expect(readLock(path).resources).toEqual({ 'service.new': { id: 'abc', protect: true, passwordVersion: 2 } });
  });

  it('keeps protect and password_version when a bind repeats the same ID, drops them for a new ID', async () => {
    const store = new WorkingState('unused', emptyLockfile('p'), async () => undefined);
    await store.bind('service.db', 'one', { protect: true, passwordVersion: 1 });
    await store.bind('service.db', 'one');
    expect(store.get('service.db')).toEqual({ id: 'one', protect: true, passwordVersion: 1 });
    await store.bind('service.db', 'two');
    expect(store.get('service.db')).toEqual({ id: 'two' });
  });

  it('every write keeps the lineage and increments the serial, from the one the lockfile had', async () => {
    const path = join(tempDir(), 'dbform.lock.json');
    const store = new WorkingState(path, { version: 1, projectId: 'p', lineage: 'aaaaaaaa-1111-4222-8333-444444444444', serial: 7, resources: {} });
    await store.bind('vpc.a', '1');
    expect(readLock(path)).toMatchObject({ lineage: 'aaaaaaaa-1111-4222-8333-444444444444', serial: 8 });
    await store.bind('vpc.b', '2');
    await store.remove('vpc.a');
    expect(readLock(path)).toEqual({ version: 1, projectId: 'p', lineage: 'aaaaaaaa-1111-4222-8333-444444444444', serial: 10, resources: { 'vpc.b': { id: '2' } } });
    expect(store.snapshot()).toMatchObject({ serial: 10 });
  });

  it('gives a new state its lineage on the first write and keeps it', async () => {
    const path = join(tempDir(), 'dbform.lock.json');
    const store = new WorkingState(path, emptyLockfile('p'));
    await store.bind('vpc.a', '1');
    const { lineage } = readLock(path);
    expect(lineage).toMatch(/^[0-9a-f-]{36}$/);
    await store.bind('vpc.b', '2');
    expect(readLock(path)).toMatchObject({ lineage, serial: 2 });
  });

  it('reports a failed write to the caller and still writes later changes', async () => {
    let fail = true;
    const written: Lockfile[] = [];
    const store = new WorkingState('x', emptyLockfile('p'), async (_p, lock) => {
      if (fail) throw new Error('disk full');
      written.push(lock);
    });
    await expect(store.bind('vpc.a', '1')).rejects.toThrow('disk full');
    fail = false;
    await store.bind('vpc.b', '2');
    expect(Object.keys(written[0]!.resources).sort()).toEqual(['vpc.a', 'vpc.b']);
  });
});
