// The pgpass file is rewritten, not only appended to: a configured password replaces a line, a
// deleted service's lines go. Rewrites must never lose a line to a parallel writer (in this
// process or another) nor leave a torn, emptied or world-readable file when killed.
import { spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { thisProcess } from '../../../src/cli/local-process.js';
import { parsePgpassLine, PgpassWriter, type PgpassEntry } from '../../../src/executor/pgpass.js';
import { tempDir } from '../../support/temp-dir.js';

const dir = () => tempDir('dbform-pgpass-');
const login = (host: string, password: string, port = 5432): PgpassEntry => ({ host, port, database: 'tsdb', user: 'tsdbadmin', password });
const DIST = join(import.meta.dirname, '..', '..', '..', 'dist', 'executor', 'pgpass.js');
const DIST_PROCESS = join(import.meta.dirname, '..', '..', '..', 'dist', 'cli', 'local-process.js');

describe('pgpass rewrites', () => {
  it('replaces the line of the same login in place, keeping comments and other lines, and appends a new login', async () => {
    const path = join(dir(), 'pgpass');
    writeFileSync(path, '# mine\nother:5432:*:me:keep\nh1:5432:tsdb:tsdbadmin:initial\nh1:6432:tsdb:tsdbadmin:pooler\n', { mode: 0o600 });
    const w = new PgpassWriter(path, thisProcess());
    await w.save(login('h1', 'configured:1'));
    await w.save(login('h2', 'fresh'));
    expect(readFileSync(path, 'utf8')).toBe(
      '# mine\nother:5432:*:me:keep\nh1:5432:tsdb:tsdbadmin:configured\\:1\nh1:6432:tsdb:tsdbadmin:pooler\nh2:5432:tsdb:tsdbadmin:fresh\n',
    );
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('keeps only the first of duplicate lines of a login (libpq reads the first) and gives it the new password', async () => {
    const path = join(dir(), 'pgpass');
    writeFileSync(path, 'h1:5432:tsdb:tsdbadmin:a\nx:1:d:u:p\nh1:5432:tsdb:tsdbadmin:b\n');
    await new PgpassWriter(path, thisProcess()).save(login('h1', 'c'));
    expect(readFileSync(path, 'utf8')).toBe('h1:5432:tsdb:tsdbadmin:c\nx:1:d:u:p\n');
  });

  it('removes the tsdbadmin lines of a deleted host on any port and nothing else; a missing file stays missing', async () => {
    const base = dir();
    const path = join(base, 'pgpass');
    writeFileSync(path, 'gone:5432:tsdb:tsdbadmin:a\nkept:5432:tsdb:tsdbadmin:b\ngone:6432:tsdb:tsdbadmin:c\ngone:5432:tsdb:someone:d\n#gone:5432:tsdb:tsdbadmin:e\n');
    const w = new PgpassWriter(path, thisProcess());
    await w.removeHost('gone');
    expect(readFileSync(path, 'utf8')).toBe('kept:5432:tsdb:tsdbadmin:b\ngone:5432:tsdb:someone:d\n#gone:5432:tsdb:tsdbadmin:e\n');
    const missing = join(base, 'none');
    await new PgpassWriter(missing, thisProcess()).removeHost('gone');
    expect(existsSync(missing)).toBe(false);
  });

  it('moves the tsdbadmin lines of a host to where its service moved, replacing a line already there, and nothing else', async () => {
    const path = join(dir(), 'pgpass');
    writeFileSync(path, 'pub:5432:tsdb:tsdbadmin:current\nkept:5432:tsdb:tsdbadmin:b\npriv:5432:tsdb:tsdbadmin:stale\npub:5432:tsdb:someone:d\n');
    await new PgpassWriter(path, thisProcess()).moveHost('pub', { host: 'priv', port: 5432 });
    expect(readFileSync(path, 'utf8')).toBe('kept:5432:tsdb:tsdbadmin:b\npriv:5432:tsdb:tsdbadmin:current\npub:5432:tsdb:someone:d\n');
  });

  it('parses escaped fields and leaves malformed lines alone', () => {
    expect(parsePgpassLine('h:5432:db:u:p\\:w\\\\d')).toEqual({ host: 'h', port: 5432, database: 'db', user: 'u', password: 'p:w\\d' });
    expect(parsePgpassLine('not a line')).toBeUndefined();
    expect(parsePgpassLine('# h:1:d:u:p')).toBeUndefined();
  });

  it('loses no line when many saves and removals of one apply run at once, through one writer or several', async () => {
    const path = join(dir(), 'pgpass');
    const a = new PgpassWriter(path, thisProcess());
    const b = new PgpassWriter(path, thisProcess());
    // Odd hosts through `a`, even through `b`: one writer keeps its own order (a rotation after
    // the create, a removal after both), two writers on one file take turns.
    const saves = Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).save(login(`h${i}`, `p${i}`)));
    await Promise.all([...saves, a.save(login('h5', 'rotated')), a.removeHost('h3')]);
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
    const hosts = lines.map((l) => parsePgpassLine(l)!.host).sort();
    expect(hosts).toEqual(Array.from({ length: 40 }, (_, i) => `h${i}`).filter((h) => h !== 'h3').sort());
    expect(lines).toContain('h5:5432:tsdb:tsdbadmin:rotated');
    expect(lines).toContain('h4:5432:tsdb:tsdbadmin:p4');
    expect(readdirSync(join(path, '..')).filter((n) => n !== 'pgpass')).toEqual([]);
  });

  it('saves queued while a rewrite runs share the next rewrite: 50 creates cost two rewrites, not 50', async () => {
    const path = join(dir(), 'pgpass');
    const w = new PgpassWriter(path, thisProcess());
    await Promise.all(Array.from({ length: 50 }, (_, i) => w.save(login(`h${i}`, `p${i}`))));
    expect(readFileSync(path, 'utf8').trimEnd().split('\n')).toHaveLength(50);
    expect(w.rewrites).toBeLessThanOrEqual(2);
  });

  it('a rewrite that fails fails the saves it carried, and the next ones are written', async () => {
    const base = dir();
    const path = join(base, 'pgpass');
    mkdirSync(path);
    const w = new PgpassWriter(path, thisProcess());
    const failed = await Promise.allSettled([w.save(login('a', '1')), w.save(login('b', '2'))]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    rmSync(path, { recursive: true });
    await w.save(login('c', '3'));
    expect(readFileSync(path, 'utf8')).toBe('c:5432:tsdb:tsdbadmin:3\n');
  });

  it('rewrites the target of a symlinked file and keeps the link', async () => {
    const base = dir();
    const target = join(base, 'real-pgpass');
    writeFileSync(target, 'h1:5432:tsdb:tsdbadmin:old\n', { mode: 0o600 });
    const link = join(base, '.pgpass');
    symlinkSync(target, link);
    await new PgpassWriter(link, thisProcess()).save(login('h1', 'new'));
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('h1:5432:tsdb:tsdbadmin:new\n');
  });

  it('removes temp files a killed rewrite left (they hold passwords)', async () => {
    const base = dir();
    const path = join(base, 'pgpass');
    writeFileSync(join(base, '.pgpass.4242.deadbeef.tmp'), 'h:5432:tsdb:tsdbadmin:secret\n');
    writeFileSync(join(base, '.pgpass.keep-me'), 'not ours');
    await new PgpassWriter(path, thisProcess()).save(login('h', 'p'));
    expect(readdirSync(base).sort()).toEqual(['.pgpass.keep-me', 'pgpass']);
  });

  it('removes the leftovers of the temp names written now (random, without a pid) as well', async () => {
    const base = dir();
    const path = join(base, 'pgpass');
    writeFileSync(join(base, '.pgpass.0123456789abcdef.tmp'), 'h:5432:tsdb:tsdbadmin:secret\n');
    await new PgpassWriter(path, thisProcess()).save(login('h', 'p'));
    expect(readdirSync(base).sort()).toEqual(['pgpass']);
  });
});

/** A node process that saves `count` logins `<prefix><i>` one after another, then exits. */
function writerProcess(path: string, prefix: string, count: number) {
  const script = `import { PgpassWriter } from ${JSON.stringify(DIST)};
import { thisProcess } from ${JSON.stringify(DIST_PROCESS)};
const w = new PgpassWriter(${JSON.stringify(path)}, thisProcess());
for (let i = 0; i < ${count}; i++) {
  await w.save({ host: ${JSON.stringify(prefix)} + i, port: 5432, database: 'tsdb', user: 'tsdbadmin', password: 'pw' + i });
  if (i === 0) process.stdout.write('writing');
}`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stderr })),
  );
  const writing = new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
  return { child, done, writing };
}

