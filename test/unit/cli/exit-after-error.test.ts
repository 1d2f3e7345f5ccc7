// A command that failed must not keep a CI job waiting on work it left pending.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const ERRORS = pathToFileURL(join(import.meta.dirname, '..', '..', '..', 'dist', 'cli', 'errors.js')).href;

function runScript(body: string): { status: number | null; stderr: string; ms: number } {
  const started = Date.now();
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', `import { action } from ${JSON.stringify(ERRORS)};\n${body}`], { encoding: 'utf8', timeout: 20_000 });
  return { status: r.status, stderr: r.stderr, ms: Date.now() - started };
}

describe('exit after a reported error', () => {
  it('exits with the error code about a second after reporting, though a 15 s timer is still pending', () => {
    const r = runScript(`
      const { DbformError } = await import(${JSON.stringify(ERRORS.replace('cli/errors.js', 'model/errors.js'))});
      await action(async () => {
        setTimeout(() => {}, 15_000); // e.g. a retry left running
        throw new DbformError('the API is down');
      })();
    `);
    expect(r.stderr).toBe('error: the API is down\n');
    expect(r.status).toBe(1);
    expect(r.ms).toBeLessThan(5000);
  });

  it('does not cut short a command that succeeds and still has work pending', () => {
    const r = runScript(`
      await action(async () => {
        setTimeout(() => process.stderr.write('late work done\\n'), 1500);
        return 0;
      })();
    `);
    expect(r.stderr).toBe('late work done\n');
    expect(r.status).toBe(0);
  });
});
