import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readLockfile, resolveLockfilePath, writeLockfile } from '../../../src/lockfile/index.js';
import { parseAddress, compareAddresses, kindOf, sortAddresses } from '../../../src/model/address.js';
import { serializeLockfile } from '../../../src/model/lockfile.js';
import { removeTempDirs, tempDir } from '../../support/temp-dir.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

afterAll(removeTempDirs);

const tmp = () => tempDir('dbform-lock-');

describe('lockfile', () => {
  it('serializes sorted by kind then address, snake_case, with a trailing newline', () => {
    const text = serializeLockfile({
      version: 1,
      projectId: 'p1',
      resources: {
        'service.zeta': { id: 's2', passwordVersion: 2 },
        'vpc.main': { id: '1234567890', protect: true },
        'service.alpha': { id: 's1' },
        'replica_set.alpha.r': { id: 'r1' },
      },
    });
    expect(Object.keys(JSON.parse(text).resources)).toEqual(['vpc.main', 'service.alpha', 'service.zeta', 'replica_set.alpha.r']);
    expect(text).toContain('"password_version": 2');
    expect(text.endsWith('}\n')).toBe(true);
  });

  it('round-trips through an atomic write and leaves no temp file', async () => {
    const dir = tmp();
    const path = join(dir, 'dbform.lock.json');
    const lock = { version: 1 as const, projectId: 'p1', resources: { 'service.db': { id: 'abcdefghij', protect: true } } };
    await writeLockfile(path, lock);
    // The first write gives the state its identity (SPEC section 2).
    expect(await readLockfile(path, 'p1')).toEqual({ ...lock, lineage: expect.stringMatching(UUID), serial: 1 });
    expect(readdirSync(dir)).toEqual(['dbform.lock.json']);
  });

  it('keeps the lineage and increments the serial on every write; the file lists them after project_id', async () => {
    const path = join(tmp(), 'dbform.lock.json');
    const first = await writeLockfile(path, { version: 1, projectId: 'p1', resources: {} });
    expect(first.lineage).toMatch(UUID);
    const read1 = await readLockfile(path, 'p1');
    const second = await writeLockfile(path, { ...read1, resources: { 'vpc.main': { id: '1234567890' } } });
    expect(second).toEqual({ version: 1, projectId: 'p1', lineage: first.lineage, serial: 2, resources: { 'vpc.main': { id: '1234567890' } } });
    expect(readFileSync(path, 'utf8')).toBe(
      `{\n  "version": 1,\n  "project_id": "p1",\n  "lineage": "${first.lineage}",\n  "serial": 2,\n  "resources": {\n    "vpc.main": {\n      "id": "1234567890"\n    }\n  }\n}\n`,
    );
    // Another state gets another lineage.
    const other = await writeLockfile(join(tmp(), 'dbform.lock.json'), { version: 1, projectId: 'p1', resources: {} });
    expect(other.lineage).not.toBe(first.lineage);
  });

  it('reads a lockfile without lineage and serial, and upgrades it on its next write', async () => {
    const path = join(tmp(), 'dbform.lock.json');
    writeFileSync(path, JSON.stringify({ version: 1, project_id: 'p1', resources: { 'service.db': { id: 'abcdefghij' } } }));
    const old = await readLockfile(path, 'p1');
    expect(old).toEqual({ version: 1, projectId: 'p1', resources: { 'service.db': { id: 'abcdefghij' } } });
    expect('lineage' in old || 'serial' in old).toBe(false);
    await writeLockfile(path, old);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ version: 1, project_id: 'p1', lineage: expect.stringMatching(UUID), serial: 1, resources: { 'service.db': { id: 'abcdefghij' } } });
  });

  it('names a bad lineage or serial', async () => {
    const path = join(tmp(), 'dbform.lock.json');
    writeFileSync(path, JSON.stringify({ version: 1, project_id: 'p1', lineage: 7, serial: -1, resources: {} }));
    await expect(readLockfile(path, 'p1')).rejects.toThrow(/"lineage" must be a non-empty string\n.*"serial" must be a non-negative integer/);
  });

  it('treats a missing file as empty', async () => {
    expect(await readLockfile(join(tmp(), 'nope.json'), 'p1')).toEqual({ version: 1, projectId: 'p1', resources: {} });
  });

  it('refuses malformed JSON naming the file, instead of silently dropping IDs', async () => {
    const path = join(tmp(), 'dbform.lock.json');
    writeFileSync(path, '{"version": 1, "project_id": "p1", "resources": {');
    await expect(readLockfile(path, 'p1')).rejects.toThrow(`${path}: the lockfile is not valid JSON`);
  });

  it('names each bad field and a project mismatch', async () => {
    const path = join(tmp(), 'dbform.lock.json');
    writeFileSync(path, JSON.stringify({ version: 2, project_id: 'p1', resources: { 'service.a': { id: 3 } } }));
    await expect(readLockfile(path, 'p1')).rejects.toThrow(/"version" must be 1[\s\S]*resources\["service.a"\]\.id must be a non-empty string/);
    writeFileSync(path, JSON.stringify({ version: 1, project_id: 'other', resources: {} }));
    await expect(readLockfile(path, 'p1')).rejects.toThrow('belongs to project "other" but the config targets "p1"');
  });

  it('defaults beside the first config file', () => {
    expect(resolveLockfilePath(['infra/a.yaml', 'b.yaml'])).toBe(join('infra', 'dbform.lock.json'));
    expect(resolveLockfilePath(['a.yaml'], 'x/l.json')).toBe('x/l.json');
  });
});