describe('pgpass across processes', () => {
  it('two processes rewriting one file at once lose no line', async () => {
    const path = join(dir(), 'pgpass');
    const [x, y] = await Promise.all([writerProcess(path, 'x', 25).done, writerProcess(path, 'y', 25).done]);
    expect([x.code, y.code], x.stderr + y.stderr).toEqual([0, 0]);
    const hosts = readFileSync(path, 'utf8').trimEnd().split('\n').map((l) => parsePgpassLine(l)!.host);
    expect(hosts).toHaveLength(50);
    expect(new Set(hosts).size).toBe(50);
  }, 30_000);

  it('a writer killed with SIGKILL at any moment leaves a whole file; the next writer takes over its lock', async () => {
    const base = dir();
    const path = join(base, 'pgpass');
    const header = '# kept\nmine:5432:*:me:secret\n';
    writeFileSync(path, header, { mode: 0o600 });
    // Rounds go on until 3 kills landed inside a rewrite (its lock or temp file left behind).
    let midRewrite = 0;
    let round = 0;
    for (; round < 40 && midRewrite < 3; round++) {
      const run = writerProcess(path, `r${round}-`, 10_000);
      await run.writing;
      await new Promise((resolve) => setTimeout(resolve, (round * 7) % 40));
      run.child.kill('SIGKILL');
      expect((await run.done).signal).toBe('SIGKILL');
      const text = readFileSync(path, 'utf8');
      expect(text.startsWith(header), `round ${round}: ${JSON.stringify(text.slice(0, 200))}`).toBe(true);
      expect(text.endsWith('\n')).toBe(true);
      for (const line of text.trimEnd().split('\n').slice(2)) expect(parsePgpassLine(line), line).toBeDefined();
      expect(statSync(path).mode & 0o777).toBe(0o600);
      if (readdirSync(base).length > 1) midRewrite++;
      // The next writer is not stopped by the dead one's lock and sweeps its temp file.
      await new PgpassWriter(path, thisProcess()).save(login(`after${round}`, 'p'));
      expect(readdirSync(base).sort()).toEqual(['pgpass']);
    }
    expect(midRewrite, `${round} rounds`).toBe(3);
    const after = readFileSync(path, 'utf8');
    for (let r = 0; r < round; r++) expect(after).toContain(`after${r}:5432:tsdb:tsdbadmin:p\n`);
  }, 60_000);
});
