// The token and passwords never reach --debug output or error messages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import type { EmulatorHandle } from '../../../src/emulator/index.js';
import { emulator, PROJECT } from './helpers.js';

const TOKEN = 'tok-CANARY-7f3a9c1e5b';
const PASSWORD = 'pw-CANARY-41d8cd98f0';
let em: EmulatorHandle;

beforeAll(async () => {
  em = await emulator({
    timeScale: 0,
    seed: { projects: [{ id: PROJECT, name: 'Demo' }], tokens: [{ token: TOKEN, kind: 'pat', project_id: PROJECT }] },
  });
});
afterAll(async () => em.close());

function debugClient(token: string, lines: string[]): ApiClient {
  return new ApiClient({ baseUrl: em.url, token, logger: (l) => lines.push(l), retry: { baseDelayMs: 5, maxDelayMs: 20 } });
}

/** Everything an error could show: message, stack, cause chain, enumerable fields. */
function everythingOf(err: unknown): string {
  const parts: string[] = [];
  for (let e = err as (Error & { cause?: unknown }) | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    parts.push(String(e.message), String(e.stack), JSON.stringify(e));
  }
  return parts.join('\n');
}

describe('secrets', () => {
  it('never shows the token, a new password or initial_password in debug lines or errors', async () => {
    const lines: string[] = [];
    const api = debugClient(TOKEN, lines);
    const errors: unknown[] = [];
    const svc = await api.createService(PROJECT, { name: 'secret-db' });
    const initial = svc.initial_password!;
    expect(initial.length).toBeGreaterThan(8);

    await api.updatePassword(PROJECT, svc.service_id, { password: PASSWORD });
    await api.updatePassword(PROJECT, 'nosuchsvc0', { password: PASSWORD }).catch((e: unknown) => errors.push(e));
    await api.updatePassword(PROJECT, svc.service_id, { password: `${PASSWORD}${'x'.repeat(2000)}` }).catch((e: unknown) => errors.push(e));
    em.setFaults({ faultRate: 1 });
    await api.updatePassword(PROJECT, svc.service_id, { password: PASSWORD }).catch((e: unknown) => errors.push(e));
    await api.createService(PROJECT, { name: 'secret-db-2' }).catch((e: unknown) => errors.push(e));
    em.setFaults({ faultRate: 0 });
    await api.getService(PROJECT, svc.service_id);

    expect(errors).toHaveLength(4);
    expect(lines.length).toBeGreaterThan(10);
    expect(lines.every((l) => /^\[api\] (GET|POST|DELETE) \/projects\S* -> /.test(l))).toBe(true);
    const output = [...lines, ...errors.map(everythingOf)].join('\n');
    for (const secret of [TOKEN, PASSWORD, initial]) expect(output).not.toContain(secret);
    expect(output).not.toMatch(/authorization|bearer/i);
    await api.close();
  });

  it('a rejected token is not echoed', async () => {
    const lines: string[] = [];
    const wrong = 'tok-WRONG-0c0ffee';
    const api = debugClient(wrong, lines);
    const err = await api.listProjects().catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/rejected the token/);
    expect([...lines, everythingOf(err)].join('\n')).not.toContain(wrong);
    await api.close();
  });
});
