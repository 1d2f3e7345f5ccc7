// The identity of the state (SPEC section 2): apply gives a new lockfile a lineage and a serial,
// keeps the lineage and raises the serial on every write, and upgrades a lockfile without them.
import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator } from '../../../src/emulator/index.js';
import { runCli, workspace } from '../apply/cli-harness.js';

let emulator: Awaited<ReturnType<typeof startEmulator>> | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

const config = (services: string[]) =>
  `version: 1\nproject_id: proj-demo\nservices:\n${services.map((s) => `  ${s}:\n    cpu_millis: 500\n    memory_gbs: 2\n`).join('')}`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('lockfile lineage and serial', () => {
  it('an apply writes them; later applies keep the lineage and raise the serial; an old lockfile is upgraded', async () => {
    emulator = await startEmulator({ timeScale: 0.01 });
    const ws = workspace(config(['a']), emulator.url);
    expect((await runCli(ws, ['apply', '--auto-approve'])).code).toBe(0);
    const first = JSON.parse(readFileSync(ws.lockfile, 'utf8'));
    expect(Object.keys(first)).toEqual(['version', 'project_id', 'lineage', 'serial', 'resources']);
    expect(first.lineage).toMatch(UUID);
    expect(first.serial).toBeGreaterThanOrEqual(1);

    writeFileSync(ws.config, config(['a', 'b']));
    expect((await runCli(ws, ['apply', '--auto-approve'])).code).toBe(0);
    const second = JSON.parse(readFileSync(ws.lockfile, 'utf8'));
    expect(second.lineage).toBe(first.lineage);
    expect(second.serial).toBeGreaterThan(first.serial);

    // A lockfile of an older dbform: read as it is, given an identity by the next write.
    const { lineage: _l, serial: _s, ...old } = second;
    writeFileSync(ws.lockfile, `${JSON.stringify(old, null, 2)}\n`);
    const plan = await runCli(ws, ['plan', '--detailed-exitcode']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(readFileSync(ws.lockfile, 'utf8')).toBe(`${JSON.stringify(old, null, 2)}\n`);
    writeFileSync(ws.config, config(['a']));
    expect((await runCli(ws, ['apply', '--auto-approve', '--allow-data-loss'])).code).toBe(0);
    const upgraded = JSON.parse(readFileSync(ws.lockfile, 'utf8'));
    expect(upgraded.lineage).toMatch(UUID);
    expect(upgraded.lineage).not.toBe(first.lineage);
    expect(upgraded.serial).toBe(1);
    expect(Object.keys(upgraded.resources)).toEqual(['service.a']);
  });
});
