// applyPlan with hand-written plans, the real client and the emulator over HTTP.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { AmbiguousCreateError } from '../../../src/api/errors.js';
import type { ExecutorApi } from '../../../src/executor/ports.js';
import { act, planOf, PROJECT, startHarness, type Harness } from './engine-harness.js';
import { EmulatorClock } from '../../support/emulator-clock.js';
import { removeTempDirs } from '../../support/temp-dir.js';

afterAll(removeTempDirs);

let h: Harness;
afterEach(async () => h?.close());

function stack() {
  const vpc = act('createVPC', 'vpc.main', { request: { name: 'main', cidr: '10.0.0.0/16', region_code: 'us-east-1' } });
  const svc = act('createService', 'service.db', { request: { name: 'db', cpu_millis: '1000', memory_gbs: '4', region_code: 'us-east-1' }, protect: true });
  const attach = act('attachServiceToVPC', 'service.db', {
    reason: 'changed',
    dependsOn: [vpc.id, svc.id],
    refs: { service: { address: 'service.db' }, vpc: { address: 'vpc.main' } },
    request: {},
  });
  const rs = act('createReplicaSet', 'replica_set.db.r', {
    dependsOn: [svc.id],
    refs: { service: { address: 'service.db' } },
    request: { name: 'r', cpu_millis: 1000, memory_gbs: 4, nodes: 1 },
  });
  return { vpc, svc, attach, rs };
}

