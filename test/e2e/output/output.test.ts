// `dbform output` over real HTTP (SPEC section 11): every value comes from the live resource bound
// to the address, in 2 + V requests; unbound, gone and not-READY addresses are errors; passwords
// appear only with --with-password, and in GitHub format only after their mask.
import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchLiveState } from '../../../src/api/index.js';
import type { EmulatorHandle } from '../../../src/emulator/index.js';
import type { LiveService } from '../../../src/model/index.js';
import { runCli, workspace, type Workspace } from '../apply/cli-harness.js';
import { itDialectBlind, planReads, startTestEmulator, testClient } from '../../support/dialect.js';
import { removeTempDirs } from '../../support/temp-dir.js';

let emulator: EmulatorHandle;
beforeAll(async () => {
  emulator = await startTestEmulator({ timeScale: 0.01 });
});
afterAll(async () => {
  await emulator.close();
  removeTempDirs();
});

const config = (app: string, opts: { pooler?: boolean; vpc?: string } = {}) => `version: 1
project_id: proj-demo
vpcs:
  main:
    name: out-vpc-${app}
    cidr: 10.${app.length}.0.0/16
    region_code: us-east-1
services:
  app:
    name: ${app}-\${workspace}
    cpu_millis: 500
    memory_gbs: 2
    pooler: ${opts.pooler ?? true}
    vpc: ${opts.vpc ?? 'main'}
    replica_sets:
      read:
        cpu_millis: 500
        memory_gbs: 2
        nodes: 1
        pooler: true
  api:
    name: ${app}-api-\${workspace}
    cpu_millis: 500
    memory_gbs: 2
    password:
      from_env: API_DB_PASSWORD
      version: 1
`;

const API_PASSWORD = 'configured-Secret-123';

async function liveService(ws: Workspace, address: string, lockfile = ws.lockfile): Promise<LiveService> {
  const id = JSON.parse(readFileSync(lockfile, 'utf8')).resources[address].id as string;
  const client = testClient(emulator.url);
  try {
    const live = await fetchLiveState(client, 'proj-demo');
    return live.services.find((s) => s.id === id)!;
  } finally {
    await client.close();
  }
}

async function applied(app: string, extraEnv: NodeJS.ProcessEnv = {}): Promise<Workspace> {
  const ws = workspace(config(app), emulator.url, { API_DB_PASSWORD: API_PASSWORD, ...extraEnv });
  const r = await runCli(ws, ['apply', '--auto-approve']);
  expect(r.code, r.stderr).toBe(0);
  return ws;
}

/** Every file the workspace holds, but the pgpass files and those --with-password wrote on purpose. */
function filesOf(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name))
    .filter((p) => !/pgpass|with-password/.test(p));
}

