// Creating a twin is refused (SPEC section 13), over real HTTP and both stores: a DBFORM_WORKSPACE
// left over in the shell makes `apply` of the production config a plan error that names the
// workspace that owns those names, and nothing is created; a VPC whose binding was lost and which
// was renamed by hand is not created a second time over the same block: the error says to import it.
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli, workspace, type Workspace } from '../apply/cli-harness.js';
import { useDatabaseAndEmulator } from '../../support/pg-and-emulator.js';

const world = useDatabaseAndEmulator();

const production = (prefix: string, block: number) => `version: 1
project_id: proj-demo
vpcs:
  net:
    name: ${prefix}-net
    cidr: 10.${block}.0.0/16
    region_code: us-east-1
services:
  app:
    name: ${prefix}-app
    cpu_millis: 500
    memory_gbs: 2
  api:
    name: ${prefix}-api
    cpu_millis: 500
    memory_gbs: 2
`;

interface Live {
  services: Array<{ service_id: string; name: string }>;
  vpcs: Array<{ id: string; name: string; cidr: string }>;
}

async function live(): Promise<Live> {
  const get = async (path: string) => (await fetch(`${world.emulator.url}/projects/proj-demo/${path}`, { headers: { authorization: 'Bearer demo-pat' } })).json();
  return { services: (await get('services')) as Live['services'], vpcs: (await get('vpcs')) as Live['vpcs'] };
}

async function creates(): Promise<number> {
  const stats = (await (await fetch(new URL('/__emulator/stats', world.emulator.url))).json()) as { requests: Record<string, number> };
  return Object.entries(stats.requests)
    .filter(([k]) => k.startsWith('POST ') && /\/(services|vpcs)$/.test(k))
    .reduce((n, [, c]) => n + c, 0);
}

const resetStats = () => fetch(new URL('/__emulator/reset', world.emulator.url), { method: 'POST' });

describe.each([
  ['the lockfile files', 'file'],
  ['PostgreSQL', 'pg'],
] as const)('creating a twin, on %s', (_label, kind) => {
  const env = (): NodeJS.ProcessEnv => (kind === 'pg' ? { DBFORM_STATE: world.db.url } : {});

  it('a leftover DBFORM_WORKSPACE=pr-1, then apply of the production config: refused, naming workspace "default"; nothing is created', async () => {
    const prefix = `twin-${kind}`;
    const ws = workspace(production(prefix, kind === 'pg' ? 81 : 80), world.emulator.url, env());
    const first = await runCli(ws, ['apply', '--auto-approve']);
    expect(first.code, first.stderr).toBe(0);
    const before = await live();

    await resetStats();
    for (const command of [['plan'], ['apply', '--auto-approve']]) {
      const r = await runCli(ws, command, { env: { DBFORM_WORKSPACE: 'pr-1' } });
      expect(r.code, r.stderr).toBe(1);
      for (const [address, noun] of [['vpc.net', 'VPC'], ['service.app', 'service'], ['service.api', 'service']]) {
        const name = `${prefix}-${address.split('.')[1]}`;
        expect(r.stderr + r.stdout).toMatch(
          new RegExp(`${address.replace('.', '\\.')} would be created with the name "${name}", which is the name of the live ${noun} \\w+ that workspace "default" binds as ${address.replace('.', '\\.')}: that would make a twin of it\\. To work on workspace "default", run with --workspace default \\(a DBFORM_WORKSPACE left over in the shell is the usual cause\\)`),
        );
      }
    }
    expect(await creates()).toBe(0);
    const after = await live();
    expect(after.services.filter((s) => s.name.startsWith(`${prefix}-`)).length).toBe(before.services.filter((s) => s.name.startsWith(`${prefix}-`)).length);
    expect(after.vpcs.filter((v) => v.name === `${prefix}-net`)).toHaveLength(1);
  });
});

describe('a lost lockfile entry and a VPC renamed by hand', () => {
  it('plans no second VPC with the same CIDR: the error names the live VPC and the import that binds it again', async () => {
    const ws: Workspace = workspace(production('lost', 82), world.emulator.url);
    expect((await runCli(ws, ['apply', '--auto-approve'])).code).toBe(0);
    const lock = JSON.parse(readFileSync(ws.lockfile, 'utf8'));
    const vpcId = lock.resources['vpc.net'].id as string;
    delete lock.resources['vpc.net'];
    writeFileSync(ws.lockfile, JSON.stringify(lock, null, 2));
    const renamed = await fetch(`${world.emulator.url}/projects/proj-demo/vpcs/${vpcId}/rename`, {
      method: 'POST',
      headers: { authorization: 'Bearer demo-pat', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'lost-net-by-hand' }),
    });
    expect(renamed.status).toBe(200);

    await resetStats();
    const r = await runCli(ws, ['apply', '--auto-approve']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `vpc.net would be created with cidr 10.82.0.0/16, which overlaps the live VPC "lost-net-by-hand" (${vpcId}, 10.82.0.0/16). ` +
        `If that is the VPC this config means, bind it with \`dbform import vpc.net ${vpcId}\``,
    );
    expect(await creates()).toBe(0);
    expect((await live()).vpcs.filter((v) => v.cidr === '10.82.0.0/16')).toHaveLength(1);

    // The way out the error names works: import, and the plan renames it back.
    const imported = await runCli(ws, ['import', 'vpc.net', vpcId]);
    expect(imported.code, imported.stderr).toBe(0);
    const plan = await runCli(ws, ['plan']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('~ vpc.net  (renameVPC)');
  });
});
