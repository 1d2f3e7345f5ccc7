// examples/ci/preview.yml, run here job by job against the emulator and a real PostgreSQL state
// (SPEC section 11): the pull request's fork is created in workspace pr-<number>, the comment shows
// the fork's endpoint (never production's, never a password), closing destroys it, and the nightly
// sweep removes an expired preview and never the default workspace.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, workspace, type Workspace } from '../apply/cli-harness.js';
import { useDatabaseAndEmulator } from '../../support/pg-and-emulator.js';
import { readWorkflow, runJob, type ExpressionContext, type StepResult } from '../../support/workflow.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const WORKFLOW = join(ROOT, 'examples', 'ci', 'preview.yml');
const PREVIEW_CONFIG = join(ROOT, 'examples', 'preview.yaml');
const PLACEHOLDER = 'REPLACE-WITH-THE-PRODUCTION-SERVICE-ID';

const world = useDatabaseAndEmulator();

interface LiveDto {
  service_id: string;
  name: string;
  status: string;
  endpoint?: { host: string };
  forked_from?: { service_id: string };
}

async function live(): Promise<LiveDto[]> {
  const res = await fetch(`${world.emulator.url}/projects/proj-demo/services`, { headers: { authorization: 'Bearer demo-pat' } });
  return ((await res.json()) as LiveDto[]).filter((s) => s.status !== 'DELETING');
}

async function bound(workspaceName: string): Promise<Record<string, { id: string }> | undefined> {
  const { rows } = await world.db.query<{ resources: Record<string, { id: string }> }>(
    "SELECT document -> 'resources' AS resources FROM dbform.states WHERE project_id = 'proj-demo' AND workspace = $1",
    [workspaceName],
  );
  return rows[0]?.resources;
}

const production = `version: 1
project_id: proj-demo
services:
  app:
    name: production-app
    cpu_millis: 500
    memory_gbs: 2
`;

function context(pr: number | undefined): ExpressionContext {
  return {
    vars: { DBFORM_API_URL: world.emulator.url, DBFORM_STATE_URL: world.db.url },
    secrets: { DBFORM_API_KEY: 'demo-pat', DBFORM_STATE_PASSWORD: '' },
    github: pr === undefined ? {} : { 'event.pull_request.number': String(pr) },
  };
}

function expectAllPassed(results: StepResult[], expectedSteps: number): void {
  for (const r of results) expect(r.status, `${r.step}\n${r.stdout}\n${r.stderr}`).toBe(0);
  expect(results).toHaveLength(expectedSteps);
}

