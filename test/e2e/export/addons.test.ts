// The `ai` addon end to end (issue 12): the plan of a create shows it, apply sends it, export
// writes it back, and a plan of the export shows no changes.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type EmulatorHandle } from '../../../src/emulator/index.js';
import { runCli } from '../../support/cli.js';
import { tempDir } from '../../support/temp-dir.js';

let em: EmulatorHandle | undefined;
afterEach(async () => {
  await em?.close();
  em = undefined;
});

describe('addons: [ai]', () => {
  it('is shown by plan, created by apply, written by export, and the export plans to no changes', async () => {
    em = await startEmulator({ timeScale: 0 });
    const env = { DBFORM_API_URL: em.url, DBFORM_API_KEY: 'demo-pat', DBFORM_POLL_MS: '10', NO_COLOR: '1' };
    const dir = tempDir('dbform-ai-');
    const config = join(dir, 'dbform.yaml');
    writeFileSync(config, 'version: 1\nproject_id: proj-demo\nservices:\n  vec:\n    addons: [ai]\n  both:\n    addons: [time-series, ai]\n');

    const plan = await runCli(['plan', '-f', config], { env });
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('  + service.vec  (createService)\n      name: "vec"\n      addons: ["ai"]\n      service_type: "POSTGRES"\n');
    expect(plan.stdout).toContain('      addons: ["ai","time-series"]\n      service_type: "TIMESERIESDB"\n');
    const apply = await runCli(['apply', '--auto-approve', '-f', config, '--pgpass', join(dir, 'pgpass')], { env });
    expect(apply.code, apply.stderr).toBe(0);

    const out = tempDir('dbform-ai-export-');
    const exported = join(out, 'dbform.yaml');
    const run = await runCli(['export', '-o', exported], { env });
    expect(run.code, run.stderr).toBe(0);
    const yaml = readFileSync(exported, 'utf8');
    expect(yaml).toMatch(/ {2}vec:\n(?: {4}.*\n)*? {4}addons: \[ai\]\n/);
    expect(yaml).toMatch(/ {2}both:\n(?: {4}.*\n)*? {4}addons: \[ai, time-series\]\n/);
    const again = await runCli(['plan', '--detailed-exitcode', '-f', exported], { env });
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.stdout).toContain('No changes.');
  });
});
