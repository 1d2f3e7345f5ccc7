// `dbform apply` end to end: the built CLI against an emulator over HTTP.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { EmulatorHandle } from '../../../src/emulator/index.js';
import { describeDialectBlind, itDialectBlind, startTestEmulator } from '../../support/dialect.js';
import { EmulatorClock } from '../../support/emulator-clock.js';
import { duplicates, nextPlan, runCli, workspace } from './cli-harness.js';
import { removeTempDirs } from '../../support/temp-dir.js';

afterAll(removeTempDirs);

let emulator: EmulatorHandle | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

async function setup(config: string, timeScale = 0.02, clock?: EmulatorClock) {
  emulator = await startTestEmulator({ timeScale, ...(clock ? { now: clock.now } : {}) });
  return workspace(config, emulator.url);
}

const ROOT = join(import.meta.dirname, '..', '..', '..');
const small = `version: 1
project_id: proj-demo
vpcs:
  main:
    cidr: 10.0.0.0/16
    region_code: us-east-1
services:
  db:
    region_code: us-east-1
    cpu_millis: 500
    memory_gbs: 2
    vpc: main
`;

describe('dbform apply', () => {
  it('a wide apply (many actions in flight at once) writes nothing to stderr, no listener warning', async () => {
    const services = Array.from({ length: 14 }, (_, i) => `  s${i}:\n    cpu_millis: 500\n    memory_gbs: 2\n`).join('');
    const ws = await setup(`version: 1\nproject_id: proj-demo\nservices:\n${services}`);
    const run = await runCli(ws, ['apply', '--auto-approve', '--parallelism', '20']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Apply complete: 14 created, 0 updated, 0 deleted, 0 replaced.\n');
    expect(run.stdout).toContain('Actions: 14 done, 0 failed, 0 skipped, 0 blocked.');
  });

  it('applies examples/full.yaml and the next plan is empty', async () => {
    // full.yaml keeps a `moved:` entry whose `from` a fresh lockfile never held: it must be a no-op.
    const text = readFileSync(join(ROOT, 'examples', 'full.yaml'), 'utf8');
    expect(text).toMatch(/^moved:/m);
    const ws = await setup(text);
    const env = { METRICS_DB_PASSWORD: 'canary-pw-123' };
    const first = await runCli(ws, ['apply', '--auto-approve'], { env });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/Apply complete: \d+ created, 0 updated, 0 deleted, 0 replaced\.\n/);
    expect(first.stdout).toMatch(/Actions: \d+ done, 0 failed, 0 skipped, 0 blocked/);
    const { plan, live, lock } = await nextPlan(ws, emulator!.url);
    expect(plan.actions).toEqual([]);
    expect(plan.bindings).toEqual([]);
    expect(duplicates(live)).toEqual([]);
    expect(lock.resources['service.metrics']).toMatchObject({ passwordVersion: 1, protect: true });
    emulator!.resetStats();
    const second = await runCli(ws, ['apply', '--auto-approve'], { env });
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('No changes.');
    expect(Object.keys(emulator!.stats().requests).filter((k) => !k.startsWith('GET'))).toEqual([]);
  });

  itDialectBlind('refuses on a non-TTY without --auto-approve, after showing the plan, and changes nothing', async () => {
    const ws = await setup(small);
    const run = await runCli(ws, ['apply']);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('vpc.main');
    expect(run.stderr).toMatch(/refusing to apply without confirmation: standard input is not a terminal.*--auto-approve/s);
    expect(existsSync(ws.lockfile)).toBe(false);
    expect(emulator!.stats().requests['POST /projects/{project_id}/vpcs']).toBeUndefined();
  });

  itDialectBlind('exits 3 without changing anything when the plan is blocked by protection', async () => {
    const ws = await setup(small.replace('    vpc: main\n', '    vpc: main\n    protect: true\n'));
    expect((await runCli(ws, ['apply', '--auto-approve'])).code).toBe(0);
    const before = readFileSync(ws.lockfile, 'utf8');
    // Removing the protected service from the config plans its deletion: blocked.
    const { writeFileSync } = await import('node:fs');
    writeFileSync(ws.config, small.replace(/services:[\s\S]*$/, 'services: {}\n'));
    emulator!.resetStats();
    const run = await runCli(ws, ['apply', '--auto-approve']);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/blocked.*service\.db/s);
    expect(readFileSync(ws.lockfile, 'utf8')).toBe(before);
    const mutations = Object.keys(emulator!.stats().requests).filter((k) => !k.startsWith('GET'));
    expect(mutations).toEqual([]);
  });

  it('leaves the rest applied when a peering fails, exiting 1 with the peering error message', async () => {
    const ws = await setup(
      small.replace(
        '    region_code: us-east-1\nservices:',
        '    region_code: us-east-1\n    peerings:\n      - peer_account_id: "12345"\n        peer_region_code: us-east-1\n        peer_vpc_id: vpc-bad\nservices:',
      ),
    );
    const run = await runCli(ws, ['apply', '--auto-approve']);
    expect(run.code).toBe(1);
    const failure = /^ {2}peering\.main\.vpc-bad createVPCPeering: peering \d+ of VPC \d+ failed: (.+)$/m.exec(run.stderr);
    expect(failure, run.stderr).not.toBeNull();
    expect(failure![1]).toMatch(/12-digit/);
    expect(run.stdout).toContain(`Failed:\n  ✗ peering.main.vpc-bad createVPCPeering: peering `);
    // The progress line names the address and op once, then the API's message.
    expect(run.stdout).toMatch(/ peering\.main\.vpc-bad createVPCPeering failed after \d+m?s: peering \d+ of VPC \d+ failed: /);
    expect(run.stdout).not.toMatch(/createVPCPeering peering\.main\.vpc-bad/);
    const lock = JSON.parse(readFileSync(ws.lockfile, 'utf8'));
    expect(Object.keys(lock.resources).sort()).toEqual(['peering.main.vpc-bad', 'service.db', 'vpc.main']);
    const services = await (await fetch(`${emulator!.url}/projects/proj-demo/services`, { headers: { authorization: 'Bearer demo-pat' } })).json();
    expect(services[0].vpc_endpoint.vpc_id).toBe(lock.resources['vpc.main'].id);
  });

  itDialectBlind('exits 1 on a plan error before changing anything', async () => {
    const noVpc = small.replace('    vpc: main\n', '');
    const ws = await setup(noVpc);
    expect((await runCli(ws, ['apply', '--auto-approve'])).code).toBe(0);
    const { writeFileSync } = await import('node:fs');
    // A new region needs a replace, which is planned only with --replace.
    writeFileSync(ws.config, noVpc.replace('  db:\n    region_code: us-east-1', '  db:\n    region_code: eu-west-1'));
    emulator!.resetStats();
    const run = await runCli(ws, ['apply', '--auto-approve']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/region_code.*cannot be done in place.*--replace service\.db/);
    expect(Object.keys(emulator!.stats().requests).filter((k) => !k.startsWith('GET'))).toEqual([]);
  });

  itDialectBlind('prints config errors as `dbform validate` does (FILE:LINE:COL: message), for apply and destroy', async () => {
    const ws = await setup('version: 1\nproject_id: proj-demo\nvpcs:\n  main:\n    cidr: 10.10.0.1/16\n    region_code: us-east-1\n    colour: red\n');
    const validate = await runCli(ws, ['validate']);
    expect(validate.code).toBe(1);
    const expected = validate.stderr.replace(/^\d+ errors?\n$/m, '');
    expect(expected.split('\n').filter(Boolean)).toEqual([expect.stringMatching(/^dbform\.yaml:5:11: /), expect.stringMatching(/^dbform\.yaml:7:5: /)]);
    for (const command of ['apply', 'destroy']) {
      const run = await runCli(ws, [command, '--auto-approve']);
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(expected);
    }
    expect(emulator!.stats().total).toBe(0);
  });

  itDialectBlind('rejects a bad --timeout or --parallelism with a clear message', async () => {
    const ws = await setup(small);
    const t = await runCli(ws, ['apply', '--auto-approve', '--timeout', 'soon']);
    expect(t.code).toBe(1);
    expect(t.stderr).toBe('error: --timeout must be a duration such as 30m, 90s, 1h, or a number of milliseconds (got "soon")\n');
    const p = await runCli(ws, ['apply', '--auto-approve', '--parallelism', '0']);
    expect(p.code).toBe(1);
    expect(p.stderr).toContain('--parallelism must be a whole number of at least 1 (got "0")');
    const poll = await runCli(ws, ['apply', '--auto-approve'], { env: { DBFORM_POLL_MS: 'fast' } });
    expect(poll.code).toBe(1);
    expect(poll.stderr).toContain('DBFORM_POLL_MS must be a positive number of milliseconds (found "fast")');
    expect(existsSync(ws.lockfile)).toBe(false);
  });

  itDialectBlind('--lockfile in a missing directory creates it; one under a file is one clear message, before any change', async () => {
    const ws = await setup(small);
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(ws.dir, 'a-file'), '');
    const blocked = await runCli(ws, ['apply', '--auto-approve', '--lockfile', join(ws.dir, 'a-file', 'dbform.lock.json')]);
    expect(blocked).toMatchObject({ code: 1, stderr: `error: cannot create the directory ${join(ws.dir, 'a-file')} of the lockfile: a file of that name is in the way\n` });
    expect(emulator!.stats().total).toBe(0);
    const lockfile = join(ws.dir, 'state', 'prod', 'dbform.lock.json');
    const run = await runCli(ws, ['apply', '--auto-approve', '--lockfile', lockfile]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(Object.keys(JSON.parse(readFileSync(lockfile, 'utf8')).resources).sort()).toEqual(['service.db', 'vpc.main']);
    expect(existsSync(`${lockfile}.lock`)).toBe(false);
  });

  itDialectBlind('fails an action that exceeds --timeout, naming it, with its ID kept so no retry duplicates it', async () => {
    // The emulator's clock stands: the service stays QUEUED however slow the machine.
    const clock = new EmulatorClock();
    clock.freeze();
    const ws = await setup(small, 1, clock);
    const run = await runCli(ws, ['apply', '--auto-approve', '--timeout', '300ms']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/service\.db createService: timed out after 300 ms waiting for service \w+ \(last status QUEUED\)/);
    expect(run.stderr).toMatch(/1 dependent action\(s\) skipped/);
    const id = JSON.parse(readFileSync(ws.lockfile, 'utf8')).resources['service.db'].id;
    await runCli(ws, ['apply', '--auto-approve', '--timeout', '300ms']);
    const { live } = await nextPlan(ws, emulator!.url);
    expect(live.services.map((s) => s.id)).toEqual([id]);
  });
});

