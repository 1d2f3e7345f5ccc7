// The leftover-secret probe of issue 21: `name: "app-${env:DBFORM_API_KEY}"` put the API token into
// `plan --format markdown`, which the CI example posts as a comment. Whether the config refuses
// it first or the plan does, no output, plan file or request ever holds the credential; a value
// pasted into the config literally is caught by the plan's own check.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmulatorHandle } from '../../../src/emulator/index.js';
import { runCli, workspace } from '../apply/cli-harness.js';
import { DIALECT, startTestEmulator } from '../../support/dialect.js';
import { removeTempDirs } from '../../support/temp-dir.js';

let em: EmulatorHandle;
beforeAll(async () => {
  em = await startTestEmulator({ timeScale: 0.01 });
});
afterAll(async () => {
  await em.close();
  removeTempDirs();
});

/** The credential the harness authenticates with in this dialect, and the variable that holds it. */
const [SECRET, VARIABLE] = DIALECT === 'tiger' ? ['demo-secret', 'DBFORM_SECRET_KEY'] : ['demo-pat', 'DBFORM_API_KEY'];

const config = (name: string) => `version: 1
project_id: proj-demo
services:
  app:
    name: ${name}
    cpu_millis: 500
    memory_gbs: 2
`;

describe.each([
  ['interpolated from the environment', `"app-\${env:${VARIABLE}}"`],
  ['pasted literally', `app-${SECRET}`],
])('a service name holding the API credential, %s', (_label, name) => {
  it('plan in every format, plan --out and apply: exit 1, the credential nowhere, nothing sent', async () => {
    const ws = workspace(config(name), em.url);
    em.resetStats();
    for (const command of [['plan', '--format', 'markdown'], ['plan'], ['plan', '--json'], ['plan', '--out', 'saved.json'], ['apply', '--auto-approve']]) {
      const r = await runCli(ws, command);
      expect(r.code, `${command.join(' ')}: ${r.stderr}`).toBe(1);
      expect(r.stdout, command.join(' ')).not.toContain(SECRET);
      expect(r.stderr, command.join(' ')).not.toContain(SECRET);
    }
    expect(existsSync(join(ws.dir, 'saved.json'))).toBe(false);
    expect(Object.keys(em.stats().requests).filter((k) => k.startsWith('POST'))).toEqual([]);
  });
});

describe('the plan check on its own', () => {
  it('names the resource, never the value', async () => {
    const ws = workspace(config(`app-${SECRET}`), em.url);
    const r = await runCli(ws, ['plan', '--format', 'markdown']);
    expect(r.stderr).toBe(
      'error: the plan (service.app) holds the value of the API credential; nothing was printed, saved or sent. ' +
        'A config value must never hold a credential: remove it (or the ${env:...} that put it there) from the config\n',
    );
    expect(r.stdout).toBe('');
  });
});
