// `dbform logs` spawned against the real emulator: paging, filters, output forms, addresses.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EmulatorHandle } from '../../../src/emulator/index.js';
import { AUTH_ENV, startTestEmulator, testClient } from '../../support/dialect.js';
import { runCli } from '../../support/cli.js';
import { removeTempDirs, tempDir } from '../../support/temp-dir.js';

afterAll(removeTempDirs);

const LOGS = 'GET /projects/{project_id}/services/{service_id}/logs';
let em: EmulatorHandle;
let serviceId: string;
let env: Record<string, string>;

beforeAll(async () => {
  em = await startTestEmulator({ host: '127.0.0.1', port: 0, timeScale: 0 });
  const api = testClient(em.url);
  serviceId = (await api.createService('proj-demo', { name: 'logged' })).service_id;
  await api.close();
  env = { DBFORM_API_URL: em.url, ...AUTH_ENV };
});
afterAll(async () => em.close());
beforeEach(() => em.resetStats());

const TEXT_LINE = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z) ([A-Z]+) (.+)$/;

describe('dbform logs', () => {
  it('pages with the cursor across 3 pages with severity filters, newest first', async () => {
    const r = await runCli(['logs', serviceId, '--severity', 'LOG', '--severity', 'info', '--limit', '1200'], { env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(1200);
    const parsed = lines.map((l) => TEXT_LINE.exec(l));
    expect(parsed.every((m) => m !== null)).toBe(true);
    expect(new Set(parsed.map((m) => m![2]))).toEqual(new Set(['LOG', 'INFO']));
    const times = parsed.map((m) => Date.parse(m![1]!));
    // Strictly older line after line: no entry repeated or skipped-back at a page boundary.
    expect(times.every((t, i) => i === 0 || t < times[i - 1]!)).toBe(true);
    expect(em.stats().requests[LOGS]).toBe(3);
  });

  it('prints JSON lines with --json and applies search, node and time filters', async () => {
    const until = new Date(Date.now() + 1800_000).toISOString();
    const r = await runCli(['logs', serviceId, '--json', '--search', 'checkpoint', '--node', '0', '--until', until, '--limit', '5000'], { env });
    expect(r.code).toBe(0);
    const entries = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { timestamp: string; severity: string; message: string });
    expect(entries.length).toBeGreaterThan(0);
    expect(Object.keys(entries[0]!)).toEqual(['timestamp', 'severity', 'message']);
    expect(entries.every((e) => e.message.toLowerCase().includes('checkpoint') && Date.parse(e.timestamp) < Date.parse(until))).toBe(true);
    expect(em.stats().requests[LOGS]).toBe(Math.ceil(entries.length / 500) || 1);
  });

  it('stops at --limit within a page (default 100)', async () => {
    const r = await runCli(['logs', serviceId], { env });
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(100);
    expect(em.stats().requests[LOGS]).toBe(1);
  });

  it('resolves service.<key> through the state (here the lockfile); the config gives the project', async () => {
    const dir = tempDir('dbform-logs-');
    writeFileSync(join(dir, 'dbform.yaml'), 'version: 1\nproject_id: proj-demo\n');
    writeFileSync(
      join(dir, 'dbform.lock.json'),
      JSON.stringify({ version: 1, project_id: 'proj-demo', resources: { 'service.db': { id: serviceId } } }),
    );
    // The OAuth token sees two projects: the config's project decides.
    const r = await runCli(['logs', 'service.db', '-f', join(dir, 'dbform.yaml'), '--limit', '3'], { env: { DBFORM_API_URL: em.url, DBFORM_API_KEY: 'demo-oauth' } });
    expect(r.stderr).toBe('');
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(3);
    const missing = await runCli(['logs', 'service.other', '-f', join(dir, 'dbform.yaml'), '--lockfile', join(dir, 'dbform.lock.json')], { env });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(`error: service.other is not bound in workspace "default" of ${join(dir, 'dbform.lock.json')} (not applied yet?); give the service ID instead\n`);
  });

  it('a bare ID with a token of several projects asks for --project', async () => {
    // The OAuth user token alone (both dialects take Bearer): it sees two projects.
    const oauth = { DBFORM_API_URL: em.url, DBFORM_API_KEY: 'demo-oauth' };
    const r = await runCli(['logs', serviceId], { env: oauth });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('error: the API token sees 2 projects (proj-demo, proj-other); choose one with --project ID\n');
    const ok = await runCli(['logs', serviceId, '--project', 'proj-demo', '--limit', '2'], { env: oauth });
    expect(ok.stdout.trimEnd().split('\n')).toHaveLength(2);
  });

  it('an unknown service is a clear API error', async () => {
    const r = await runCli(['logs', 'zzzzzzzzzz'], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: getServiceLogs: service zzzzzzzzzz was not found \(404 NOT_FOUND: .*\)\n$/);
  });

  it.each([
    [['--since', 'yesterday'], 'error: --since "yesterday" is not a time; use RFC 3339 (2026-01-02T03:04:05Z) or an age such as 30s, 15m, 2h, 7d'],
    [['--until', '2026-02-30T00:00:00Z'], 'error: --until "2026-02-30T00:00:00Z" is not a time; use RFC 3339 (2026-01-02T03:04:05Z) or an age such as 30s, 15m, 2h, 7d'],
    [['--since', '1h', '--until', '2h'], /^error: --until \(.+\) is before --since \(.+\)$/],
    [['--severity', 'LOUD'], /^error: --severity "LOUD" is not a log level; use one of DEBUG, /],
    [['--node', 'primary'], 'error: --node must be a node number such as 0 or 1 (got "primary")'],
    [['--limit', '0'], 'error: --limit must be a whole number >= 1 (got "0")'],
  ])('rejects bad flags %j before any request', async (flags, message) => {
    const r = await runCli(['logs', serviceId, ...flags], { env });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    if (typeof message === 'string') expect(r.stderr).toBe(`${message}\n`);
    else expect(r.stderr.trimEnd()).toMatch(message);
    expect(em.stats().total).toBe(0);
  });

  it('rejects an address of another kind', async () => {
    const r = await runCli(['logs', 'vpc.main'], { env });
    expect(r.stderr).toBe('error: vpc.main is a vpc; dbform logs needs a service (service.<key>) or a service ID\n');
    expect(em.stats().total).toBe(0);
  });

  it('stops quietly when the reader of its output goes away', async () => {
    const r = await runCli(['logs', serviceId, '--limit', '100000'], { env, closeStdoutAfterFirstChunk: true });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout.length).toBeGreaterThan(0);
    expect(em.stats().requests[LOGS]).toBeLessThanOrEqual(2);
  });

  it('accepts an age for --since', async () => {
    const r = await runCli(['logs', serviceId, '--since', '30m', '--json', '--limit', '10000'], { env });
    expect(r.code).toBe(0);
    const first = JSON.parse(r.stdout.split('\n')[0]!) as { timestamp: string };
    expect(Date.parse(first.timestamp)).toBeGreaterThan(Date.now() - 31 * 60_000);
    const last = JSON.parse(r.stdout.trimEnd().split('\n').at(-1)!) as { timestamp: string };
    expect(Date.parse(last.timestamp)).toBeGreaterThanOrEqual(Date.now() - 31 * 60_000);
  });
});
