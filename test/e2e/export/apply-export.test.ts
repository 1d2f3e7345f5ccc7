// An exported file is a working config: edit a few values, apply, and the next plan is empty and
// a fresh export reproduces the edited file byte for byte (comments, order and lockfile included).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { startEmulator, type EmulatorHandle } from '../../../src/emulator/index.js';
import { runCli } from '../../support/cli.js';
import { buildWorld } from './world.js';

let em: EmulatorHandle;
let client: ApiClient;
let env: Record<string, string>;

beforeAll(async () => {
  em = await startEmulator({ host: '127.0.0.1', port: 0, timeScale: 0 });
  client = new ApiClient({ baseUrl: em.url, token: 'demo-pat' });
  env = { DBFORM_API_URL: em.url, DBFORM_API_KEY: 'demo-pat', DBFORM_POLL_MS: '10' };
  await buildWorld(client, [
    { name: 'Orders DB', size: [500, 2], pooler: false, env: 'DEV', replicaSets: [{ name: 'reads', size: [500, 2], nodes: 1 }] },
    { name: 'sleepy', size: 'shared', paused: true, pooler: true },
  ]);
});
afterAll(async () => {
  await client.close();
  await em.close();
});

describe('export, edit, apply', () => {
  it('applies edits to an exported file and exports the edited file back exactly', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dbform-export-apply-'));
    const yamlPath = join(dir, 'dbform.yaml');
    const first = await runCli(['export', '-o', yamlPath], { env });
    expect(first.code, first.stderr).toBe(0);
    const exported = readFileSync(yamlPath, 'utf8');
    const lockText = readFileSync(join(dir, 'dbform.lock.json'), 'utf8');
    const orders = /( {2}orders-db:\n(?: {4}.*\n| {6,}.*\n)*)/.exec(exported)![1]!;
    const editedOrders = orders
      .replace('    cpu_millis: 500\n    memory_gbs: 2\n', '    cpu_millis: 1000\n    memory_gbs: 4\n')
      .replace('    environment: DEV\n', '    environment: PROD\n')
      .replace('    ha: { replicas: 0, sync_replicas: 0 }\n', '    ha: { replicas: 1, sync_replicas: 0 }\n')
      .replace('    pooler: false\n', '    pooler: true\n')
      .replace('        pooler: false\n', '        pooler: true\n');
    expect(editedOrders).not.toBe(orders);
    const edited = exported.replace(orders, editedOrders);
    writeFileSync(yamlPath, edited);

    const apply = await runCli(['apply', '--auto-approve', '-f', yamlPath, '--pgpass', join(dir, 'pgpass')], { env });
    expect(apply.code, apply.stderr + apply.stdout).toBe(0);
    const plan = await runCli(['plan', '--detailed-exitcode', '-f', yamlPath], { env });
    expect(plan.code, plan.stderr + plan.stdout).toBe(0);

    const dir2 = mkdtempSync(join(tmpdir(), 'dbform-export-apply-'));
    const again = await runCli(['export', '-o', join(dir2, 'dbform.yaml')], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(readFileSync(join(dir2, 'dbform.yaml'), 'utf8')).toBe(edited);
    // Byte-identical but for the lineage: each new lockfile is a state of its own (SPEC section 2).
    const lock2 = readFileSync(join(dir2, 'dbform.lock.json'), 'utf8');
    const lineageOf = (text: string): string => JSON.parse(text).lineage;
    expect(lineageOf(lock2)).not.toBe(lineageOf(lockText));
    expect(lock2.replace(lineageOf(lock2), lineageOf(lockText))).toBe(lockText);
  });
});
