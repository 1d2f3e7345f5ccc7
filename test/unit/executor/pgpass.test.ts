import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { thisProcess } from '../../../src/cli/local-process.js';
import { checkPgpassWritable, escapePgpassField, PgpassWriter, resolvePgpassPath } from '../../../src/executor/pgpass.js';
import { removeTempDirs, tempDir } from '../../support/temp-dir.js';

afterAll(removeTempDirs);

const dir = () => tempDir('dbform-pgpass-');
const entry = (password: string, host = 'abc.proj.tsdb.cloud.example') => ({ host, port: 5432, database: 'tsdb', user: 'tsdbadmin', password });

describe('pgpass', () => {
  it('escapes backslash and colon', () => {
    expect(escapePgpassField('a:b\\c')).toBe('a\\:b\\\\c');
  });

  it('creates the file with mode 0600 and appends host:port:tsdb:tsdbadmin:password lines', async () => {
    const path = join(dir(), 'pgpass');
    const writer = new PgpassWriter(path, thisProcess());
    await Promise.all([writer.save(entry('p:1')), writer.save(entry('p\\2', 'h2'))]);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path, 'utf8')).toBe('abc.proj.tsdb.cloud.example:5432:tsdb:tsdbadmin:p\\:1\nh2:5432:tsdb:tsdbadmin:p\\\\2\n');
  });

  it('tightens a looser existing file and keeps its content, adding a missing final newline', async () => {
    const path = join(dir(), 'pgpass');
    writeFileSync(path, 'old:5432:*:me:pw');
    chmodSync(path, 0o644);
    await new PgpassWriter(path, thisProcess()).save(entry('new'));
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path, 'utf8')).toBe('old:5432:*:me:pw\nabc.proj.tsdb.cloud.example:5432:tsdb:tsdbadmin:new\n');
  });

  it('resolves --pgpass, then PGPASSFILE, then ~/.pgpass', () => {
    expect(resolvePgpassPath('/x/flag', { PGPASSFILE: '/x/env' })).toBe('/x/flag');
    expect(resolvePgpassPath(undefined, { PGPASSFILE: '/x/env' })).toBe('/x/env');
    expect(resolvePgpassPath(undefined, {})).toBe(join(homedir(), '.pgpass'));
  });

  it('checks that the file can be written without leaving a new file behind, and keeps an existing one', async () => {
    const base = dir();
    const fresh = join(base, 'new', 'pgpass');
    expect(await checkPgpassWritable(fresh)).toBeUndefined();
    expect(existsSync(fresh)).toBe(false);
    expect(existsSync(join(base, 'new'))).toBe(true);
    const existing = join(base, 'pgpass');
    writeFileSync(existing, 'old:5432:*:me:pw\n');
    expect(await checkPgpassWritable(existing)).toBeUndefined();
    expect(readFileSync(existing, 'utf8')).toBe('old:5432:*:me:pw\n');
    const folder = join(base, 'folder');
    mkdirSync(folder);
    expect(await checkPgpassWritable(folder)).toBe('it is a directory');
  });
});