describe('applyPlan against the emulator', () => {
  it('creates in dependency order, resolves new IDs by address, and records them in the lockfile', async () => {
    h = await startHarness();
    const { vpc, svc, attach, rs } = stack();
    const result = await h.apply(planOf([vpc, svc, attach, rs]));
    expect(result.failed).toEqual([]);
    expect(result.done.map((d) => d.action.op)).toEqual(['createVPC', 'createService', 'attachServiceToVPC', 'createReplicaSet']);
    const lock = h.readLock();
    const services = await h.client.listServices(PROJECT);
    expect(services).toHaveLength(1);
    expect(lock.resources['service.db']).toEqual({ id: services[0]!.service_id, protect: true });
    expect(services[0]!.status).toBe('READY');
    expect(services[0]!.vpc_endpoint?.vpc_id).toBe(lock.resources['vpc.main']!.id);
    const replicaSets = await h.client.listReplicaSets(PROJECT, services[0]!.service_id);
    expect(replicaSets.map((r) => [r.id, r.status])).toEqual([[lock.resources['replica_set.db.r']!.id, 'active']]);
  });

  it('writes the initial password only to the pgpass file (mode 0600), never to the lockfile or events', async () => {
    h = await startHarness();
    const { svc } = stack();
    let password = '';
    const api: ExecutorApi = Object.create(h.client);
    api.createService = async (p, body) => {
      const dto = await h.client.createService(p, body);
      password = dto.initial_password ?? '';
      return dto;
    };
    await h.apply(planOf([svc]), { api });
    expect(password.length).toBeGreaterThan(0);
    const line = readFileSync(h.pgpassPath, 'utf8');
    const id = h.readLock().resources['service.db']!.id;
    expect(line).toMatch(new RegExp(`^${id}\\.${PROJECT}\\.tsdb\\.cloud\\.example:5432:tsdb:tsdbadmin:`));
    expect(statSync(h.pgpassPath).mode & 0o777).toBe(0o600);
    expect(readFileSync(h.lockPath, 'utf8')).not.toContain(password);
    expect(JSON.stringify(h.events)).not.toContain(password);
  });

  it('skips dependents of a failed action and reports the API message, while other branches finish', async () => {
    h = await startHarness();
    const bad = act('createService', 'service.bad', { request: { name: 'bad', cpu_millis: '3000', memory_gbs: '4' } });
    const badRs = act('createReplicaSet', 'replica_set.bad.r', { dependsOn: [bad.id], refs: { service: { address: 'service.bad' } }, request: { name: 'r', cpu_millis: 1000, memory_gbs: 4, nodes: 1 } });
    const good = act('createVPC', 'vpc.ok', { request: { name: 'ok', cidr: '10.1.0.0/16', region_code: 'us-east-1' } });
    const result = await h.apply(planOf([bad, badRs, good]));
    expect(result.failed.map((f) => f.message)).toEqual([expect.stringMatching(/^createService service\.bad failed: 400 VALIDATION_ERROR: .*cpu_millis/)]);
    expect(result.skipped).toEqual([{ action: badRs, reason: 'upstream-failed', root: { id: bad.id, address: 'service.bad', op: 'createService' } }]);
    expect(result.done.map((d) => d.action.address)).toEqual(['vpc.ok']);
    expect(Object.keys(h.readLock().resources)).toEqual(['vpc.ok']);
  });

  it('adopts the resource of a create whose response was lost instead of creating a duplicate', async () => {
    h = await startHarness();
    const api: ExecutorApi = Object.create(h.client);
    api.createService = async (p, body) => {
      await h.client.createService(p, body);
      throw new AmbiguousCreateError({ op: 'createService', requestName: body.name, method: 'POST', path: '/x', cause: new Error('socket hang up') });
    };
    const { svc } = stack();
    const result = await h.apply(planOf([svc]), { api });
    expect(result.failed).toEqual([]);
    expect(result.done[0]).toMatchObject({ adopted: true });
    const services = await h.client.listServices(PROJECT);
    expect(services).toHaveLength(1);
    expect(h.readLock().resources['service.db']!.id).toBe(services[0]!.service_id);
    expect(h.events.some((e) => e.type === 'warning' && /adopted the live service "db"/.test(e.message))).toBe(true);
  });

  it('adopts a replica set whose name the API says is taken (409) instead of failing', async () => {
    h = await startHarness({ timeScale: 0 });
    const svc = await h.client.createService(PROJECT, { name: 'db', cpu_millis: '1000', memory_gbs: '4' });
    await h.client.listServices(PROJECT);
    const existing = await h.client.createReplicaSet(PROJECT, svc.service_id, { name: 'r', cpu_millis: 1000, memory_gbs: 4, nodes: 1 });
    const rs = act('createReplicaSet', 'replica_set.db.r', { refs: { service: { id: svc.service_id } }, request: { name: 'r', cpu_millis: 1000, memory_gbs: 4, nodes: 1 } });
    const result = await h.apply(planOf([rs]));
    expect(result.failed).toEqual([]);
    expect(result.done[0]).toMatchObject({ resourceId: existing.id, adopted: true });
    expect(h.readLock().resources['replica_set.db.r']!.id).toBe(existing.id);
  });

  it('refuses to guess when an unknown outcome leaves two resources with the desired name', async () => {
    h = await startHarness({ timeScale: 0 });
    const api: ExecutorApi = Object.create(h.client);
    api.createService = async (p, body) => {
      await h.client.createService(p, body);
      await h.client.createService(p, body);
      throw new AmbiguousCreateError({ op: 'createService', requestName: body.name, method: 'POST', path: '/x', cause: new Error('reset') });
    };
    const result = await h.apply(planOf([stack().svc]), { api });
    expect(result.failed[0]!.message).toMatch(/2 live resources match service "db" \(\w+, \w+\); bind the right one with `dbform import`/);
    expect(existsSync(h.lockPath) ? h.readLock().resources['service.db'] : undefined).toBeUndefined();
  });

  it('sends a create again when its outcome was unknown and nothing was created, at most createAttempts times', async () => {
    h = await startHarness();
    let sends = 0;
    const api: ExecutorApi = Object.create(h.client);
    api.createVPC = async (p, body) => {
      sends++;
      if (sends < 3) throw new AmbiguousCreateError({ op: 'createVPC', requestName: body.name, method: 'POST', path: '/x', cause: new Error('timeout') });
      return h.client.createVPC(p, body);
    };
    const { vpc } = stack();
    const result = await h.apply(planOf([vpc]), { api, createAttempts: 3 });
    expect(result.failed).toEqual([]);
    expect(sends).toBe(3);
    expect(await h.client.listVPCs(PROJECT)).toHaveLength(1);
  });

  it('updates the password from the named environment variable and records its version', async () => {
    h = await startHarness();
    const { svc } = stack();
    const pw = act('updatePassword', 'service.db', { reason: 'changed', dependsOn: [svc.id], refs: { service: { address: 'service.db' } }, password: { fromEnv: 'DB_PW', version: 3 } });
    const result = await h.apply(planOf([svc, pw]), { env: { DB_PW: 'canary-s3cret' } });
    expect(result.failed).toEqual([]);
    expect(h.readLock().resources['service.db']).toMatchObject({ passwordVersion: 3 });
    expect(JSON.stringify(h.events)).not.toContain('canary-s3cret');
  });

  it('fails updatePassword naming the missing variable, and nothing else', async () => {
    h = await startHarness();
    const { svc } = stack();
    const pw = act('updatePassword', 'service.db', { reason: 'changed', dependsOn: [svc.id], refs: { service: { address: 'service.db' } }, password: { fromEnv: 'DB_PW', version: 1 } });
    const result = await h.apply(planOf([svc, pw]), { env: {} });
    expect(result.failed.map((f) => f.message)).toEqual([
      'updatePassword service.db failed: environment variable DB_PW (password.from_env of service.db) is not set or empty',
    ]);
    expect(h.readLock().resources['service.db']!.passwordVersion).toBeUndefined();
  });

  it('reports a service deleted by another actor while waiting, instead of waiting forever', async () => {
    h = await startHarness({ timeScale: 0.2 });
    const { svc } = stack();
    const running = h.apply(planOf([svc]));
    let id: string | undefined;
    while (!id) {
      await new Promise((r) => setTimeout(r, 10));
      id = (await h.client.listServices(PROJECT))[0]?.service_id;
    }
    await h.client.deleteService(PROJECT, id);
    const result = await running;
    expect(result.failed).toHaveLength(1);
    expect(result.failed[0]!.message).toMatch(/^createService service\.db failed: service \w+ is (gone|being deleted)/);
  });

  it('fails a replica set create that ends in the error state, with the resource named', async () => {
    const clock = new EmulatorClock();
    h = await startHarness({ timeScale: 0.2, now: clock.now });
    const svc = await h.client.createService(PROJECT, { name: 'db', cpu_millis: '1000', memory_gbs: '4' });
    const { rs } = stack();
    rs.dependsOn = [];
    rs.refs = { service: { id: svc.service_id } };
    // The service's 5 s create at time scale 0.2, and its first backup (the tiger dialect's comes
    // 30 s after READY; none, no replica set): on the emulator's clock, not waited for.
    clock.advance(1100 + h.emulator.switches.backupDelay * 1000 * 0.2);
    const running = h.apply(planOf([rs]));
    let rsId: string | undefined;
    while (!rsId) {
      await new Promise((r) => setTimeout(r, 10));
      rsId = (await h.client.listReplicaSets(PROJECT, svc.service_id))[0]?.id;
    }
    const failed = await fetch(`${h.emulator.origin}/__emulator/replica-sets/${rsId}/fail`, { method: 'POST' });
    expect(failed.status).toBe(204);
    const result = await running;
    expect(result.failed.map((f) => f.message)).toEqual([`createReplicaSet replica_set.db.r failed: replica set ${rsId} of service ${svc.service_id} is in error state`]);
    // Recorded all the same: the next plan sees it failed and replaces it.
    expect(h.readLock().resources['replica_set.db.r']!.id).toBe(rsId);
  });

  it('deletes in the given order, removes lockfile entries, and treats an already-gone resource as deleted', async () => {
    h = await startHarness();
    const { vpc, svc, rs } = stack();
    await h.apply(planOf([vpc, svc, rs]));
    const ids = h.readLock().resources;
    const delRs = act('deleteReplicaSet', 'replica_set.db.r', { reason: 'removed', refs: { service: { id: ids['service.db']!.id }, target: { id: ids['replica_set.db.r']!.id } } });
    const delSvc = act('deleteService', 'service.db', { reason: 'removed', dependsOn: [delRs.id], refs: { target: { id: ids['service.db']!.id } } });
    const delVpc = act('deleteVPC', 'vpc.main', { reason: 'removed', refs: { target: { id: ids['vpc.main']!.id } } });
    const delGhost = act('deleteVPC', 'vpc.ghost', { reason: 'removed', refs: { target: { id: '9999999999' } } });
    const result = await h.apply(planOf([delRs, delSvc, delVpc, delGhost]));
    expect(result.failed).toEqual([]);
    expect(h.readLock().resources).toEqual({});
    expect(await h.client.listServices(PROJECT)).toEqual([]);
    expect(await h.client.listVPCs(PROJECT)).toEqual([]);
  });

  it('applies bindings before actions, so an adopted ID serves the actions', async () => {
    h = await startHarness();
    const svcDto = await h.client.createService(PROJECT, { name: 'legacy' });
    const env = act('setEnvironment', 'service.legacy', { reason: 'changed', refs: { service: { address: 'service.legacy' } }, request: { environment: 'PROD' } });
    const result = await h.apply(planOf([env], [{ kind: 'adopt', address: 'service.legacy', id: svcDto.service_id, protect: true }]));
    expect(result.failed).toEqual([]);
    expect(result.bindingsApplied).toBe(1);
    expect(h.readLock().resources['service.legacy']).toEqual({ id: svcDto.service_id, protect: true });
    expect((await h.client.listServices(PROJECT))[0]!.metadata?.environment).toBe('PROD');
  });

  it('runs nothing and changes nothing when an action is blocked', async () => {
    h = await startHarness();
    const { vpc } = stack();
    const blocked = act('deleteService', 'service.keep', { reason: 'removed', risk: 'data-loss', blocked: 'service.keep is protected', refs: { target: { id: 'abc' } } });
    const result = await h.apply(planOf([vpc, blocked], [{ kind: 'forget', address: 'vpc.old' }]));
    expect(result.blocked).toEqual([blocked]);
    expect(result.done).toEqual([]);
    expect(await h.client.listVPCs(PROJECT)).toEqual([]);
    expect(() => readFileSync(h.lockPath)).toThrow();
  });
});

