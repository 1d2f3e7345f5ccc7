// Sweep decides under the lock (SPEC section 13): a preview renewed with `apply --ttl` while sweep
// waited for another workspace's lock is skipped with one line, not destroyed. The lock is held
// from another connection of a real PostgreSQL; the renewal is a real `dbform apply --ttl 72h`.
import { describe, expect, it } from 'vitest';
import { thisProcess } from '../../../src/cli/local-process.js';
import { describeHolder, PgStateStore } from '../../../src/state/index.js';
import { runCli, spawnCli, workspace, type Workspace } from '../apply/cli-harness.js';
import { useDatabaseAndEmulator } from '../../support/pg-and-emulator.js';

const world = useDatabaseAndEmulator();

const config = `version: 1
project_id: proj-demo
services:
  app:
    name: race-\${workspace}
    cpu_millis: 500
    memory_gbs: 2
`;

async function liveNames(): Promise<string[]> {
  const res = await fetch(`${world.emulator.url}/projects/proj-demo/services`, { headers: { authorization: 'Bearer demo-pat' } });
  return ((await res.json()) as Array<{ name: string; status: string }>).filter((s) => s.status !== 'DELETING').map((s) => s.name);
}

async function apply(ws: Workspace, name: string, ...extra: string[]): Promise<void> {
  const r = await runCli(ws, ['apply', '--auto-approve', '--workspace', name, ...extra]);
  expect(r.code, r.stderr).toBe(0);
}

describe('sweep under the lock', () => {
  it('a preview renewed with apply --ttl 72h while sweep waits on another workspace lock survives the sweep', async () => {
    const ws = workspace(config, world.emulator.url, { DBFORM_STATE: world.db.url });
    await apply(ws, 'pr-1', '--ttl', '72h');
    await apply(ws, 'pr-2', '--ttl', '72h');
    // Both expired (set by hand: a TTL is at least a minute).
    await world.db.query("UPDATE dbform.states SET expires_at = now() - interval '1 hour' WHERE workspace IN ('pr-1', 'pr-2')");

    const holder = new PgStateStore({ url: world.db.url, projectId: 'proj-demo', workspace: 'pr-1', env: {} });
    const held = await holder.lock(describeHolder(thisProcess(), {}, 'dbform apply'), { timeoutMs: 0 });
    let released = false;
    try {
      const sweep = spawnCli(ws, ['sweep', '--auto-approve', '--lock-timeout', '10m']);
      await new Promise<void>((resolve, reject) => {
        let text = '';
        sweep.child.stderr!.on('data', (d: string) => {
          text += d;
          if (text.includes('waiting up to 10m for the state lock')) resolve();
        });
        sweep.child.on('close', () => reject(new Error(`sweep ended before it waited for the lock: ${text}`)));
      });
      // While sweep waits on pr-1, pr-2 is renewed (its own lock is free).
      await apply(ws, 'pr-2', '--ttl', '72h');
      await held.release();
      released = true;
      const r = await sweep.done;
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^Sweeping 2 workspace\(s\) of project proj-demo: pr-1, pr-2\n/);
      expect(r.stdout).toContain('Swept workspace "pr-1"');
      expect(r.stdout).toMatch(
        /\nSkipped workspace "pr-2": no longer due \(it now expires at \S+Z, last applied \S+Z\); it was renewed while sweep waited for its lock\.\n/,
      );
      expect(r.stdout).toContain('Sweep: 1 of 2 workspace(s) swept, 1 no longer due.\n');
      // Nothing of pr-2 was planned for deletion, let alone deleted.
      expect(r.stdout.slice(r.stdout.indexOf('Workspace "pr-2"'))).not.toContain('deleteService');
      const names = await liveNames();
      expect(names).toContain('race-pr-2');
      expect(names).not.toContain('race-pr-1');
      const rows = await world.db.query<{ workspace: string; expires_at: Date }>("SELECT workspace, expires_at FROM dbform.states WHERE project_id = 'proj-demo' ORDER BY workspace");
      expect(rows.rows.map((row) => row.workspace)).toEqual(['pr-2']);
      expect(rows.rows[0]!.expires_at.getTime()).toBeGreaterThan(Date.now() + 71 * 3_600_000);
    } finally {
      if (!released) await held.release();
      await holder.close();
    }
  });
});