describe('addresses', () => {
  it('parses all four forms and rejects others', () => {
    expect(parseAddress('vpc.main')).toEqual({ kind: 'vpc', key: 'main' });
    expect(parseAddress('peering.main.vpc-0a.b')).toEqual({ kind: 'peering', vpcKey: 'main', peerVpcId: 'vpc-0a.b' });
    expect(parseAddress('replica_set.db.r1')).toEqual({ kind: 'replica_set', serviceKey: 'db', key: 'r1' });
    expect(parseAddress('service.Bad')).toBeUndefined();
    expect(parseAddress('database.x')).toBeUndefined();
    expect(parseAddress('service.a.b')).toBeUndefined();
  });
  it('orders by kind first', () => {
    expect(['service.a', 'replica_set.a.b', 'peering.v.x', 'vpc.z'].sort(compareAddresses)).toEqual([
      'vpc.z', 'peering.v.x', 'service.a', 'replica_set.a.b',
    ]);
  });
  it('sortAddresses orders as compareAddresses does, malformed addresses last', () => {
    const addresses = ['service.b', 'replica_set.a.b', 'odd.thing', 'service.Bad', 'peering.v.x.y', 'vpc.z', 'service.a', 'vpc.a'];
    expect(sortAddresses(addresses)).toEqual([...addresses].sort(compareAddresses));
    expect(sortAddresses(addresses)).toEqual(['vpc.a', 'vpc.z', 'peering.v.x.y', 'service.a', 'service.b', 'replica_set.a.b', 'odd.thing', 'service.Bad']);
  });
  it('kindOf says what parseAddress says, for addresses good and bad', () => {
    const samples = [
      'vpc.main', 'vpc.Main', 'vpc.a.b', 'vpc.', 'vpc', 'service.db-1', 'service.1db', 'service.db.x', `service.${'a'.repeat(63)}`, `service.${'a'.repeat(64)}`,
      'replica_set.db.r', 'replica_set.db', 'replica_set.db.r.x', 'replica_set.db.R', 'peering.main.vpc-0a', 'peering.main.vpc-0a.b', 'peering.main.',
      'peering.main..', 'peering.main', 'peering.Main.x', 'peering.main.a\nb', 'database.x', '', '.', 'service.db\n',
    ];
    for (const a of samples) expect(kindOf(a), a).toBe(parseAddress(a)?.kind);
  });
});
