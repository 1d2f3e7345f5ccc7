// `dbform graph` (SPEC section 14): the dependency graph of the plan `dbform plan` shows, read from
// the emulator (in process, over HTTP) like the plan itself.
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../support/cli.js';
import { tempDir } from '../../support/temp-dir.js';

const EXAMPLE = join(import.meta.dirname, '..', '..', '..', 'examples', 'quickstart.yaml');
let dir: string;
const env = { DBFORM_EMULATOR_TIME_SCALE: '0' };

beforeAll(() => {
  dir = tempDir('dbform-graph-');
  copyFileSync(EXAMPLE, join(dir, 'dbform.yaml'));
});

/** `from -> to` pairs as the plan's depends_on says them. */
async function planEdges(args: string[] = []): Promise<string[]> {
  const r = await runCli(['plan', '--emulator', '--json', ...args], { cwd: dir, env });
  expect(r.code, r.stderr).toBe(0);
  const plan = JSON.parse(r.stdout) as { actions: Array<{ id: string; depends_on: string[] }> };
  return plan.actions.flatMap((a) => a.depends_on.map((d) => `${d} -> ${a.id}`)).sort();
}

describe('dbform graph', () => {
  it('prints, in mermaid, one node per action of the plan and its depends_on as arrows', async () => {
    const r = await runCli(['graph', '--emulator'], { cwd: dir, env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('flowchart LR');
    expect(r.stdout).toContain('a1["createVPC vpc.main"]');
    const edges = [...r.stdout.matchAll(/^ {2}(a\d+) --> (a\d+)$/gm)].map((m) => `${m[1]} -> ${m[2]}`).sort();
    expect(edges.length).toBeGreaterThan(0);
    expect(edges).toEqual(await planEdges());
  });

  it('prints DOT with --format dot, and --target narrows it as it narrows the plan', async () => {
    const r = await runCli(['graph', '--emulator', '--format', 'dot', '--target', 'service.app-db-preview'], { cwd: dir, env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^digraph dbform \{/);
    const edges = [...r.stdout.matchAll(/^ {2}(a\d+) -> (a\d+);$/gm)].map((m) => `${m[1]} -> ${m[2]}`).sort();
    expect(edges).toEqual(await planEdges(['--target', 'service.app-db-preview']));
    expect(r.stdout).toContain('forkService service.app-db-preview');
    expect(r.stdout).not.toContain('createVPC');
  });

  it('a config error is one positioned line and exit 1, with no graph', async () => {
    const bad = tempDir('dbform-graph-bad-');
    writeFileSync(join(bad, 'dbform.yaml'), 'version: 1\nproject_id: proj-demo\nservices:\n  db:\n    cpu_millis: 3\n');
    const r = await runCli(['graph', '--emulator'], { cwd: bad, env });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/dbform\.yaml:5:\d+: /);
  });
});
