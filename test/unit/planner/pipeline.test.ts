// The plan command's helpers: config hash of a saved plan and the exit code rule.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hashConfigFiles, planExitCode } from '../../../src/app/plan.js';
import { desiredService, desiredState, liveService, liveState, lockfile, plan } from './builders.js';
import { removeTempDirs, tempDir } from '../../support/temp-dir.js';

afterAll(removeTempDirs);

describe('hashConfigFiles', () => {
  const dir = tempDir('dbform-hash-');
  const file = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };

  it('hashes the bytes, not the paths, in order, with file boundaries', async () => {
    const a = file('a.yaml', 'version: 1\n');
    const b = file('b.yaml', 'services: {}\n');
    const copy = file('copy.yaml', 'version: 1\n');
    const ab = await hashConfigFiles([a, b]);
    expect(ab).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(await hashConfigFiles([copy, b])).toBe(ab);
    expect(await hashConfigFiles([b, a])).not.toBe(ab);
    const joined = file('joined.yaml', 'version: 1\nservices: {}\n');
    expect(await hashConfigFiles([joined])).not.toBe(ab);
  });
});

describe('planExitCode', () => {
  const lock = lockfile({ 'service.db': 'svc-db' });
  const quiet = plan(desiredState({ services: [desiredService('db')] }), liveState({ services: [liveService('db')] }), lock);
  const changed = plan(desiredState({ services: [desiredService('db', { environment: 'PROD' })] }), liveState({ services: [liveService('db')] }), lock);
  const blocked = plan(desiredState(), liveState({ services: [liveService('db')] }), lock);
  const failed = plan(desiredState({ services: [desiredService('db', { name: 'x' })] }), liveState({ services: [liveService('db')] }), lock);

  it.each([
    ['no changes', quiet, false, 0],
    ['no changes, detailed', quiet, true, 0],
    ['changes', changed, false, 0],
    ['changes, detailed', changed, true, 2],
    ['blocked', blocked, true, 3],
    ['errors', failed, true, 1],
  ] as const)('%s', (_n, p, detailed, code) => {
    expect(planExitCode(p, detailed)).toBe(code);
  });
});
