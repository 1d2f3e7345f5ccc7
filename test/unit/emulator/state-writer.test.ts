import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { StateWriter } from '../../../src/emulator/persistence.js';
import { removeTempDirs, tempDir } from '../../support/temp-dir.js';

afterAll(removeTempDirs);

describe('StateWriter', () => {
  it('coalesces concurrent saves: 100 callers share a handful of writes, each sees its own change on disk', async () => {
    const file = join(tempDir('dbform-writer-'), 'state.json');
    let version = 0;
    let snapshots = 0;
    const writer = new StateWriter(file, () => {
      snapshots++;
      return JSON.stringify({ version });
    });
    const waits = Array.from({ length: 100 }, async () => {
      version++;
      const mine = version;
      await writer.save();
      expect(JSON.parse(readFileSync(file, 'utf8')).version).toBeGreaterThanOrEqual(mine);
    });
    await Promise.all(waits);
    expect(snapshots).toBeLessThanOrEqual(3);
    expect(JSON.parse(readFileSync(file, 'utf8')).version).toBe(100);
    version++;
    const later = writer.save();
    await writer.flush();
    await later;
    expect(JSON.parse(readFileSync(file, 'utf8')).version).toBe(101);
  });

  it('a failed write rejects its callers and does not wedge later saves', async () => {
    const dir = tempDir('dbform-writer-');
    const writer = new StateWriter(join(dir, 'missing-dir', 'state.json'), () => '{}');
    await expect(writer.save()).rejects.toThrow(/ENOENT/);
    await expect(writer.save()).rejects.toThrow(/ENOENT/);
    await writer.flush();
  });
});
