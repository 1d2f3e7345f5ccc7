// Which state a plan is for (SPEC section 14): the workspace and the state's location (never a
// URL's password) in the text, markdown and JSON plans.
import { describe, expect, it } from 'vitest';
import { runCli, workspace } from '../apply/cli-harness.js';
import { useDatabaseAndEmulator } from '../../support/pg-and-emulator.js';
import { PASSWORD_ROLE } from '../../support/pg.js';

const world = useDatabaseAndEmulator();

const CONFIG = 'version: 1\nproject_id: proj-demo\nservices:\n  app:\n    name: app-${workspace}\n    cpu_millis: 500\n    memory_gbs: 2\n';

describe('every plan says which workspace and state it is for', () => {
  it('a plan in workspace pr-12 of a PostgreSQL state names both in text, markdown and JSON, never the password', async () => {
    // The password in the state URL (DBFORM_STATE may carry one; a flag may not).
    const url = new URL(world.db.passwordRoleUrl);
    url.password = PASSWORD_ROLE.password;
    const ws = workspace(CONFIG, world.emulator.url, { DBFORM_STATE: url.href, DBFORM_WORKSPACE: 'pr-12' });
    const text = await runCli(ws, ['plan']);
    expect(text.code, text.stderr).toBe(0);
    const state = `postgres://${PASSWORD_ROLE.user}@${url.host}${url.pathname}`;
    expect(text.stdout.split('\n')[0]).toBe(`Project proj-demo, workspace pr-12, state: ${state}`);
    const md = await runCli(ws, ['plan', '--format', 'markdown']);
    expect(md.stdout).toContain(`Workspace <code>pr-12</code> · state <code>${state}</code>`);
    const json = JSON.parse((await runCli(ws, ['plan', '--json'])).stdout) as { workspace: string; state: string };
    expect(json).toMatchObject({ workspace: 'pr-12', state });
    for (const out of [text.stdout, text.stderr, md.stdout, JSON.stringify(json)]) expect(out).not.toContain(PASSWORD_ROLE.password);
  });

  it('a plan of the file store names the workspace lockfile', async () => {
    const ws = workspace(CONFIG, world.emulator.url, { DBFORM_WORKSPACE: 'pr-3' });
    const text = await runCli(ws, ['plan']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout.split('\n')[0]).toBe('Project proj-demo, workspace pr-3, state: dbform.pr-3.lock.json');
  });
});