describe('resuming after an interrupted apply', () => {
  it('waits out a service still settling instead of failing on 409, and finishes a pending attach', async () => {
    // The emulator's clock stands until the engine says it waits for the settling service: the
    // 409 is met for certain, however slow the machine.
    const clock = new EmulatorClock();
    clock.freeze();
    h = await startHarness({ timeScale: 0.05, now: clock.now });
    const vpc = await h.client.createVPC(PROJECT, { name: 'main', cidr: '10.0.0.0/16', region_code: 'us-east-1' });
    const svc = await h.client.createService(PROJECT, { name: 'db', region_code: 'us-east-1' });
    // As a killed apply leaves it: the service still QUEUED, then an attach still pending.
    const ref = { address: 'service.db', id: svc.service_id };
    const rs = act('createReplicaSet', 'replica_set.db.r', { refs: { service: ref }, request: { name: 'r', cpu_millis: 1000, memory_gbs: 4, nodes: 1 } });
    const attach = act('attachServiceToVPC', 'service.db', { reason: 'changed', refs: { target: ref, vpc: { id: vpc.id } }, request: { vpc_id: vpc.id } });
    const running = h.apply(planOf([rs, attach]));
    const waitsOut = () => h.events.some((e) => e.type === 'action-status' && /^waiting for (QUEUED|CONFIGURING) to finish$/.test(e.status));
    for (const end = Date.now() + 20_000; !waitsOut(); await new Promise((r) => setTimeout(r, 5))) {
      if (Date.now() > end) throw new Error(`the engine never said it waits for the settling service: ${JSON.stringify(h.events)}`);
    }
    // Past the create and the first backup (the tiger dialect's, 30 s after READY, which a replica
    // set create waits for) on the emulator's clock, then running again.
    clock.advance(3_600_000);
    clock.thaw();
    const result = await running;
    expect(result.failed).toEqual([]);

    // A detach sent again while the first is still pending: backs off until it is done.
    await h.client.detachServiceFromVPC(PROJECT, svc.service_id, { vpc_id: vpc.id });
    const detach = act('detachServiceFromVPC', 'service.db', { reason: 'changed', refs: { target: ref, vpc: { id: vpc.id } }, request: { vpc_id: vpc.id } });
    const again = await h.apply(planOf([detach]));
    expect(again.failed).toEqual([]);
    const live = (await h.client.listServices(PROJECT))[0]!;
    expect(live.vpc_endpoint).toBeUndefined();
  });
});
