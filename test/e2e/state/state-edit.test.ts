// `dbform state rm` and `dbform state mv` (SPEC section 14) on both stores: bindings change, live
// resources never do; the next plan sees the forgotten resource as unmanaged and plans no delete.
import { describe, expect, it } from 'vitest';
import { runCli, workspace, type Workspace } from '../apply/cli-harness.js';
import { useDatabaseAndEmulator } from '../../support/pg-and-emulator.js';

const world = useDatabaseAndEmulator();

const config = (prefix: string, protect = false) => `version: 1
project_id: proj-demo
services:
  keep:
    name: ${prefix}-keep
    cpu_millis: 500
    memory_gbs: 2
  old:
    name: ${prefix}-old
    cpu_millis: 500
    memory_gbs: 2${protect ? '\n    protect: true' : ''}
`;

async function liveNames(): Promise<string[]> {
  const res = await fetch(`${world.emulator.url}/projects/proj-demo/services`, { headers: { authorization: 'Bearer demo-pat' } });
  return ((await res.json()) as Array<{ name: string }>).map((s) => s.name).sort();
}

/** Requests that change something, as the emulator counted them. */
async function mutations(): Promise<number> {
  return Object.entries(world.emulator.stats().requests)
    .filter(([route]) => !route.startsWith('GET'))
    .reduce((n, [, c]) => n + c, 0);
}

const applied = async (ws: Workspace) => {
  const r = await runCli(ws, ['apply', '--auto-approve']);
  expect(r.code, r.stderr).toBe(0);
};

const planJson = async (ws: Workspace) => {
  const r = await runCli(ws, ['plan', '--json']);
  expect([0, 3], r.stderr).toContain(r.code); // 3: a deleteService is blocked by the data-loss guard
  return JSON.parse(r.stdout) as { actions: Array<{ op: string; address: string }>; summary: Record<string, number> };
};

let tests = 0;

const STORES = [
  { store: 'file', env: (): NodeJS.ProcessEnv => ({}) },
  // One PostgreSQL state holds every test's workspace: each test gets its own.
  { store: 'postgres', env: (): NodeJS.ProcessEnv => ({ DBFORM_STATE: world.db.url, DBFORM_WORKSPACE: `t-${++tests}` }) },
];

describe.each(STORES)('state rm and state mv on the $store store', ({ store, env }) => {
  it('state rm forgets a binding: the resource lives on, unmanaged; no delete is planned; history records it', async () => {
    const ws = workspace(config(`rm-${store}`), world.emulator.url, env());
    await applied(ws);
    // The block goes from the config too: without state rm that plans a deleteService.
    ws.env = { ...ws.env };
    const { writeFileSync } = await import('node:fs');
    writeFileSync(ws.config, config(`rm-${store}`).replace(/ {2}old:\n(?: {4}.*\n)+/, ''));
    expect((await planJson(ws)).actions.map((a) => a.op)).toEqual(['deleteService']);
    const before = await mutations();
    const rm = await runCli(ws, ['state', 'rm', 'service.old']);
    expect(rm.code, rm.stderr).toBe(0);
    expect(rm.stdout).toContain('Removed 1 binding(s)');
    expect(await mutations()).toBe(before);
    const plan = await planJson(ws);
    expect(plan.actions).toEqual([]);
    expect(plan.summary.unmanaged).toBeGreaterThanOrEqual(1);
    expect(await liveNames()).toContain(`rm-${store}-old`);
    const list = JSON.parse((await runCli(ws, ['state', 'list', '--json'])).stdout) as { resources: Array<{ address: string }> };
    expect(list.resources.map((r) => r.address)).toEqual(['service.keep']);
    const history = JSON.parse((await runCli(ws, ['history', '--json', '--limit', '1'])).stdout) as Array<{ command: string; actions: Array<{ op: string; address: string }> }>;
    expect(history[0]!.command).toContain('state rm service.old');
    expect(history[0]!.actions).toEqual([expect.objectContaining({ op: 'stateRm', address: 'service.old' })]);
  });

  it('state rm refuses a protected binding without --force, and an unknown address, changing nothing', async () => {
    const ws = workspace(config(`prot-${store}`, true), world.emulator.url, env());
    await applied(ws);
    const refused = await runCli(ws, ['state', 'rm', 'service.old', 'service.nope']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('service.old is protected');
    expect(refused.stderr).toContain('service.nope is not bound');
    const listed = () => runCli(ws, ['state', 'list', '--json']).then((r) => (JSON.parse(r.stdout) as { resources: unknown[] }).resources.length);
    expect(await listed()).toBe(2);
    const forced = await runCli(ws, ['state', 'rm', '--force', 'service.old']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(await listed()).toBe(1);
  });

  it('state mv renames a binding: a config that renamed the key plans nothing', async () => {
    const ws = workspace(config(`mv-${store}`), world.emulator.url, env());
    await applied(ws);
    const { writeFileSync } = await import('node:fs');
    writeFileSync(ws.config, config(`mv-${store}`).replace('  old:\n', '  renamed:\n'));
    const before = await mutations();
    const mv = await runCli(ws, ['state', 'mv', 'service.old', 'service.renamed']);
    expect(mv.code, mv.stderr).toBe(0);
    expect((await planJson(ws)).actions).toEqual([]);
    expect(await mutations()).toBe(before);
    const clash = await runCli(ws, ['state', 'mv', 'service.keep', 'service.renamed']);
    expect(clash.code).toBe(1);
    expect(clash.stderr).toContain('service.renamed is already bound');
    const kinds = await runCli(ws, ['state', 'mv', 'service.keep', 'vpc.keep']);
    expect(kinds.code).toBe(1);
    expect(kinds.stderr).toContain('a service cannot become a vpc');
  });
});

describe('every command reads the configured state', () => {
  it('logs service.KEY resolves the address through a PostgreSQL state (there is no lockfile)', async () => {
    const ws = workspace(config('logs-pg'), world.emulator.url, { DBFORM_STATE: world.db.url, DBFORM_WORKSPACE: 'logs' });
    await applied(ws);
    const { existsSync } = await import('node:fs');
    expect(existsSync(ws.lockfile)).toBe(false);
    const r = await runCli(ws, ['logs', 'service.keep', '--limit', '2']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(2);
    const missing = await runCli(ws, ['logs', 'service.nope']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('service.nope is not bound in workspace "logs" of postgres://');
    expect(missing.stderr).not.toContain('lockfile');
  });
});
