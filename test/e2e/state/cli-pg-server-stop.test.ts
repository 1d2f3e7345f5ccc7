// The state database stops in the middle of an apply (its own server, so stopping it disturbs no
// other test): nothing new starts, every ID created meanwhile goes to .dbform/state-journal.json,
// and the next run pushes the journal before it plans, so no ID is lost and nothing is duplicated.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../../src/emulator/index.js';
import { runCli, spawnCli, workspace } from '../apply/cli-harness.js';
import { holdAnswers } from '../../support/held-answers.js';
import { startPostgres, type PostgresServer } from '../../support/postgres-server.js';

let server: PostgresServer;
beforeAll(async () => {
  server = await startPostgres();
});
afterAll(async () => {
  await server.destroy();
});

async function until(check: () => boolean, what: string, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function boundIds(): Promise<string[]> {
  const c = new pg.Client({ connectionString: server.url });
  await c.connect();
  try {
    const { rows } = await c.query<{ resource_id: string }>("SELECT resource_id FROM dbform.claims WHERE project_id = 'proj-demo' ORDER BY 1");
    return rows.map((r) => r.resource_id);
  } finally {
    await c.end();
  }
}

describe('the state database stops mid-apply', () => {
  it('keeps every created ID in the journal; the next apply pushes it, creates nothing twice and converges', async () => {
    // The emulator's answers to the three creates are held back until the database is gone: the
    // services exist, their IDs are on their way to an apply that can no longer bind them.
    const emulator = await startEmulator({ timeScale: 0.01 });
    const gate = await holdAnswers(emulator.url, (method, path) => method === 'POST' && /\/services$/.test(path));
    try {
      const names = ['s1', 's2', 's3'];
      const text = `version: 1\nproject_id: proj-demo\nservices:\n${names.map((n) => `  ${n}:\n    cpu_millis: 500\n    memory_gbs: 2\n`).join('')}`;
      const ws = workspace(text, gate.url, { DBFORM_STATE: server.url });
      const run = spawnCli(ws, ['apply', '--auto-approve']);
      await until(() => gate.held() >= 3, 'the answers to the three creates', 60_000);
      await server.stop();
      gate.release();
      const result = await run.done;
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).toMatch(/^error: apply stopped: .*127\.0\.0\.1:\d+.*Nothing new was started; every ID it bound is in the state or kept in .*state-journal\.json, which the next run pushes before it plans\./m);
      expect(result.stderr).not.toMatch(/password|at .*\.js:\d+/);

      const journalPath = join(ws.dir, '.dbform', 'state-journal.json');
      expect(existsSync(journalPath)).toBe(true);
      const journal = JSON.parse(readFileSync(journalPath, 'utf8'));
      const kept = Object.values(journal.entries[0].resources.resources as Record<string, { id: string }>).map((e) => e.id);
      expect(kept.length).toBeGreaterThan(0);

      // While the database is down, the next run says so and changes nothing.
      const down = await runCli(ws, ['apply', '--auto-approve']);
      expect(down.code).toBe(1);
      expect(down.stderr).toMatch(/^error: cannot connect to the state database postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres: connection refused/);
      expect(existsSync(journalPath)).toBe(true);

      await server.start();
      const again = await runCli(ws, ['apply', '--auto-approve']);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).toMatch(/note: pushed \d+ binding\(s\) kept in .*state-journal\.json by an earlier run/);
      expect(existsSync(journalPath)).toBe(false);
      for (const id of kept) expect(await boundIds()).toContain(id);
      const res = await fetch(`${emulator.url}/projects/proj-demo/services`, { headers: { authorization: 'Bearer demo-pat' } });
      const live = (await res.json()) as Array<{ service_id: string; name: string }>;
      expect(live.map((s) => s.name).sort()).toEqual(names);
      expect((await boundIds()).sort()).toEqual(live.map((s) => s.service_id).sort());
    } finally {
      await gate.close();
      await emulator.close();
    }
  });
});
