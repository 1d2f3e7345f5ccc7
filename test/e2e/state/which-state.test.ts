// Which state a plan is for (SPEC section 14): the workspace and the state's location (never a
// URL's password) in the text, markdown and JSON plans, in the approval prompt on a terminal, in
// the summaries and in every history record; and messages that say "state", not "lockfile", when
// the state is PostgreSQL.
import { describe, expect, it } from 'vitest';
import { runCli, workspace } from '../apply/cli-harness.js';
import { useDatabaseAndEmulator } from '../../support/pg-and-emulator.js';
import { PASSWORD_ROLE } from '../../support/pg.js';
import { runInTerminal } from '../../support/terminal.js';

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

/** DBFORM_STATE with the password in it (as an environment may carry it), and how dbform shows it. */
function passwordUrl(): { href: string; shown: string } {
  const url = new URL(world.db.passwordRoleUrl);
  url.password = PASSWORD_ROLE.password;
  return { href: url.href, shown: `postgres://${PASSWORD_ROLE.user}@${url.host}${url.pathname}` };
}

async function liveNames(): Promise<string[]> {
  const res = await fetch(`${world.emulator.url}/projects/proj-demo/services`, { headers: { authorization: 'Bearer demo-pat' } });
  return ((await res.json()) as Array<{ name: string; status: string }>).filter((s) => s.status !== 'DELETING').map((s) => s.name);
}

const mutations = () => Object.keys(world.emulator.stats().requests).filter((k) => !k.startsWith('GET'));

describe('the approval, the summaries and the history name the workspace and state', () => {
  it('on a terminal, apply and destroy ask for workspace pr-5 of the PostgreSQL state; their summaries and history records name it', async () => {
    const state = passwordUrl();
    const ws = workspace(CONFIG, world.emulator.url, { DBFORM_STATE: state.href, DBFORM_WORKSPACE: 'pr-5' });
    const asked = `Apply these changes to workspace "pr-5" (state: ${state.shown})? Only 'yes' will be accepted: `;

    // Refused: the question named the state, and nothing was sent.
    world.emulator.resetStats();
    const no = await runInTerminal(['apply'], { cwd: ws.dir, env: ws.env, answer: 'no' });
    expect(no.code, no.screen).toBe(1);
    expect(no.screen).toContain(asked);
    expect(no.screen).toContain('Apply cancelled; nothing was changed.');
    expect(mutations()).toEqual([]);
    expect(await liveNames()).not.toContain('app-pr-5');

    const yes = await runInTerminal(['apply'], { cwd: ws.dir, env: ws.env, answer: 'yes' });
    expect(yes.code, yes.screen).toBe(0);
    expect(yes.screen).toContain(asked);
    expect(yes.screen).toMatch(new RegExp(`Workspace pr-5, state: ${escape(state.shown)}\nApply complete: 1 created`));
    expect(await liveNames()).toContain('app-pr-5');

    const gone = await runInTerminal(['destroy'], { cwd: ws.dir, env: ws.env, answer: 'yes' });
    expect(gone.code, gone.screen).toBe(0);
    expect(gone.screen).toContain(`Destroy all the resources above in workspace "pr-5" (state: ${state.shown})? Only 'yes' will be accepted: `);
    expect(gone.screen).toMatch(new RegExp(`Workspace pr-5, state: ${escape(state.shown)}\nDestroy complete`));
    expect(await liveNames()).not.toContain('app-pr-5');

    // Every record, in JSON and in text, says which workspace and state it is for.
    const json = JSON.parse((await runCli(ws, ['history', '--json'])).stdout) as Array<{ workspace: string; state: string; command: string; exit_code: number }>;
    expect(json.map((r) => [r.workspace, r.state, r.command, r.exit_code])).toEqual([
      ['pr-5', state.shown, 'dbform destroy', 0],
      ['pr-5', state.shown, 'dbform apply', 0],
      ['pr-5', state.shown, 'dbform apply', 1],
    ]);
    const text = (await runCli(ws, ['history'])).stdout.split('\n');
    expect(text[0]).toBe(`History of workspace "pr-5" in ${state.shown}, newest first:`);
    expect(text.slice(1, 4).map((l) => / {2}exit (\d) .* {2}(dbform \w+) {2}/.exec(l)?.slice(1))).toEqual([
      ['0', 'dbform destroy'],
      ['0', 'dbform apply'],
      ['1', 'dbform apply'],
    ]);
    for (const out of [no.screen, yes.screen, gone.screen, JSON.stringify(json), text.join('\n')]) expect(out).not.toContain(PASSWORD_ROLE.password);
  });

  it('history says what it holds, and holds state rm beside the applies', async () => {
    const help = await runCli(workspace(CONFIG, world.emulator.url), ['history', '--help']);
    // commander wraps the description to the terminal's width.
    expect(help.stdout.replace(/\s+/g, ' ')).toContain("what was done to this workspace's state, newest first: applies and destroys (a sweep's too), state rm and state mv, and the tool calls of dbform mcp");
    const ws = workspace(CONFIG, world.emulator.url, { DBFORM_STATE: world.db.url, DBFORM_WORKSPACE: 'pr-6' });
    expect((await runCli(ws, ['apply', '--auto-approve'])).code).toBe(0);
    const rm = await runCli(ws, ['state', 'rm', 'service.app']);
    expect(rm.code, rm.stderr).toBe(0);
    const json = JSON.parse((await runCli(ws, ['history', '--json'])).stdout) as Array<{ command: string; actions: Array<{ address: string; op: string }> }>;
    expect(json.map((r) => r.command)).toEqual(['dbform state rm service.app', 'dbform apply --auto-approve']);
    expect(json[0]!.actions.map((a) => `${a.address} ${a.op}`)).toEqual(['service.app stateRm']);
  });
});

describe('messages name the state, not a lockfile, when the state is PostgreSQL', () => {
  it('a --target that names nothing, and the unmanaged count, say "state"', async () => {
    const ws = workspace(CONFIG, world.emulator.url, { DBFORM_STATE: world.db.url, DBFORM_WORKSPACE: 'pr-8' });
    const plan = await runCli(ws, ['plan', '--target', 'service.missing']);
    expect(plan.code).toBe(1);
    expect(plan.stdout + plan.stderr).toContain('--target service.missing: no such resource in the config or the state');
    const ok = await runCli(ws, ['plan']);
    expect(ok.stdout).toMatch(/unmanaged \(not in the config or state; left alone\)\.\n/);
    for (const out of [plan.stdout, plan.stderr, ok.stdout, ok.stderr]) expect(out).not.toMatch(/lockfile/i);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
