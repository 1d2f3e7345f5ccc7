import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../../src/emulator/index.js';
import { apiOf, manualClock, P } from './helpers.js';
import { removeTempDirs, tempDir } from '../../support/temp-dir.js';

afterAll(removeTempDirs);

const tmp = () => tempDir('dbform-emu-state-');

describe('--state persistence', () => {
  it('writes the state file at start, and refuses to start when it cannot (not a 500 after a mutation)', async () => {
    const stateFile = join(tmp(), 'state.json');
    const em = await startEmulator({ stateFile, timeScale: 0 });
    try {
      expect(JSON.parse(readFileSync(stateFile, 'utf8')).projects.map((p: { id: string }) => p.id)).toEqual(['proj-demo', 'proj-other']);
    } finally {
      await em.close();
    }
    // /sys refuses new directories even to root.
    await expect(startEmulator({ stateFile: '/sys/dbform-emulator-test/state.json' })).rejects.toThrow(
      'cannot create the directory of the emulator state file /sys/dbform-emulator-test/state.json: permission denied',
    );
  });

  it('a restarted emulator keeps its resources and continues in-flight timelines', async () => {
    const stateFile = join(tmp(), 'nested', 'dir', 'state.json');
    const clock = manualClock();
    let em = await startEmulator({ stateFile, timeScale: 1, now: clock.now });
    let api = apiOf(() => em);
    const vpc = (await api('POST', `${P}/vpcs`, { name: 'net', cidr: '10.0.0.0/16', region_code: 'us-east-1' })).body.id;
    const peering = (await api('POST', `${P}/vpcs/${vpc}/peerings`, { peer_account_id: '123456789012', peer_region_code: 'us-east-1', peer_vpc_id: 'vpc-x' })).body.id;
    const ready = (await api('POST', `${P}/services`, { name: 'ready', cpu_millis: '1000', memory_gbs: '4' })).body.service_id;
    clock.advance(5000);
    await api('POST', `${P}/services/${ready}/enablePooler`);
    await api('POST', `${P}/services/${ready}/setEnvironment`, { environment: 'PROD' });
    await api('POST', `${P}/services/${ready}/attachToVPC`, { vpc_id: vpc });
    const rs = (await api('POST', `${P}/services/${ready}/replicaSets`, { name: 'r', cpu_millis: 500, memory_gbs: 2, nodes: 3 })).body.id;
    await api('POST', `${P}/services/${ready}/resize`, { cpu_millis: '2000', memory_gbs: '8' });
    const young = (await api('POST', `${P}/services`, { name: 'young' })).body.service_id;
    clock.advance(500);
    const before = (await api('GET', `${P}/services`)).body;
    expect(before.find((s: any) => s.service_id === young).status).toBe('QUEUED');
    await em.close();
    expect(existsSync(stateFile)).toBe(true);
    expect(readFileSync(stateFile, 'utf8')).not.toContain('initial_password');

    em = await startEmulator({ stateFile, timeScale: 1, now: clock.now });
    api = apiOf(() => em);
    expect((await api('GET', `${P}/services`)).body).toEqual(before);
    expect((await api('GET', `${P}/vpcs`)).body.map((v: any) => v.id)).toEqual([vpc]);
    expect((await api('GET', `${P}/vpcs/${vpc}/peerings/${peering}`)).body.status).toBe('active');
    clock.advance(500);
    expect((await api('GET', `${P}/services/${young}`)).body.status).toBe('CONFIGURING');
    clock.advance(4000);
    const svc = (await api('GET', `${P}/services/${ready}`)).body;
    expect(svc).toMatchObject({
      status: 'READY',
      resources: [{ spec: { cpu_millis: 2000, memory_gbs: 8 } }],
      metadata: { environment: 'PROD' },
      connection_pooler: { endpoint: { port: 6432 } },
      vpc_endpoint: { vpc_id: vpc },
      read_replica_sets: [{ id: rs, status: 'active', nodes: 3 }],
    });
    expect((await api('GET', `${P}/services/${young}`)).body.status).toBe('READY');
    // The attachment still blocks the VPC's deletion after the restart.
    expect((await api('DELETE', `${P}/vpcs/${vpc}`)).status).toBe(409);
    await em.close();
  });

  it('keeps the SPEC section 15 states: FAILED, the first backup to come, a peering awaiting the peer, one being torn down', async () => {
    const stateFile = join(tmp(), 'state.json');
    const clock = manualClock();
    const tiger = { stateFile, timeScale: 1, now: clock.now, dialect: 'tiger' } as const;
    let em = await startEmulator({ ...tiger, peeringAcceptance: 'manual' });
    let api = apiOf(() => em);
    const control = (path: string) => fetch(em.origin + path, { method: 'POST' }).then((r) => r.status);
    const vpc = (await api('POST', `${P}/vpcs`, { name: 'net', cidr: '10.0.0.0/16', region_code: 'us-east-1' })).body.id;
    clock.advance(2000);
    const peer = { peer_account_id: '123456789012', peer_region_code: 'us-east-1' };
    const awaiting = (await api('POST', `${P}/vpcs/${vpc}/peerings`, { ...peer, peer_vpc_id: 'vpc-a' })).body.id;
    const torn = (await api('POST', `${P}/vpcs/${vpc}/peerings`, { ...peer, peer_vpc_id: 'vpc-b' })).body.id;
    const [failed, young] = [(await api('POST', `${P}/services`, { name: 'f' })).body.service_id, (await api('POST', `${P}/services`, { name: 'y' })).body.service_id];
    clock.advance(5000);
    expect(await control(`/__emulator/services/${failed}/fail`)).toBe(204);
    expect(await control(`/__emulator/peerings/${torn}/accept`)).toBe(204);
    expect((await api('DELETE', `${P}/vpcs/${vpc}/peerings/${torn}`)).status).toBe(204);
    const before = { services: (await api('GET', `${P}/services`)).body, peerings: (await api('GET', `${P}/vpcs/${vpc}/peerings`)).body };
    expect(before.peerings.map((p: any) => p.status)).toEqual(['PENDING', 'DELETING']);
    await em.close();

    // Restarted with automatic acceptance: the peering made under manual acceptance still awaits it.
    em = await startEmulator(tiger);
    api = apiOf(() => em);
    expect({ services: (await api('GET', `${P}/services`)).body, peerings: (await api('GET', `${P}/vpcs/${vpc}/peerings`)).body }).toEqual(before);
    expect((await api('POST', `${P}/services/${young}/forkService`, { fork_strategy: 'NOW' })).status).toBe(409);
    expect((await api('DELETE', `${P}/vpcs/${vpc}/peerings/${awaiting}`)).status).toBe(204);
    clock.advance(2000);
    expect((await api('GET', `${P}/vpcs/${vpc}/peerings/${torn}`)).status).toBe(404);
    clock.advance(28_000);
    expect((await api('POST', `${P}/services/${young}/forkService`, { fork_strategy: 'NOW' })).status).toBe(202);
    expect((await api('GET', `${P}/services/${failed}`)).body.status).toBe('FAILED');
    await em.close();
    const saved = JSON.parse(readFileSync(stateFile, 'utf8')).projects[0];
    expect(saved.services.find((s: any) => s.id === failed).status).toBe('FAILED');
    expect(saved.services.find((s: any) => s.id === young).backupAt).toBe(Date.parse('2026-03-01T12:00:37Z'));
  });

  it('persists each mutation before answering it, and 100 parallel mutations all land', async () => {
    const stateFile = join(tmp(), 'state.json');
    const em = await startEmulator({ stateFile, timeScale: 0 });
    const api = apiOf(() => em);
    try {
      const id = (await api('POST', `${P}/services`, { name: 'first' })).body.service_id;
      expect(readFileSync(stateFile, 'utf8')).toContain(id);
      const results = await Promise.all(Array.from({ length: 100 }, (_, i) => api('POST', `${P}/services`, { name: `p${i}` })));
      expect(results.every((r) => r.status === 202)).toBe(true);
      const saved = readFileSync(stateFile, 'utf8');
      for (const r of results) expect(saved).toContain(r.body.service_id);
      // Reads do not write.
      const mtime = readFileSync(stateFile, 'utf8');
      await api('GET', `${P}/services`);
      expect(readFileSync(stateFile, 'utf8')).toBe(mtime);
    } finally {
      await em.close();
    }
  });

  it('a lost response still persists the mutation', async () => {
    const stateFile = join(tmp(), 'state.json');
    const em = await startEmulator({ stateFile, timeScale: 0, lostResponseRate: 1 });
    await expect(apiOf(() => em)('POST', `${P}/services`, { name: 'lost' })).rejects.toThrow();
    await em.close();
    const again = await startEmulator({ stateFile, timeScale: 0 });
    try {
      expect((await apiOf(() => again)('GET', `${P}/services`)).body.map((s: any) => s.name)).toEqual(['lost']);
    } finally {
      await again.close();
    }
  });

  it('the state keeps a seeded world; a new seed replaces projects and tokens but keeps resources of kept projects', async () => {
    const stateFile = join(tmp(), 'state.json');
    const seed = {
      projects: [
        { id: 'keep', name: 'Keep' },
        { id: 'drop', name: 'Drop' },
      ],
      tokens: [{ token: 'u', kind: 'oauth', project_ids: ['keep', 'drop'] }],
    };
    let em = await startEmulator({ stateFile, timeScale: 0, seed });
    let api = apiOf(() => em, 'u');
    await api('POST', '/projects/keep/services', { name: 'k' });
    await em.close();
    em = await startEmulator({ stateFile, timeScale: 0 });
    api = apiOf(() => em, 'u');
    expect((await api('GET', '/projects')).body.map((p: any) => p.id)).toEqual(['keep', 'drop']);
    expect((await api('GET', '/projects/keep/services')).body).toHaveLength(1);
    await em.close();
    em = await startEmulator({
      stateFile,
      timeScale: 0,
      seed: { projects: [{ id: 'keep', name: 'Kept' }], tokens: [{ token: 'p', kind: 'pat', project_id: 'keep' }] },
    });
    api = apiOf(() => em, 'p');
    try {
      expect((await api('GET', '/projects')).body).toEqual([{ id: 'keep', name: 'Kept' }]);
      expect((await api('GET', '/projects/keep/services')).body.map((s: any) => s.name)).toEqual(['k']);
      expect((await api('GET', '/projects', undefined, { token: 'u' })).status).toBe(401);
    } finally {
      await em.close();
    }
  });

  it('a corrupt state file is a clear error naming the file and the problem', async () => {
    const dir = tmp();
    const file = join(dir, 'state.json');
    const cases: Array<[string, RegExp]> = [
      ['{"format": "dbform-emulator-state", "version": 1, "projects": [', /state\.json is corrupt: not valid JSON/],
      ['{"hello": 1}', /state\.json is corrupt: "format" must be "dbform-emulator-state"/],
      ['{"format": "dbform-emulator-state", "version": 9, "projects": [], "tokens": []}', /unsupported "version" 9/],
      [
        JSON.stringify({ format: 'dbform-emulator-state', version: 1, projects: [{ id: 'p', name: 'P', vpcs: [], services: [{ id: 's' }] }], tokens: [] }),
        /projects\[0\]\.services\[0\]\.name: missing or invalid/,
      ],
      [
        JSON.stringify({ format: 'dbform-emulator-state', version: 1, projects: [{ id: 'p', name: 'P', vpcs: [{ id: '1', name: 'v', cidr: '10.0.0.0/16', regionCode: 'us-east-1', peerings: [{ id: '2', peerAccountId: 'a', peerRegionCode: 'r', peerVpcId: 'v', settlesAt: 0, fails: false, provisionedId: 'pcx', awaitsAcceptance: 'yes' }] }], services: [] }], tokens: [] }),
        /projects\[0\]\.vpcs\[0\]\.peerings\[0\]\.awaitsAcceptance: invalid/,
      ],
      [
        JSON.stringify({ format: 'dbform-emulator-state', version: 1, projects: [{ id: 'p', name: 'P', vpcs: [], services: [] }], tokens: [{ token: 't', kind: 'pat', project_id: 'zz' }] }),
        /emulator state file .*state\.json: tokens\[0\]\.project_id: unknown project "zz"/,
      ],
    ];
    for (const [text, message] of cases) {
      writeFileSync(file, text);
      await expect(startEmulator({ stateFile: file }), text.slice(0, 60)).rejects.toThrow(message);
    }
  });
});
