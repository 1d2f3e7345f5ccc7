import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { confirmChanges } from '../../../src/cli/progress/confirm.js';

function terminal(answer: string | undefined) {
  const input = Object.assign(new PassThrough(), { isTTY: true });
  const output = new PassThrough();
  let shown = '';
  output.on('data', (d) => (shown += d));
  if (answer !== undefined) setTimeout(() => input.write(answer), 5);
  return { input, output, shown: () => shown };
}

const ask = (t: ReturnType<typeof terminal>, extra: Partial<Parameters<typeof confirmChanges>[0]> = {}) =>
  confirmChanges({ input: t.input, output: t.output, autoApprove: false, question: 'Apply these changes?', command: 'apply', ...extra });

describe('confirmChanges', () => {
  it("asks on a terminal and proceeds only on 'yes'", async () => {
    const yes = terminal('yes\n');
    expect(await ask(yes)).toBe(true);
    expect(yes.shown()).toContain("Apply these changes? Only 'yes' will be accepted: ");
    expect(await ask(terminal('y\n'))).toBe(false);
    expect(await ask(terminal('YES please\n'))).toBe(false);
  });

  it('refuses without asking when stdin is not a terminal, naming --auto-approve', async () => {
    const input = new PassThrough();
    await expect(confirmChanges({ input, output: new PassThrough(), autoApprove: false, question: 'q', command: 'destroy' })).rejects.toThrow(
      /refusing to destroy without confirmation: standard input is not a terminal.*dbform destroy --auto-approve/,
    );
  });

  it('does not ask with --auto-approve', async () => {
    expect(await confirmChanges({ input: new PassThrough(), output: new PassThrough(), autoApprove: true, question: 'q', command: 'apply' })).toBe(true);
  });

  it('gives up with exit 130 when interrupted at the prompt', async () => {
    const t = terminal(undefined);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 10);
    await expect(ask(t, { signal: controller.signal })).rejects.toMatchObject({ exitCode: 130 });
  });
});
