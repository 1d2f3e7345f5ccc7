// The README's "Working as a team" runs as written: every `dbform ...` line of its two blocks, by
// two working directories ("laptops") sharing one PostgreSQL state, against the emulator over real
// HTTP. Only DBFORM_STATE's URL is this test's database instead of the README's db.internal.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { redactUrl } from '../../../src/state/index.js';
import { runCli, workspace } from '../apply/cli-harness.js';
import { useDatabaseAndEmulator } from '../../support/pg-and-emulator.js';

const world = useDatabaseAndEmulator();

const README = readFileSync(join(import.meta.dirname, '..', '..', '..', 'README.md'), 'utf8');

/** The `sh` blocks of the README's section `title`, each as its command lines (comments cut). */
function blocks(title: string): string[][] {
  const start = README.indexOf(`\n## ${title}\n`);
  expect(start, `README has a section "${title}"`).toBeGreaterThan(-1);
  const end = README.indexOf('\n## ', start + 1);
  const section = README.slice(start, end);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) =>
    m[1]!
      .split('\n')
      .map((l) => l.replace(/\s+#.*$/, '').trim())
      .filter((l) => l !== ''),
  );
}

const CONFIG = 'version: 1\nproject_id: proj-demo\nservices:\n  app:\n    name: app-${workspace}\n    cpu_millis: 500\n    memory_gbs: 2\n';

describe('README: Working as a team', () => {
  it('every command of it runs, on two laptops sharing one PostgreSQL state', async () => {
    const [team, previews] = blocks('Working as a team');
    expect(team![0]).toBe('export DBFORM_STATE=postgres://dbform@db.internal:5432/infra');
    const env = { DBFORM_STATE: world.db.url };
    const alice = workspace(CONFIG, world.emulator.url, env);
    const bob = workspace(CONFIG, world.emulator.url, env);
    const state = redactUrl(world.db.url);
    const run = async (ws: typeof alice, line: string) => {
      expect(line.startsWith('dbform '), line).toBe(true);
      const r = await runCli(ws, line.slice('dbform '.length).split(' '));
      expect(r.code, `${line}\n${r.stderr}`).toBe(0);
      return r;
    };

    // Alice plans and applies; Bob, in another directory, sees it in the history and the state.
    const [plan, apply, history, list] = team!.slice(1);
    expect((await run(alice, plan!)).stdout.split('\n')[0]).toBe(`Project proj-demo, workspace default, state: ${state}`);
    expect((await run(alice, apply!)).stdout).toContain('Apply complete: 1 created');
    expect((await run(bob, history!)).stdout).toMatch(new RegExp(`^History of workspace "default" in .*, newest first:\\n.* {2}exit 0 .* {2}dbform ${apply!.slice('dbform '.length)} {2}\\(1 done\\)\\n$`));
    expect((await run(bob, list!)).stdout).toMatch(/^ADDRESS +KIND +ID +PROTECT\nservice\.app +service +\S+ +no\n$/);

    // The preview's lifecycle, from Bob's laptop.
    const [previewApply, output, wsList, destroy, sweep] = previews!;
    expect((await run(bob, previewApply!)).stdout).toContain('Apply complete: 1 created');
    expect((await run(bob, output!)).stdout).toMatch(/^DBFORM_APP_HOST=\S+\n/m);
    expect((await run(bob, wsList!)).stdout).toMatch(/\* default +1 .*\n +pr-12 +1 +\S+ +\S+Z\n/);
    expect((await run(bob, destroy!)).stdout).toContain('Destroy complete');
    expect((await run(bob, sweep!)).stdout).toMatch(/is due .*nothing to sweep\.\n$/);
  });
});
