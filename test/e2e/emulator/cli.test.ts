// Spawns the built CLI (run `npx tsc -p tsconfig.json` first; `npm test` does) for the emulator
// that serves until a signal; a run that fails before it listens runs in process (test/support/cli.ts).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, runCli as runDbform } from '../../support/cli.js';
import { removeTempDirs, tempDir } from '../../support/temp-dir.js';

afterAll(removeTempDirs);


/** Starts `dbform emulator ARGS` and resolves with the first stdout line (and the first `lines` lines). */
function startCli(
  args: string[],
  lines = 1,
): Promise<{ child: ChildProcess; line: string; lines: string[]; exited: Promise<{ code: number | null; stderr: string }> }> {
  const child = spawn(process.execPath, [BIN, 'emulator', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<{ code: number | null; stderr: string }>((resolve) => child.on('exit', (code) => resolve({ code, stderr })));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const got = out.split('\n');
      if (got.length > lines) resolve({ child, line: got[0]!, lines: got.slice(0, lines), exited });
    });
    void exited.then(({ code }) => reject(new Error(`emulator exited early (${code}): ${stderr}`)));
  });
}

/** `dbform emulator ARGS` that must fail before it listens (in process: one that listened would wait for a signal). */
async function refused(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const r = await runDbform(['emulator', ...args]);
  return { status: r.code, stdout: r.stdout, stderr: r.stderr };
}

