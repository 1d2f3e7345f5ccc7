// Spawns the built CLI (run `npx tsc -p tsconfig.json` first; `npm test` does).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN } from '../../support/cli.js';
import { removeTempDirs, tempDir } from '../../support/temp-dir.js';

afterAll(removeTempDirs);


/** Starts `dbform emulator ARGS` and resolves with the first stdout line. */
function startCli(args: string[]): Promise<{ child: ChildProcess; line: string; exited: Promise<{ code: number | null; stderr: string }> }> {
  const child = spawn(process.execPath, [BIN, 'emulator', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<{ code: number | null; stderr: string }>((resolve) => child.on('exit', (code) => resolve({ code, stderr })));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve({ child, line: out.slice(0, nl), exited });
    });
    void exited.then(({ code }) => reject(new Error(`emulator exited early (${code}): ${stderr}`)));
  });
}

const runCli = (args: string[]) => spawnSync(process.execPath, [BIN, 'emulator', ...args], { encoding: 'utf8', timeout: 10_000 });

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

  it('validates its flags with clear messages', () => {
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
    ];
    for (const [args, message] of cases) {
      const r = runCli(args);
      expect(r.status, args.join(' ')).toBe(1);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(r.stdout).toBe('');
    }
  });

  it('reports a busy port and a corrupt state file without a stack trace', async () => {
    const { child, line, exited } = await startCli(['--port', '0']);
    const port = /:(\d+)\//.exec(line)![1]!;
    const busy = runCli(['--port', port]);
    expect(busy.status).toBe(1);
    expect(busy.stderr).toMatch(/cannot listen on 127\.0\.0\.1:\d+: the port is already in use/);
    child.kill('SIGTERM');
    await exited;
    const state = join(tempDir('dbform-cli-emu-'), 'state.json');
    writeFileSync(state, 'not json');
    const corrupt = runCli(['--port', '0', '--state', state]);
    expect(corrupt.status).toBe(1);
    expect(corrupt.stderr).toMatch(/emulator state file .*state\.json is corrupt/);
    expect(corrupt.stderr).not.toMatch(/\n\s+at /);
  });
});
