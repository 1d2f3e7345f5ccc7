// SPEC section 15, endpoints move (the tiger dialect's default): while a service is attached to a
// VPC its endpoint (and its pooler's) is a private host. `dbform output` reads it live; the pgpass
// line of the service follows it on attach and detach, so it names the host output gives; a plan
// after either shows no drift and no change.
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../src/api/client.js';
import { startEmulator, type EmulatorHandle } from '../../../src/emulator/index.js';
import { parsePgpassLine } from '../../../src/executor/pgpass.js';
import { readLockfile } from '../../../src/lockfile/index.js';
import { testClient } from '../../support/dialect.js';
import { removeTempDirs } from '../../support/temp-dir.js';
import { runCli, workspace, type Workspace } from '../apply/cli-harness.js';
import { TIGER } from './helpers.js';

afterAll(removeTempDirs);

const PROJECT = 'proj-demo';
let emulator: EmulatorHandle | undefined;
let client: ApiClient | undefined;
afterEach(async () => {
  await client?.close();
  await emulator?.close();
  emulator = client = undefined;
});

const config = (vpc: string) => `version: 1
project_id: proj-demo
vpcs:
  main:
    cidr: 10.0.0.0/16
    region_code: us-east-1
services:
  db:
    region_code: us-east-1
    pooler: true
    vpc: ${vpc}
`;

/** The hosts of the pgpass file's lines, in order. */
const pgpassHosts = (ws: Workspace) =>
  readFileSync(ws.pgpass, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => parsePgpassLine(l)!.host);

async function outputOf(ws: Workspace): Promise<Record<string, Record<string, unknown>>> {
  const r = await runCli(ws, ['output', '--json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Record<string, Record<string, unknown>>;
}

async function expectNoChange(ws: Workspace): Promise<void> {
  const plan = await runCli(ws, ['plan', '--detailed-exitcode', '--json']);
  expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  expect(JSON.parse(plan.stdout).drift).toBeUndefined();
}

describe('endpoints that move with an attachment', () => {
  it('output shows the private endpoint while attached and the public one after a detach; the pgpass line follows', async () => {
    emulator = await startEmulator({ ...TIGER, timeScale: 0.01 });
    client = testClient(emulator.url);
    const ws = workspace(config('main'), emulator.url);
    const apply = await runCli(ws, ['apply', '--auto-approve']);
    expect(apply.code, apply.stderr).toBe(0);
    const lock = (await readLockfile(ws.lockfile, PROJECT)).resources;
    const [id, vpc] = [lock['service.db']!.id, lock['vpc.main']!.id];
    const publicHost = `${id}.${PROJECT}.tsdb.cloud.example`;
    const privateHost = `${id}.${vpc}.private.${PROJECT}.tsdb.cloud.example`;

    const attached = (await outputOf(ws))['service.db']!;
    expect(attached).toMatchObject({ host: privateHost, port: 5432, uri: `postgres://tsdbadmin@${privateHost}:5432/tsdb?sslmode=require` });
    expect(attached.pooler_host).toBe(privateHost);
    expect(attached.vpc_host).toBe(`${id}.${vpc}.vpc.${PROJECT}.tsdb.cloud.example`);
    // Created on the public host, the line moved with the endpoint: one line, for the host output gives.
    expect(pgpassHosts(ws)).toEqual([privateHost]);
    await expectNoChange(ws);

    writeFileSync(ws.config, config('null'));
    const detach = await runCli(ws, ['apply', '--auto-approve']);
    expect(detach.code, detach.stderr).toBe(0);
    expect(detach.stdout).toContain('service.db detachServiceFromVPC');
    const detached = (await outputOf(ws))['service.db']!;
    expect(detached).toMatchObject({ host: publicHost, pooler_host: publicHost });
    expect(detached.vpc_host).toBeUndefined();
    expect(pgpassHosts(ws)).toEqual([publicHost]);
    await expectNoChange(ws);
  });
});
