// A command that failed must not keep a CI job waiting on work it left pending.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const ERRORS = pathToFileURL(join(import.meta.dirname, '..', '..', '..', 'dist', 'cli', 'errors.js')).href;

/** The script in a child; one still running after 20 s is killed (status null). */
function runScript(body: string): { status: number | null; stderr: string } {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', `import { action } from ${JSON.stringify(ERRORS)};\n${body}`], { encoding: 'utf8', timeout: 20_000 });
  return { status: r.status, stderr: r.stderr };
}

describe('exit after a reported error', () => {
  it('exits with the error code after reporting, though an hour-long timer is still pending', () => {
    // Had it waited for the timer, the child would have been killed at 20 s, with no exit status.
    const r = runScript(`
      const { DbformError } = await import(${JSON.stringify(ERRORS.replace('cli/errors.js', 'model/errors.js'))});
      await action(async () => {
        setTimeout(() => {}, 3_600_000); // e.g. a retry left running
        throw new DbformError('the API is down');
      })();
    `);
    expect(r.stderr).toBe('error: the API is down\n');
    expect(r.status).toBe(1);
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
