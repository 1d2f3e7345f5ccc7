// Text from the API is data (SPEC section 13): a log line holding `ESC]0;...BEL` (retitle the
// terminal), `ESC[2J` (clear it) and a bare `\r` (overwrite the line in a CI log), an API error
// message echoing such text, and a live name holding C1 and bidi controls reach stdout and stderr
// with those characters made visible; `--json` keeps them as JSON escapes of the same string.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmulatorHandle } from '../../../src/emulator/index.js';
import { runCli, workspace } from '../apply/cli-harness.js';
import { startTestEmulator, testClient } from '../../support/dialect.js';
import { removeTempDirs } from '../../support/temp-dir.js';

let em: EmulatorHandle;
let serviceId: string;

beforeAll(async () => {
  em = await startTestEmulator({ host: '127.0.0.1', port: 0, timeScale: 0.01 });
  const api = testClient(em.url);
  serviceId = (await api.createService('proj-demo', { name: 'hostile-logs' })).service_id;
  await api.close();
});
afterAll(async () => {
  await em.close();
  removeTempDirs();
});

const HOSTILE = 'before \u001b]0;pwned\u0007 then \u001b[2J cleared\rover \u009b31m c1 \u202eevil';
/** Every character a terminal or a CI log would act on (tab and newline aside). */
const RAW_CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

async function seedLogLine(message: string): Promise<void> {
  const url = new URL(`/__emulator/services/${serviceId}/logs`, em.url);
  url.searchParams.set('message', message);
  url.searchParams.set('severity', 'ERROR');
  const res = await fetch(url, { method: 'POST' });
  expect(res.status).toBe(204);
}

describe('text from the API is written as data', () => {
  it('dbform logs: ESC]0;... ESC[2J and a bare CR in a log line are escaped; --json keeps the exact string', async () => {
    await seedLogLine(HOSTILE);
    const ws = workspace('', em.url);
    const text = await runCli(ws, ['logs', serviceId, '--limit', '1']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).not.toMatch(RAW_CONTROLS);
    expect(text.stdout).toMatch(/^\S+Z ERROR before \\x1b\]0;pwned\\x07 then \\x1b\[2J cleared\\rover \\x9b31m c1 \\u202eevil\n$/);

    const json = await runCli(ws, ['logs', serviceId, '--limit', '1', '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(json.stdout).not.toMatch(RAW_CONTROLS);
    expect(JSON.parse(json.stdout).message).toBe(HOSTILE);
  });

  it('an API error message that echoes such text is escaped on stderr', async () => {
    const ws = workspace('version: 1\nproject_id: proj-demo\nservices:\n  db:\n    name: db\n', em.url);
    // A lockfile binding service.db to an ID that holds the sequences: the API's 404 names it.
    writeFileSync(join(ws.dir, 'dbform.lock.json'), JSON.stringify({ version: 1, project_id: 'proj-demo', resources: { 'service.db': { id: 'zz\u001b[2J\u001b]0;x\u0007\rzz' } } }));
    const r = await runCli(ws, ['logs', 'service.db']);
    expect(r.code).toBe(1);
    expect(r.stderr).not.toMatch(RAW_CONTROLS);
    expect(r.stderr).toContain('zz\\x1b[2J\\x1b]0;x\\x07\\rzz');
  });

  it('a live name with C1 and bidi controls: plan text, markdown and JSON show them escaped', async () => {
    const ws = workspace('version: 1\nproject_id: proj-demo\nvpcs:\n  net:\n    name: text-net\n    cidr: 10.90.0.0/16\n    region_code: us-east-1\n', em.url);
    expect((await runCli(ws, ['apply', '--auto-approve'])).code).toBe(0);
    const vpcId = JSON.parse(readFileSync(ws.lockfile, 'utf8')).resources['vpc.net'].id as string;
    const renamed = await fetch(`${em.url}/projects/proj-demo/vpcs/${vpcId}/rename`, {
      method: 'POST',
      headers: { authorization: 'Bearer demo-pat', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'net\u009b2J\u202e\u001b[31m' }),
    });
    expect(renamed.status).toBe(200);
    for (const format of ['text', 'markdown', 'json']) {
      const r = await runCli(ws, ['plan', '--format', format]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout, format).not.toMatch(RAW_CONTROLS);
      expect(r.stdout, format).toContain('net\\u009b2J\\u202e\\u001b[31m');
    }
  });
});
