// The tests' own PostgreSQL (test/support/postgres-server.ts): a server left by a killed run is
// stopped and removed by the next one, and never stands in its way.
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { findPostgresBin, removeLeftovers, startPostgres } from '../../support/postgres-server.js';
import { adminUrl } from '../../support/pg.js';

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
    expect(adminUrl()).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres$/);
    expect(await canQuery(adminUrl())).toBe(true);
  });

  it('a leftover server whose test run was killed is stopped and removed; a live run\'s is kept', async () => {
    const leftover = await startPostgres();
    const mine = await startPostgres();
    try {
      expect(await canQuery(leftover.url)).toBe(true);
      // Its owner is a process that no longer exists, as after a SIGKILL of vitest.
      const dead = spawnSync(process.execPath, ['-e', 'process.pid']).pid!;
      writeFileSync(join(leftover.dir, 'owner.json'), JSON.stringify({ pid: dead }));
      await removeLeftovers(findPostgresBin()!);
      expect(existsSync(leftover.dir)).toBe(false);
      expect(await canQuery(leftover.url)).toBe(false);
      expect(await canQuery(mine.url)).toBe(true);
      expect(await canQuery(adminUrl())).toBe(true);
    } finally {
      await leftover.destroy();
      await mine.destroy();
    }
  });
});