describe('examples/ci/preview.yml', () => {
  const workflow = readWorkflow(WORKFLOW);

  it('runs on pull requests (opened, pushed, reopened, closed) and nightly; one job per event', () => {
    expect((workflow.on.pull_request as { types: string[] }).types).toEqual(['opened', 'synchronize', 'reopened', 'closed']);
    expect((workflow.on.schedule as Array<{ cron: string }>)[0]!.cron).toMatch(/^\S+ \S+ \* \* \*$/);
    expect(workflow.jobs.preview!.if).toBe("github.event_name == 'pull_request' && github.event.action != 'closed'");
    expect(workflow.jobs.cleanup!.if).toBe("github.event_name == 'pull_request' && github.event.action == 'closed'");
    expect(workflow.jobs.sweep!.if).toBe("github.event_name == 'schedule' || github.event_name == 'workflow_dispatch'");
    expect(workflow.jobs.preview!.env!.DBFORM_WORKSPACE).toBe('pr-${{ github.event.pull_request.number }}');
    expect(workflow.jobs.cleanup!.env!.DBFORM_WORKSPACE).toBe('pr-${{ github.event.pull_request.number }}');
  });

  it('creates a fork per pull request, comments its endpoint, destroys it on close; sweep removes an expired one, never default', async () => {
    const ws: Workspace = workspace(production, world.emulator.url, { DBFORM_STATE: world.db.url });
    expect((await runCli(ws, ['apply', '--auto-approve'])).code).toBe(0);
    const prodId = (await bound('default'))!['service.app']!.id;
    const prod = (await live()).find((s) => s.service_id === prodId)!;
    const previewText = readFileSync(PREVIEW_CONFIG, 'utf8');
    expect(previewText).toContain(PLACEHOLDER);
    writeFileSync(join(ws.dir, 'dbform.preview.yaml'), previewText.replace(PLACEHOLDER, prodId));
    const run = (job: string, pr?: number) => runJob(workflow, job, { cwd: ws.dir, ctx: context(pr), env: { HOME: ws.env.HOME, TMPDIR: ws.dir, DBFORM_POLL_MS: '20' } });

    // Opened: the fork exists in workspace pr-12, forked from production, named after the workspace.
    const opened = await run('preview', 12);
    expectAllPassed(opened, 2);
    const forkId = (await bound('pr-12'))!['service.app']!.id;
    const fork = (await live()).find((s) => s.service_id === forkId)!;
    expect(fork).toMatchObject({ name: 'app-pr-12', forked_from: { service_id: prodId } });
    expect(forkId).not.toBe(prodId);
    const comment = readFileSync(join(ws.dir, 'preview.md'), 'utf8');
    expect(comment.startsWith('<!-- dbform-preview -->\n**Preview database** (workspace `pr-12`')).toBe(true);
    expect(comment).toContain(`  host     = ${fork.endpoint!.host}\n`);
    expect(comment).toContain(`  uri      = postgres://tsdbadmin@${fork.endpoint!.host}:5432/tsdb?sslmode=require\n`);
    expect(comment).not.toContain(prod.endpoint!.host);
    expect(fork.endpoint!.host).not.toBe(prod.endpoint!.host);
    // The fork's initial password went to the runner's ~/.pgpass only.
    const pgpass = readFileSync(join(ws.env.HOME!, '.pgpass'), 'utf8');
    const password = pgpass.split('\n').find((l) => l.startsWith(`${fork.endpoint!.host}:`))!.split(':')[4]!;
    expect(password.length).toBeGreaterThan(8);
    for (const text of [comment, ...opened.flatMap((r) => [r.stdout, r.stderr, r.githubOutput])]) expect(text).not.toContain(password);
    // Nor the shared state: the workspace's document and its history.
    const stored = await world.db.query<{ text: string }>("SELECT (SELECT string_agg(document::text, '') FROM dbform.states) || (SELECT string_agg(record::text, '') FROM dbform.history) AS text");
    expect(stored.rows[0]!.text).toContain(forkId);
    expect(stored.rows[0]!.text).not.toContain(password);
    const expiry1 = await world.db.query<{ expires_at: Date }>("SELECT expires_at FROM dbform.states WHERE workspace = 'pr-12'");

    // Pushed again: nothing new, the expiry moves on.
    expectAllPassed(await run('preview', 12), 2);
    expect((await live()).filter((s) => s.name === 'app-pr-12')).toHaveLength(1);
    const expiry2 = await world.db.query<{ expires_at: Date }>("SELECT expires_at FROM dbform.states WHERE workspace = 'pr-12'");
    expect(expiry2.rows[0]!.expires_at.getTime()).toBeGreaterThan(expiry1.rows[0]!.expires_at.getTime());
    expect(expiry2.rows[0]!.expires_at.getTime() - Date.now()).toBeGreaterThan(71 * 3_600_000);

    // A second pull request gets its own fork.
    expectAllPassed(await run('preview', 13), 2);
    const fork13 = (await bound('pr-13'))!['service.app']!.id;
    expect(fork13).not.toBe(forkId);

    // Closed: pr-12's fork is destroyed; the others stay.
    expectAllPassed(await run('cleanup', 12), 1);
    const afterClose = (await live()).map((s) => s.service_id);
    expect(afterClose).not.toContain(forkId);
    expect(afterClose).toEqual(expect.arrayContaining([prodId, fork13]));
    expect(await bound('pr-12')).toEqual({});

    // Nightly, 72h later for pr-13 (and, as if someone had set one, for default too).
    await world.db.query("UPDATE dbform.states SET expires_at = now() - interval '1 minute' WHERE project_id = 'proj-demo' AND workspace IN ('pr-13', 'default')");
    const swept = await run('sweep');
    expectAllPassed(swept, 1);
    expect(swept[0]!.stdout).toMatch(/^Sweeping 1 workspace\(s\) of project proj-demo: pr-13\n/);
    const afterSweep = (await live()).map((s) => s.service_id);
    expect(afterSweep).not.toContain(fork13);
    expect(afterSweep).toContain(prodId);
    expect(await bound('pr-13')).toBeUndefined();
    expect((await bound('default'))!['service.app']!.id).toBe(prodId);
    const history = JSON.parse((await runCli(ws, ['history', '--json', '--workspace', 'pr-13'])).stdout) as Array<{ command: string; actions: Array<{ op: string; address: string }> }>;
    expect(history[0]).toMatchObject({ command: 'dbform sweep -f dbform.preview.yaml --auto-approve --lock-timeout 10m', actions: [{ op: 'deleteService', address: 'service.app' }] });
  });
});