describeDialectBlind('dbform apply with a password variable that is not set', () => {
  const withPassword = `version: 1
project_id: proj-demo
services:
  db:
    cpu_millis: 500
    memory_gbs: 2
    password: { from_env: NOT_SET_ANYWHERE, version: 1 }
`;

  it('plan warns; apply refuses before any change instead of creating the service and failing later', async () => {
    const ws = await setup(withPassword);
    const plan = await runCli(ws, ['plan']);
    expect(plan.code).toBe(0);
    expect(plan.stderr).toContain('warning: service.db: password.from_env NOT_SET_ANYWHERE is not set here; apply will refuse to start until it is');
    await emulator!.resetStats();
    const apply = await runCli(ws, ['apply', '--auto-approve'], { env: { NOT_SET_ANYWHERE: '' } });
    expect(apply.code).toBe(1);
    expect(apply.stderr).toBe(
      'error: nothing was changed: the plan sets passwords that are not available:\n' +
        '  environment variable NOT_SET_ANYWHERE (password.from_env of service.db) is not set or empty\n',
    );
    const stats = await emulator!.stats();
    expect(Object.keys(stats.requests).filter((k) => !k.startsWith('GET '))).toEqual([]);
    expect(existsSync(ws.lockfile)).toBe(false);
    const withVariable = await runCli(ws, ['apply', '--auto-approve'], { env: { NOT_SET_ANYWHERE: 'pw-1234567' } });
    expect(withVariable.code, withVariable.stderr).toBe(0);
    expect(JSON.parse(readFileSync(ws.lockfile, 'utf8')).resources['service.db'].password_version).toBe(1);
  });
});
