// The apply lock is taken on the lockfile's real path (SPEC section 5): two spellings of one
// lockfile (a symlink to it, or a symlinked directory before the file exists) never run two
// applies at once, and writes go through the link instead of replacing it.
import { existsSync, lstatSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator } from '../../../src/emulator/index.js';
import { realFilePath } from '../../../src/lockfile/index.js';
import { runCli, spawnCli, workspace, type Workspace } from '../apply/cli-harness.js';
import { EmulatorClock } from '../../support/emulator-clock.js';

let emulator: Awaited<ReturnType<typeof startEmulator>> | undefined;
// The emulator's clock; stopped while the second apply runs, so the first still holds the lock.
let clock = new EmulatorClock();
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

const config = (n: number) =>
  `version: 1\nproject_id: proj-demo\nservices:\n${Array.from({ length: n }, (_, i) => `  s${i}:\n    cpu_millis: 500\n    memory_gbs: 2\n`).join('')}`;

const withVpcs = (vpcs: string[], services: number) =>
  config(services).replace('services:\n', `vpcs:\n${vpcs.map((v, i) => `  ${v}:\n    cidr: 10.${i}.0.0/16\n    region_code: us-east-1\n`).join('')}services:\n`);

async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * Starts an apply through `first`, and while it holds the lock runs another through `second`: the
 * emulator's clock stands meanwhile, so the first cannot finish its creates and let the lock go.
 */
async function concurrentApplies(ws: Workspace, first: string, second: string, lockOf: string) {
  clock.freeze();
  const running = spawnCli(ws, ['apply', '--auto-approve', '--lockfile', first]);
  await until(() => existsSync(`${lockOf}.lock`), 'the first apply to take the lock');
  const other = await runCli(ws, ['apply', '--auto-approve', '--lockfile', second]);
  clock.thaw();
  return { other, done: await running.done, pid: running.child.pid };
}

async function startClockedEmulator() {
  clock = new EmulatorClock();
  return startEmulator({ timeScale: 0.01, now: clock.now });
}

describe('the apply lock on the real path', () => {
  it('a symlink to the lockfile: the second apply is refused naming the holder; the link stays a link', async () => {
    emulator = await startClockedEmulator();
    // VPCs are created at once; the services wait for the clock, holding the lock meanwhile.
    const ws = workspace(withVpcs(['main'], 0), emulator.url);
    expect((await runCli(ws, ['apply', '--auto-approve'])).code).toBe(0);
    const link = join(ws.dir, 'link.lock.json');
    symlinkSync('dbform.lock.json', link);
    writeFileSync(ws.config, withVpcs(['main'], 2));
    const { other, done, pid } = await concurrentApplies(ws, 'dbform.lock.json', 'link.lock.json', ws.lockfile);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain(`another dbform apply holds the lock ${realpathSync(ws.lockfile)}.lock: pid ${pid} on ${hostname()} (dbform apply, started `);
    expect(done.code, done.stderr).toBe(0);
    expect(Object.keys(JSON.parse(readFileSync(ws.lockfile, 'utf8')).resources)).toEqual(['vpc.main', 'service.s0', 'service.s1']);
    // Applying through the link writes the file it names.
    writeFileSync(ws.config, withVpcs(['main', 'edge'], 2));
    const viaLink = await runCli(ws, ['apply', '--auto-approve', '--lockfile', 'link.lock.json']);
    expect(viaLink.code, viaLink.stderr).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(Object.keys(JSON.parse(readFileSync(ws.lockfile, 'utf8')).resources)).toHaveLength(4);
    expect(existsSync(`${ws.lockfile}.lock`)).toBe(false);
  });

  it('a lockfile not written yet in a symlinked directory: one lock for both spellings', async () => {
    emulator = await startClockedEmulator();
    const ws = workspace(config(2), emulator.url);
    mkdirSync(join(ws.dir, 'state'));
    symlinkSync('state', join(ws.dir, 'state-link'));
    const real = join(ws.dir, 'state', 'dbform.lock.json');
    const { other, done, pid } = await concurrentApplies(ws, 'state/dbform.lock.json', 'state-link/dbform.lock.json', real);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain(`another dbform apply holds the lock ${realpathSync(real)}.lock: pid ${pid} on ${hostname()}`);
    expect(done.code, done.stderr).toBe(0);
    expect(Object.keys(JSON.parse(readFileSync(real, 'utf8')).resources)).toEqual(['service.s0', 'service.s1']);
  });

  it('resolves a dangling symlink to where the file will be', async () => {
    const ws = workspace(config(1), 'http://127.0.0.1:9');
    mkdirSync(join(ws.dir, 'shared'));
    symlinkSync(join('shared', 'dbform.lock.json'), join(ws.dir, 'dangling.json'));
    expect(await realFilePath(join(ws.dir, 'dangling.json'))).toBe(join(realpathSync(ws.dir), 'shared', 'dbform.lock.json'));
    expect(await realFilePath(join(ws.dir, 'missing-dir', 'x.json'))).toBe(join(realpathSync(ws.dir), 'missing-dir', 'x.json'));
  });
});
