// The heap bound of large configs changes V8 flags for the whole process, so each case runs in a
// child process of its own (the built module, as the CLI loads it), never in the test worker.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../support/temp-dir.js';

const MODULE = join(import.meta.dirname, '..', '..', '..', 'dist', 'app', 'heap-budget.js');

/** Makes 60 MB of garbage, asks for the phase's collection, and reports the heap in use before and after (MiB). */
function runWith(configBytes: number): { bounded: boolean; before: number; after: number } {
  const config = join(tempDir('dbform-heap-'), 'dbform.yaml');
  writeFileSync(config, `version: 1\n${'#'.repeat(configBytes)}\n`);
  const script = `
    import { getHeapStatistics } from 'node:v8';
    const { boundHeapForConfig, collectPhaseGarbage } = await import(${JSON.stringify(MODULE)});
    const bounded = boundHeapForConfig([${JSON.stringify(config)}]);
    let junk = Array.from({ length: 600 }, () => new Array(10_000).fill(0).map((_, i) => ({ i })));
    junk = undefined;
    const before = getHeapStatistics().used_heap_size / 2 ** 20;
    collectPhaseGarbage();
    const after = getHeapStatistics().used_heap_size / 2 ** 20;
    process.stdout.write(JSON.stringify({ bounded, before, after }));
  `;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout) as { bounded: boolean; before: number; after: number };
}

describe('the heap of a large config', () => {
  it('is bounded from 1 MiB of config, and the garbage of its phases is collected when asked', () => {
    const large = runWith(1 << 20);
    expect(large.bounded).toBe(true);
    expect(large.before - large.after).toBeGreaterThan(30);
  });

  it('is left to V8 below 1 MiB: nothing is collected out of turn', () => {
    const small = runWith(500_000);
    expect(small.bounded).toBe(false);
    expect(small.before - small.after).toBeLessThan(1);
  });
});