describe('dbform emulator (CLI)', () => {
  it('prints the listening line with the real port, serves the API, and stops cleanly on SIGTERM and SIGINT', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const { child, line, exited } = await startCli(['--port', '0', '--time-scale', '0']);
      const m = /^emulator listening on (http:\/\/127\.0\.0\.1:(\d+)\/public\/api\/v1)$/.exec(line);
      expect(m, line).not.toBeNull();
      expect(Number(m![2])).toBeGreaterThan(0);
      const res = await fetch(`${m![1]}/projects`, { headers: { authorization: 'Bearer demo-pat' } });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual([{ id: 'proj-demo', name: 'Demo' }]);
      child.kill(signal);
      const { code } = await exited;
      expect(code).toBe(0);
      await expect(fetch(`${m![1]}/projects`)).rejects.toThrow();
    }
  });

  it('--dialect tiger answers as the real service: the key pair over HTTP Basic, TIMESCALEDB', async () => {
    const { child, line, exited } = await startCli(['--port', '0', '--time-scale', '0', '--dialect', 'tiger']);
    const url = line.replace('emulator listening on ', '');
    const headers = { authorization: `Basic ${Buffer.from('demo-access:demo-secret').toString('base64')}`, 'content-type': 'application/json' };
    const created = await fetch(`${url}/projects/proj-demo/services`, { method: 'POST', headers, body: JSON.stringify({ name: 'ts', addons: ['time-series'] }) });
    expect(created.status).toBe(202);
    expect((await created.json()).service_type).toBe('TIMESCALEDB');
    child.kill('SIGTERM');
    expect((await exited).code).toBe(0);
  });

  it('uses --state and --seed files', async () => {
    const dir = tempDir('dbform-cli-emu-');
    const seed = join(dir, 'seed.yaml');
    writeFileSync(seed, 'projects: [{id: acme, name: Acme}]\ntokens: [{token: acme-pat, kind: pat, project_id: acme}]\n');
    const state = join(dir, 'state.json');
    const args = ['--port', '0', '--seed', seed, '--state', state, '--time-scale', '0'];
    let run = await startCli(args);
    let url = run.line.replace('emulator listening on ', '');
    const headers = { authorization: 'Bearer acme-pat', 'content-type': 'application/json' };
    const created = await fetch(`${url}/projects/acme/vpcs`, { method: 'POST', headers, body: JSON.stringify({ name: 'v', cidr: '10.0.0.0/16', region_code: 'us-east-1' }) });
    expect(created.status).toBe(201);
    run.child.kill('SIGTERM');
    expect((await run.exited).code).toBe(0);
    run = await startCli(['--port', '0', '--state', state]);
    url = run.line.replace('emulator listening on ', '');
    const list = await fetch(`${url}/projects/acme/vpcs`, { headers });
    expect((await list.json()).map((v: { name: string }) => v.name)).toEqual(['v']);
    run.child.kill('SIGTERM');
    expect((await run.exited).code).toBe(0);
  });

  it('validates its flags with clear messages', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['--fault-rate', '2'], /--fault-rate must be a number from 0 to 1 \(got "2"\)/],
      [['--throttle-rate', '-0.5'], /--throttle-rate must be a number from 0 to 1/],
      [['--lost-response-rate', 'lots'], /--lost-response-rate must be a number from 0 to 1/],
      [['--latency-ms', '-5'], /--latency-ms must be an integer from 0 to 3600000/],
      [['--latency-ms', '99999999999'], /--latency-ms must be an integer from 0 to 3600000/],
      [['--time-scale', '-1'], /--time-scale must be a number >= 0/],
      [['--port', '70000'], /--port must be an integer from 0 to 65535/],
      [['--fault-seed', '1.5'], /--fault-seed must be an integer/],
      [['--seed', '/no/such/seed.yaml', '--port', '0'], /cannot read seed file \/no\/such\/seed\.yaml/],
      [['--dialect', 'aws'], /option '--dialect <dialect>' argument 'aws' is invalid\. Allowed choices are seed, tiger\./],
      [['--backup-delay', '-1'], /--backup-delay must be a number of seconds from 0 to 86400 \(got "-1"\)/],
      [['--backup-delay', '1e6'], /--backup-delay must be a number of seconds from 0 to 86400/],
      [['--peering-acceptance', 'later'], /argument 'later' is invalid\. Allowed choices are auto, manual\./],
      [['--teardown', 'slow'], /argument 'slow' is invalid\. Allowed choices are immediate, eventual\./],
      [['--endpoints', 'private'], /argument 'private' is invalid\. Allowed choices are fixed, moving\./],
    ];
    for (const [args, message] of cases) {
      const r = await refused(args);
      expect(r.status, args.join(' ')).toBe(1);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(r.stdout).toBe('');
    }
  });

  it('reports a busy port and a corrupt state file without a stack trace', async () => {
    const { child, line, exited } = await startCli(['--port', '0']);
    const port = /:(\d+)\//.exec(line)![1]!;
    const busy = await refused(['--port', port]);
    expect(busy.status).toBe(1);
    expect(busy.stderr).toMatch(/cannot listen on 127\.0\.0\.1:\d+: the port is already in use/);
    child.kill('SIGTERM');
    await exited;
    const state = join(tempDir('dbform-cli-emu-'), 'state.json');
    writeFileSync(state, 'not json');
    const corrupt = await refused(['--port', '0', '--state', state]);
    expect(corrupt.status).toBe(1);
    expect(corrupt.stderr).toMatch(/emulator state file .*state\.json is corrupt/);
    expect(corrupt.stderr).not.toMatch(/\n\s+at /);
  });

  it('prints the export line a second terminal pastes; pasted, dbform works against it (and the tiger CLI line for tiger)', async () => {
    const seed = await startCli(['--port', '0', '--time-scale', '0'], 3);
    const url = seed.line.replace('emulator listening on ', '');
    expect(seed.lines.slice(1)).toEqual(['# dbform in another terminal:', `export DBFORM_API_URL=${url} DBFORM_API_KEY=demo-pat DBFORM_EMULATOR_TIME_SCALE=0`]);
    const pasted = await runDbform(['projects', '--json'], { env: exported(seed.lines[2]!) });
    expect([pasted.code, JSON.parse(pasted.stdout)]).toEqual([0, [{ id: 'proj-demo', name: 'Demo' }]]);
    seed.child.kill('SIGTERM');
    await seed.exited;

    const tiger = await startCli(['--port', '0', '--dialect', 'tiger'], 5);
    const tigerUrl = tiger.line.replace('emulator listening on ', '');
    expect(tiger.lines.slice(1)).toEqual([
      '# dbform in another terminal:',
      `export DBFORM_API_URL=${tigerUrl} DBFORM_ACCESS_KEY=demo-access DBFORM_SECRET_KEY=demo-secret`,
      "# Timescale's tiger CLI:",
      `export TIGER_API_URL=${tigerUrl} TIGER_PUBLIC_KEY=demo-access TIGER_SECRET_KEY=demo-secret`,
    ]);
    const viaPair = await runDbform(['projects', '--json'], { env: exported(tiger.lines[2]!) });
    expect([viaPair.code, JSON.parse(viaPair.stdout)]).toEqual([0, [{ id: 'proj-demo', name: 'Demo' }]]);
    // What the tiger CLI does first with its key pair: ask who it is, to learn its project.
    const tigerEnv = exported(tiger.lines[4]!);
    const who = await fetch(`${tigerEnv.TIGER_API_URL}/auth/info`, {
      headers: { authorization: `Basic ${Buffer.from(`${tigerEnv.TIGER_PUBLIC_KEY}:${tigerEnv.TIGER_SECRET_KEY}`).toString('base64')}` },
    });
    expect((await who.json()).api_key.project.id).toBe('proj-demo');
    tiger.child.kill('SIGTERM');
    await tiger.exited;
  });

  it('quotes a seeded credential for the shell, and says so when the seed holds none', async () => {
    const dir = tempDir('dbform-cli-emu-');
    const odd = join(dir, 'odd.yaml');
    writeFileSync(odd, "projects: [{id: acme, name: Acme}]\ntokens: [{token: 'it''s$x;`y`', kind: pat, project_id: acme}]\n");
    const quoted = await startCli(['--port', '0', '--seed', odd], 3);
    // The shell reads the pasted line back to the very token.
    const shell = spawnSync('sh', ['-c', `${quoted.lines[2]}; printf %s "$DBFORM_API_KEY"`], { encoding: 'utf8' });
    expect(shell.stdout).toBe("it's$x;`y`");
    quoted.child.kill('SIGTERM');
    await quoted.exited;
    const none = join(dir, 'none.yaml');
    writeFileSync(none, 'projects: [{id: acme, name: Acme}]\ntokens: []\n');
    const empty = await startCli(['--port', '0', '--seed', none], 2);
    expect(empty.lines[1]).toBe('# the seed holds no credential to use it with');
    empty.child.kill('SIGTERM');
    await empty.exited;
  });

  it('--peering-acceptance manual and --backup-delay reach the API', async () => {
    const { child, line, exited } = await startCli(['--port', '0', '--time-scale', '0.001', '--dialect', 'tiger', '--peering-acceptance', 'manual', '--backup-delay', '86400']);
    const url = line.replace('emulator listening on ', '');
    const origin = new URL(url).origin;
    const headers = { authorization: `Basic ${Buffer.from('demo-access:demo-secret').toString('base64')}`, 'content-type': 'application/json' };
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await res.text();
      return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
    };
    const vpc = (await call('POST', '/projects/proj-demo/vpcs', { name: 'v', cidr: '10.0.0.0/16', region_code: 'us-east-1' })).body.id;
    const service = (await call('POST', '/projects/proj-demo/services', { name: 'db' })).body.service_id;
    // CREATING 2 ms, PENDING 2 ms, READY after 5 ms at this scale; the backup 86.4 s after that.
    await until(async () => (await call('GET', `/projects/proj-demo/services/${service}`)).body.status === 'READY');
    await until(async () => (await call('GET', `/projects/proj-demo/vpcs/${vpc}`)).body.status === 'CREATED');
    const peering = (await call('POST', `/projects/proj-demo/vpcs/${vpc}/peerings`, { peer_account_id: '123456789012', peer_region_code: 'us-east-1', peer_vpc_id: 'p' })).body.id;
    await until(async () => (await call('GET', `/projects/proj-demo/vpcs/${vpc}/peerings/${peering}`)).body.provisioned_id !== undefined);
    expect((await call('GET', `/projects/proj-demo/vpcs/${vpc}/peerings/${peering}`)).body.status).toBe('PENDING');
    expect((await call('POST', `/projects/proj-demo/services/${service}/forkService`, { fork_strategy: 'NOW' })).body.message).toContain("doesn't yet have any backups");
    expect((await fetch(`${origin}/__emulator/peerings/${peering}/accept`, { method: 'POST' })).status).toBe(204);
    await until(async () => (await call('GET', `/projects/proj-demo/vpcs/${vpc}/peerings/${peering}`)).body.status === 'ACTIVE');
    child.kill('SIGTERM');
    expect((await exited).code).toBe(0);
  });

  it('--emulator on other commands reads the switches from DBFORM_EMULATOR_* (named when wrong)', async () => {
    const cwd = tempDir('dbform-cli-emu-');
    const env = { DBFORM_EMULATOR_DIALECT: 'tiger', DBFORM_EMULATOR_BACKUP_DELAY: '0', DBFORM_EMULATOR_TEARDOWN: 'immediate', DBFORM_EMULATOR_ENDPOINTS: 'fixed', DBFORM_EMULATOR_PEERING_ACCEPTANCE: 'manual' };
    const ok = await runDbform(['projects', '--emulator', '--debug'], { cwd, env });
    expect(ok.code).toBe(0);
    expect(ok.stderr).toContain(', dialect tiger\n[emulator] backup delay 0 s, peering acceptance manual, teardown immediate, endpoints fixed\n');
    const defaults = await runDbform(['projects', '--emulator', '--debug'], { cwd, env: { DBFORM_EMULATOR_DIALECT: 'tiger' } });
    expect(defaults.stderr).toContain(', dialect tiger\n[emulator] backup delay 30 s, peering acceptance auto, teardown eventual, endpoints moving\n');
    for (const [name, value, message] of [
      ['DBFORM_EMULATOR_BACKUP_DELAY', 'soon', 'error: DBFORM_EMULATOR_BACKUP_DELAY must be a number of seconds from 0 to 86400 (found "soon")'],
      ['DBFORM_EMULATOR_PEERING_ACCEPTANCE', 'later', 'error: DBFORM_EMULATOR_PEERING_ACCEPTANCE must be auto or manual (found "later")'],
      ['DBFORM_EMULATOR_TEARDOWN', 'slow', 'error: DBFORM_EMULATOR_TEARDOWN must be immediate or eventual (found "slow")'],
      ['DBFORM_EMULATOR_ENDPOINTS', 'private', 'error: DBFORM_EMULATOR_ENDPOINTS must be fixed or moving (found "private")'],
    ]) {
      const r = await runDbform(['projects', '--emulator'], { cwd, env: { [name!]: value } });
      expect(r, name).toMatchObject({ code: 1, stdout: '', stderr: `${message}\n` });
    }
  });
});

/** The variables of an `export A=B C=D` line (values as the shell would read them; plain ones here). */
function exported(line: string): Record<string, string> {
  expect(line.startsWith('export ')).toBe(true);
  return Object.fromEntries(line.slice('export '.length).split(' ').map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
}

/** Polls `done` every 5 ms, up to 5 s (the emulator runs at a tiny time scale). */
async function until(done: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error('condition not met within 5 s');
    await new Promise((r) => setTimeout(r, 5));
  }
}
