// examples/ci/drift.yml run here against the emulator: its drift step writes the markdown report
// and says through $GITHUB_OUTPUT whether anything drifted (0), did (2) or failed (1), which
// decides whether the issue is opened or updated, or closed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { startEmulator, type EmulatorHandle } from '../../../src/emulator/index.js';
import { runCli, workspace } from '../apply/cli-harness.js';
import { removeTempDirs } from '../../support/temp-dir.js';
import { readWorkflow, runJob, type ExpressionContext } from '../../support/workflow.js';

const WORKFLOW = join(import.meta.dirname, '..', '..', '..', 'examples', 'ci', 'drift.yml');

let emulator: EmulatorHandle;
let client: ApiClient;
beforeAll(async () => {
  emulator = await startEmulator({ timeScale: 0 });
  client = new ApiClient({ baseUrl: emulator.url, token: 'demo-pat' });
});
afterAll(async () => {
  await client.close();
  await emulator.close();
  removeTempDirs();
});

const config = `version: 1
project_id: proj-demo
services:
  reports:
    cpu_millis: 500
    memory_gbs: 2
`;

describe('examples/ci/drift.yml', () => {
  const workflow = readWorkflow(WORKFLOW);
  const steps = workflow.jobs.drift!.steps;

  it('runs on a schedule; the issue steps follow the drift step\'s exit code', () => {
    expect((workflow.on.schedule as Array<{ cron: string }>)[0]!.cron).toMatch(/^\S+ \S+ \* \* \*$/);
    const step = (name: string) => steps.find((s) => s.name === name)!;
    expect(step('What changed outside dbform').id).toBe('drift');
    expect((step('Open or update the drift issue') as { if?: string }).if).toBe("steps.drift.outputs.exitcode == '2'");
    expect((step('Close the drift issue') as { if?: string }).if).toBe("steps.drift.outputs.exitcode == '0'");
  });

  it('reports nothing, then a hand resize as markdown with exit code 2, and an unreachable API as a failed step', async () => {
    const ws = workspace(config, emulator.url);
    expect((await runCli(ws, ['apply', '--auto-approve'])).code).toBe(0);
    const ctx = (apiUrl: string): ExpressionContext => ({
      vars: { DBFORM_API_URL: apiUrl, DBFORM_STATE_URL: '' },
      secrets: { DBFORM_API_KEY: 'demo-pat', DBFORM_STATE_PASSWORD: '' },
      github: {},
    });
    const run = (apiUrl = emulator.url) => runJob(workflow, 'drift', { cwd: ws.dir, ctx: ctx(apiUrl), env: { HOME: ws.env.HOME, TMPDIR: ws.dir } });

    const quiet = await run();
    expect(quiet).toHaveLength(1);
    expect(quiet[0]).toMatchObject({ status: 0, githubOutput: 'exitcode=0\n' });
    expect(readFileSync(join(ws.dir, 'drift.md'), 'utf8')).toContain('**No changes outside dbform.**');

    const id = JSON.parse(readFileSync(ws.lockfile, 'utf8')).resources['service.reports'].id as string;
    await client.resizeService('proj-demo', id, { cpu_millis: '1000', memory_gbs: '4' });
    const drifted = await run();
    expect(drifted[0]).toMatchObject({ status: 0, githubOutput: 'exitcode=2\n' });
    const report = readFileSync(join(ws.dir, 'drift.md'), 'utf8');
    expect(report).toContain('**1 resource changed outside dbform** since the last apply.');
    expect(report).toContain('| <code>service.reports</code> | <code>cpu_millis</code> | <code>500</code> | <code>1000</code> |');

    const failed = await run('http://127.0.0.1:9/public/api/v1');
    expect(failed[0]!.status).toBe(1);
    expect(failed[0]!.githubOutput).toBe('exitcode=1\n');
    expect(failed[0]!.stderr).toMatch(/^error: /m);
  });
});
