// The tests' own PostgreSQL (test/support/postgres-server.ts): a server left by a killed run is
// stopped and removed by the next one, and never stands in its way; a private TMPDIR does not either.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { findPostgresBin, removeLeftovers, serverRoot, startPostgres } from '../../support/postgres-server.js';
import { adminUrl } from '../../support/pg.js';
import { removeTempDirs, tempDir } from '../../support/temp-dir.js';

afterAll(removeTempDirs);

async function canQuery(url: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => undefined);
  }
}

describe('test PostgreSQL harness', () => {
  it('the shared server answers on its own loopback port', async () => {
    expect(await adminUrl()).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres$/);
    expect(await canQuery(await adminUrl())).toBe(true);
  });

  it("a leftover server whose test run was killed is stopped and removed; a live run's is kept", async () => {
    // The run's own server belongs to the vitest process, which is alive: it must survive.
    const shared = await adminUrl();
    const leftover = await startPostgres();
    try {
      expect(await canQuery(leftover.url)).toBe(true);
      // Its owner is a process that no longer exists, as after a SIGKILL of vitest.
      const dead = spawnSync(process.execPath, ['-e', 'process.pid']).pid!;
      writeFileSync(join(leftover.dir, 'owner.json'), JSON.stringify({ pid: dead }));
      await removeLeftovers(findPostgresBin()!);
      expect(existsSync(leftover.dir)).toBe(false);
      expect(await canQuery(leftover.url)).toBe(false);
      expect(await canQuery(shared)).toBe(true);
    } finally {
      await leftover.destroy();
    }
  });

  it('works with a TMPDIR only its owner can enter (0700, as `mktemp -d` makes it), and leaves nothing in it', async () => {
    // What the run-wide guard (tmpdir-guard.ts) records as the system temp dir when TMPDIR is such a folder.
    const privateTmp = tempDir('dbform-private-tmp-');
    expect(statSync(privateTmp).mode & 0o777).toBe(0o700);
    const before = process.env.DBFORM_TEST_SYSTEM_TMPDIR;
    process.env.DBFORM_TEST_SYSTEM_TMPDIR = privateTmp;
    try {
      const asRoot = process.getuid?.() === 0;
      // As root the server runs as `postgres`, which cannot enter the folder: it goes to /tmp.
      expect(serverRoot()).toBe(asRoot ? '/tmp' : privateTmp);
      const server = await startPostgres();
      try {
        expect(server.dir.startsWith(`${serverRoot()}/`)).toBe(true);
        expect(await canQuery(server.url)).toBe(true);
      } finally {
        await server.destroy();
      }
      expect(existsSync(server.dir)).toBe(false);
      expect(readdirSync(privateTmp)).toEqual([]);
    } finally {
      if (before === undefined) delete process.env.DBFORM_TEST_SYSTEM_TMPDIR;
      else process.env.DBFORM_TEST_SYSTEM_TMPDIR = before;
    }
  });
});
