// Issue 21's probe: `name: "app-${env:DBFORM_API_KEY}"` put the API token into `plan --format
// markdown`, which CI posts as a comment. A credential is not a config value (SPEC section 13):
// the plan stops at the config, names the variable at its position, prints nothing of its value
// and sends nothing to the API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmulatorHandle } from '../../../src/emulator/index.js';
import { AUTH_ENV, startTestEmulator } from '../../support/dialect.js';
import { removeTempDirs } from '../../support/temp-dir.js';
import { runCli, workspace } from '../apply/cli-harness.js';

afterAll(removeTempDirs);

let emulator: EmulatorHandle;
beforeAll(async () => {
  emulator = await startTestEmulator({ timeScale: 0.01 });
});
afterAll(async () => emulator?.close());

/** Every credential variable of the run's dialect, with its value, and one a password.from_env names. */
const SECRETS: Record<string, string> = { ...AUTH_ENV, DB_PASSWORD: 'canary-password-93be1c' };

describe('plan of a config that reads a credential', () => {
  it.each(Object.keys(SECRETS))('stops at the config when a service name reads %s, and shows nothing of it', async (name) => {
    const config = `version: 1\nproject_id: proj-demo\nservices:\n  db:\n    password: { from_env: DB_PASSWORD }\n  app:\n    name: "app-\${env:${name}}"\n`;
    const ws = workspace(config, emulator.url, SECRETS);
    const before = emulator.stats().total;
    for (const format of ['markdown', 'json', 'text']) {
      const r = await runCli(ws, ['plan', '--format', format]);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(new RegExp(`dbform\\.yaml:7:11: services\\.app\\.name: \\$\\{env:${name}\\} reads a credential`));
      expect(`${r.stdout}${r.stderr}`).not.toContain(SECRETS[name]);
    }
    expect(emulator.stats().total).toBe(before);
  });
});
