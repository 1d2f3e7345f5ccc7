import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readLockfile, resolveLockfilePath, writeLockfile } from '../../../src/lockfile/index.js';
import { parseAddress, compareAddresses } from '../../../src/model/address.js';
import { serializeLockfile } from '../../../src/model/lockfile.js';
import { removeTempDirs, tempDir } from '../../support/temp-dir.js';

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
    expect(await readLockfile(path, 'p1')).toEqual(lock);
    expect(readdirSync(dir)).toEqual(['dbform.lock.json']);
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
});