describe('dbform output', () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = await applied('out');
  });

  it('prints host, port, pooler, VPC endpoint, database, user and uri of each service and replica set, read in 2 + V requests', async () => {
    const app = await liveService(ws, 'service.app');
    const api = await liveService(ws, 'service.api');
    const rs = app.replicaSets[0]!;
    emulator.resetStats();
    const r = await runCli(ws, ['output', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(emulator.stats().total).toBe(planReads(1, 2));
    expect(Object.keys(emulator.stats().requests).every((k) => k.startsWith('GET '))).toBe(true);
    const uri = (h: string) => `postgres://tsdbadmin@${h}:5432/tsdb?sslmode=require`;
    expect(JSON.parse(r.stdout)).toEqual({
      'service.api': { host: api.endpoint!.host, port: 5432, database: 'tsdb', user: 'tsdbadmin', uri: uri(api.endpoint!.host) },
      'service.app': {
        host: app.endpoint!.host,
        port: 5432,
        pooler_host: app.poolerEndpoint!.host,
        pooler_port: 6432,
        vpc_host: app.vpcEndpoint!.host,
        vpc_port: 5432,
        database: 'tsdb',
        user: 'tsdbadmin',
        uri: uri(app.endpoint!.host),
      },
      'replica_set.app.read': {
        host: rs.endpoint!.host,
        port: 5432,
        pooler_host: rs.poolerEndpoint!.host,
        pooler_port: 6432,
        database: 'tsdb',
        user: 'tsdbadmin',
        uri: uri(rs.endpoint!.host),
      },
    });
    expect(app.vpcEndpoint!.host).not.toBe(app.endpoint!.host);
  });

  it('text lists one block per address; ADDR selects; the same bytes every time', async () => {
    const app = await liveService(ws, 'service.app');
    const r = await runCli(ws, ['output', 'service.app']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      [
        'service.app',
        `  host        = ${app.endpoint!.host}`,
        '  port        = 5432',
        `  pooler_host = ${app.poolerEndpoint!.host}`,
        '  pooler_port = 6432',
        `  vpc_host    = ${app.vpcEndpoint!.host}`,
        '  vpc_port    = 5432',
        '  database    = tsdb',
        '  user        = tsdbadmin',
        `  uri         = postgres://tsdbadmin@${app.endpoint!.host}:5432/tsdb?sslmode=require`,
        '',
      ].join('\n'),
    );
    const all = await runCli(ws, ['output']);
    expect(all.stdout.split('\n\n').map((b) => b.split('\n')[0])).toEqual(['service.api', 'service.app', 'replica_set.app.read']);
    expect((await runCli(ws, ['output'])).stdout).toBe(all.stdout);
  });

  it('--format env prints DBFORM_<KEY>_<FIELD> lines; a replica set is keyed <service>__<replica set>', async () => {
    const app = await liveService(ws, 'service.app');
    const r = await runCli(ws, ['output', '--format', 'env', 'service.app', 'replica_set.app.read']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.slice(0, 9)).toEqual([
      `DBFORM_APP_HOST=${app.endpoint!.host}`,
      'DBFORM_APP_PORT=5432',
      `DBFORM_APP_POOLER_HOST=${app.poolerEndpoint!.host}`,
      'DBFORM_APP_POOLER_PORT=6432',
      `DBFORM_APP_VPC_HOST=${app.vpcEndpoint!.host}`,
      'DBFORM_APP_VPC_PORT=5432',
      'DBFORM_APP_DATABASE=tsdb',
      'DBFORM_APP_USER=tsdbadmin',
      `DBFORM_APP_URI=postgres://tsdbadmin@${app.endpoint!.host}:5432/tsdb?sslmode=require`,
    ]);
    expect(lines.slice(9).map((l) => l.split('=')[0])).toEqual([
      'DBFORM_APP__READ_HOST',
      'DBFORM_APP__READ_PORT',
      'DBFORM_APP__READ_POOLER_HOST',
      'DBFORM_APP__READ_POOLER_PORT',
      'DBFORM_APP__READ_DATABASE',
      'DBFORM_APP__READ_USER',
      'DBFORM_APP__READ_URI',
    ]);
    // A shell reads the lines back to the same values.
    const { spawnSync } = await import('node:child_process');
    const echoed = spawnSync('sh', ['-c', `${r.stdout}\nprintf '%s|%s' "$DBFORM_APP_URI" "$DBFORM_APP__READ_PORT"`], { encoding: 'utf8' });
    expect(echoed.stdout).toBe(`postgres://tsdbadmin@${app.endpoint!.host}:5432/tsdb?sslmode=require|5432`);
  });

  it('--format github appends <key>_<field> lines to $GITHUB_OUTPUT and prints nothing without a password', async () => {
    const file = join(ws.dir, 'github-output');
    writeFileSync(file, 'earlier=kept\n');
    const app = await liveService(ws, 'service.app');
    const r = await runCli(ws, ['output', '--format', 'github', 'service.app'], { env: { GITHUB_OUTPUT: file } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('Wrote 9 outputs of service.app to $GITHUB_OUTPUT.\n');
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith('earlier=kept\napp_host=')).toBe(true);
    expect(text).toContain(`\napp_pooler_host=${app.poolerEndpoint!.host}\n`);
    expect(text).toContain(`\napp_uri=postgres://tsdbadmin@${app.endpoint!.host}:5432/tsdb?sslmode=require\n`);
    expect(text).not.toContain('password');
  });

  it('--with-password: pgpass for a created service, password.from_env where configured; github masks it first', async () => {
    const pgpass = readFileSync(ws.pgpass, 'utf8');
    const app = await liveService(ws, 'service.app');
    const initial = pgpass.split('\n').find((l) => l.startsWith(`${app.endpoint!.host}:5432:`))!.split(':')[4]!;
    expect(initial.length).toBeGreaterThan(8);
    const env = await runCli(ws, ['output', '--format', 'env', '--with-password']);
    expect(env.code, env.stderr).toBe(0);
    expect(env.stdout).toContain(`\nDBFORM_APP_PASSWORD=${initial}\n`);
    expect(env.stdout).toContain(`\nDBFORM_APP__READ_PASSWORD=${initial}\n`);
    expect(env.stdout).toContain(`\nDBFORM_API_PASSWORD=${API_PASSWORD}\n`);
    const file = join(ws.dir, 'github-with-password');
    const gh = await runCli(ws, ['output', '--format', 'github', '--with-password'], { env: { GITHUB_OUTPUT: file } });
    expect(gh.code, gh.stderr).toBe(0);
    expect(gh.stdout).toBe(`::add-mask::${API_PASSWORD}\n::add-mask::${initial}\n`);
    expect(readFileSync(file, 'utf8')).toContain(`\napp_password=${initial}\n`);
    expect(gh.stderr).not.toContain(initial);
    // --pgpass names the file; one that others can read is refused, as libpq refuses it.
    const other = join(ws.dir, 'other.pgpass');
    writeFileSync(other, `${app.endpoint!.host}:5432:tsdb:tsdbadmin:from-other-file\n`, { mode: 0o600 });
    const picked = await runCli(ws, ['output', '--json', '--with-password', '--pgpass', other, 'service.app']);
    expect(JSON.parse(picked.stdout)['service.app'].password).toBe('from-other-file');
    chmodSync(other, 0o644);
    const loose = await runCli(ws, ['output', '--with-password', '--pgpass', other, 'service.app']);
    expect(loose.code).toBe(1);
    expect(loose.stdout).toBe('');
    expect(loose.stderr).toBe(
      `error: no password for service.app: the config sets no password.from_env, and ${other} is readable by group or others (mode 644); chmod 600 it (give the file with --pgpass PATH or PGPASSFILE)\n`,
    );
  });

  it('without --with-password no password reaches stdout, stderr, $GITHUB_OUTPUT or any file', async () => {
    const app = await liveService(ws, 'service.app');
    const initial = readFileSync(ws.pgpass, 'utf8').split('\n').find((l) => l.startsWith(`${app.endpoint!.host}:5432:`))!.split(':')[4]!;
    const file = join(ws.dir, 'github-no-password');
    const outputs = [
      await runCli(ws, ['output']),
      await runCli(ws, ['output', '--json']),
      await runCli(ws, ['output', '--format', 'env']),
      await runCli(ws, ['output', '--format', 'github'], { env: { GITHUB_OUTPUT: file } }),
      await runCli(ws, ['output', '--debug']),
    ];
    for (const r of outputs) {
      expect(r.code, r.stderr).toBe(0);
      for (const secret of [initial, API_PASSWORD]) {
        expect(r.stdout).not.toContain(secret);
        expect(r.stderr).not.toContain(secret);
      }
    }
    for (const path of filesOf(ws.dir)) {
      const text = readFileSync(path, 'utf8');
      expect(text, path).not.toContain(initial);
      expect(text, path).not.toContain(API_PASSWORD);
    }
  });

  it('drops pooler_* while the pooler is disabled and vpc_* while detached', async () => {
    const own = await applied('flags');
    writeFileSync(own.config, config('flags', { pooler: false, vpc: 'null' }));
    expect((await runCli(own, ['apply', '--auto-approve'])).code).toBe(0);
    const r = await runCli(own, ['output', '--json', 'service.app']);
    expect(r.code, r.stderr).toBe(0);
    expect(Object.keys(JSON.parse(r.stdout)['service.app'])).toEqual(['host', 'port', 'database', 'user', 'uri']);
  });
});

describe('dbform output refuses what it cannot answer truthfully (one line each, nothing on stdout)', () => {
  itDialectBlind('an address the config does not have, or one that is not a service or replica set', async () => {
    const ws = workspace(config('refuse'), emulator.url);
    emulator.resetStats();
    const r = await runCli(ws, ['output', 'service.nope']);
    expect(r).toMatchObject({ code: 1, stdout: '' });
    expect(r.stderr).toBe('error: service.nope is not in the config dbform.yaml; output knows: service.api, service.app, replica_set.app.read\n');
    const vpc = await runCli(ws, ['output', 'vpc.main']);
    expect(vpc.code).toBe(1);
    expect(vpc.stderr).toBe(
      'error: vpc.main is a VPC: output prints the connection details of services and replica sets only (dbform.yaml has: service.api, service.app, replica_set.app.read)\n',
    );
    expect(emulator.stats().total).toBe(0);
  });

  itDialectBlind('--format github without GITHUB_OUTPUT, and --json with another --format', async () => {
    const ws = workspace(config('refuse'), emulator.url);
    const r = await runCli(ws, ['output', '--format', 'github']);
    expect(r).toMatchObject({ code: 1, stdout: '' });
    expect(r.stderr).toBe('error: --format github appends to the file named by $GITHUB_OUTPUT, which is not set here; run it in a GitHub Actions step, or use --format env\n');
    const both = await runCli(ws, ['output', '--json', '--format', 'env']);
    expect(both.stderr).toBe('error: --json and --format env contradict each other; use one\n');
  });

  it('an unbound address: never the endpoint of a resource with the same name, or of another workspace', async () => {
    const ws = await applied('unbound');
    // Another workspace of the same config binds nothing yet, and a live service already has the
    // name its config would create: output must not hand CI that (or the default's) endpoint.
    const parent = await liveService(ws, 'service.app');
    const client = testClient(emulator.url);
    await client.createService('proj-demo', { name: 'unbound-pr-1', cpu_millis: '500', memory_gbs: '2' } as never);
    await client.close();
    const r = await runCli(ws, ['output', '--workspace', 'pr-1', 'service.app']);
    expect(r).toMatchObject({ code: 1, stdout: '' });
    expect(r.stderr).toBe('error: service.app is not bound in workspace "pr-1" of dbform.pr-1.lock.json: it has not been applied there yet (run `dbform apply`)\n');
    expect(r.stderr).not.toContain(parent.endpoint!.host);
    expect(existsSync(join(ws.dir, 'dbform.pr-1.lock.json'))).toBe(false);
  });

  it('a resource that is not READY, or gone', async () => {
    const ws = await applied('gone');
    const app = await liveService(ws, 'service.app');
    const api = await liveService(ws, 'service.api');
    const client = testClient(emulator.url);
    try {
      await client.stopService('proj-demo', app.id);
      await client.deleteService('proj-demo', api.id);
    } finally {
      await client.close();
    }
    const stopped = await runCli(ws, ['output', 'service.app']);
    expect(stopped).toMatchObject({ code: 1, stdout: '' });
    expect(stopped.stderr).toMatch(new RegExp(`^error: service\\.app \\(service ${app.id}\\) is (PAUSING|PAUSED), not READY: it takes no connections until it is\\n$`));
    const gone = await runCli(ws, ['output', 'service.api']);
    expect(gone).toMatchObject({ code: 1, stdout: '' });
    expect(gone.stderr).toMatch(
      new RegExp(`^error: service\\.api is bound to service ${api.id}, which is gone from project proj-demo( \\(DELETING\\))?; run \`dbform plan\` to see what apply would do\\n$`),
    );
  });

  it("a replica set that is not active, or gone: never its service's endpoint instead", async () => {
    const ws = await applied('rsgone');
    const app = await liveService(ws, 'service.app');
    const rs = app.replicaSets[0]!;
    const failed = await fetch(`${emulator.origin}/__emulator/replica-sets/${rs.id}/fail`, { method: 'POST' });
    expect(failed.status).toBe(204);
    const broken = await runCli(ws, ['output', 'replica_set.app.read']);
    expect(broken).toMatchObject({ code: 1, stdout: '' });
    expect(broken.stderr).toBe(`error: replica_set.app.read (replica set ${rs.id}) is error, not active: it takes no connections until it is\n`);
    const client = testClient(emulator.url);
    try {
      await client.deleteReplicaSet('proj-demo', app.id, rs.id);
    } finally {
      await client.close();
    }
    // With the service that still answers, asked for together: nothing at all is printed.
    const gone = await runCli(ws, ['output', '--json', 'service.app', 'replica_set.app.read']);
    expect(gone).toMatchObject({ code: 1, stdout: '' });
    expect(gone.stderr).toMatch(new RegExp(`^error: replica_set\\.app\\.read is bound to replica set ${rs.id}, which is gone( \\(deleting\\))?; run \`dbform plan\` to see what apply would do\\n$`));
    expect(gone.stderr).not.toContain(app.endpoint!.host);
  });
});
