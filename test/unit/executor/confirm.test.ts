import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { confirmChanges } from '../../../src/cli/progress/confirm.js';

/** Runs `act` once `stream` has shown the question, as a person types only after reading it. */
function onPrompt(stream: NodeJS.ReadableStream, act: () => void): void {
  let seen = '';
  const listen = (d: Buffer | string) => {
    seen += String(d);
    if (!seen.includes("Only 'yes' will be accepted: ")) return;
    stream.off('data', listen);
    // After the rest of the prompt's writes (cursor codes), not from inside them.
    setImmediate(act);
  };
  stream.on('data', listen);
}

function terminal(answer: string | undefined) {
  const input = Object.assign(new PassThrough(), { isTTY: true });
  const output = Object.assign(new PassThrough(), { isTTY: true });
  let shown = '';
  output.on('data', (d) => (shown += d));
  if (answer !== undefined) onPrompt(output, () => input.write(answer));
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
    onPrompt(t.output, () => controller.abort());
    await expect(ask(t, { signal: controller.signal })).rejects.toMatchObject({ exitCode: 130 });
  });

  it('ends the prompt line on Ctrl-D before the cancellation message', async () => {
    const t = terminal(undefined);
    onPrompt(t.output, () => t.input.write('\x04'));
    expect(await ask(t)).toBe(false);
    expect(t.shown()).toMatch(/Only 'yes' will be accepted: (\x1b\[\d*G)*\n$/);
  });

  it('ends the prompt line on Ctrl-C before the error, exit 130', async () => {
    const t = terminal(undefined);
    onPrompt(t.output, () => t.input.write('\x03'));
    await expect(ask(t)).rejects.toMatchObject({ exitCode: 130 });
    expect(t.shown()).toMatch(/Only 'yes' will be accepted: (\x1b\[\d*G)*\n$/);
  });

  it('adds no newline after an answer', async () => {
    const t = terminal('no\n');
    expect(await ask(t)).toBe(false);
    expect(t.shown()).not.toMatch(/\n\n$/);
  });

  it('asks on stderr when stdout is piped to a log, leaving no cursor codes or answer in the log', async () => {
    const input = Object.assign(new PassThrough(), { isTTY: true });
    const log = new PassThrough();
    const stderr = Object.assign(new PassThrough(), { isTTY: true });
    let logged = '';
    let screen = '';
    log.on('data', (d) => (logged += d));
    stderr.on('data', (d) => (screen += d));
    onPrompt(stderr, () => input.write('yes\r'));
    expect(await confirmChanges({ input, output: log, stderr, autoApprove: false, question: 'Apply these changes?', command: 'apply' })).toBe(true);
    expect(screen).toContain("Apply these changes? Only 'yes' will be accepted: ");
    expect(logged).toBe('');
  });

  it('with no terminal to write to, asks in plain text without cursor codes', async () => {
    const input = Object.assign(new PassThrough(), { isTTY: true });
    const log = new PassThrough();
    let logged = '';
    log.on('data', (d) => (logged += d));
    onPrompt(log, () => input.write('yes\n'));
    expect(await confirmChanges({ input, output: log, stderr: new PassThrough(), autoApprove: false, question: 'Apply these changes?', command: 'apply' })).toBe(true);
    expect(logged).toBe("\nApply these changes? Only 'yes' will be accepted: ");
  });
});
