// `dbform mcp` with the state on PostgreSQL (SPEC sections 10 and 17): each call's record goes to
// dbform.history through the store, and the state URL's password, given in DBFORM_STATE, reaches
// no answer, no record and not the server's stderr.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { EmulatorHandle } from '../../../src/emulator/index.js';
import { runCli, workspace } from '../apply/cli-harness.js';
import { startTestEmulator } from '../../support/dialect.js';
import { createTestDatabase, PASSWORD_ROLE, type TestDatabase } from '../../support/pg.js';
import { removeTempDirs } from '../../support/temp-dir.js';
import { CLIENT, closeSessions, connectMcp } from './mcp-session.js';

let emulator: EmulatorHandle;
let db: TestDatabase;
beforeAll(async () => {
  emulator = await startTestEmulator({ timeScale: 0.01 });
  db = await createTestDatabase();
});
afterAll(async () => {
  await closeSessions();
  await emulator.close();
  await db.drop();
  removeTempDirs();
});

it('records every call in dbform.history with the client, and never says the state URL\'s password', async () => {
  const url = new URL(db.passwordRoleUrl);
  url.password = PASSWORD_ROLE.password;
  const ws = workspace('version: 1\nproject_id: proj-demo\nservices:\n  db:\n    name: pg-state-db\n    cpu_millis: 500\n    memory_gbs: 2\n', emulator.url, { DBFORM_STATE: url.href });
  const applied = await runCli(ws, ['apply', '--auto-approve']);
  expect(applied.code, applied.stderr).toBe(0);

  const mcp = await connectMcp(ws);
  const answers = [await mcp.call('state_list'), await mcp.call('plan'), await mcp.call('history', { limit: 5 })];
  expect(answers.map((a) => a.isError)).toEqual([false, false, false]);
  expect(JSON.parse(answers[0]!.text)).toMatchObject({ state: expect.stringContaining(db.name), resources: [{ address: 'service.db' }] });

  const { rows } = await db.query<{ workspace: string; record: { command: string; exit_code: number } }>('SELECT workspace, record FROM dbform.history ORDER BY started_at');
  expect(rows.map((r) => [r.workspace, r.record.command, r.record.exit_code])).toEqual([
    ['default', 'dbform apply --auto-approve', 0],
    ['default', `dbform mcp state_list (client ${CLIENT.name} ${CLIENT.version})`, 0],
    ['default', `dbform mcp plan (client ${CLIENT.name} ${CLIENT.version})`, 0],
    ['default', `dbform mcp history (client ${CLIENT.name} ${CLIENT.version})`, 0],
  ]);
  // The calls read: the workspace's last apply is still the apply's.
  const { rows: applies } = await db.query<{ finished_at: Date }>("SELECT finished_at FROM dbform.history WHERE record ->> 'command' = 'dbform apply --auto-approve'");
  const list = JSON.parse((await runCli(ws, ['workspace', 'list', '--json'])).stdout);
  expect(list).toEqual([expect.objectContaining({ workspace: 'default', last_apply: applies[0]!.finished_at.toISOString() })]);
  for (const text of [...answers.flatMap((a) => a.texts), mcp.stderr(), JSON.stringify(rows)]) expect(text).not.toContain(PASSWORD_ROLE.password);
});
