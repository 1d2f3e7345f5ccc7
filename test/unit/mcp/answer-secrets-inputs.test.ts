// The pieces of `dbform mcp` that decide what is said and what runs: the failure line taken from a
// command's stderr, the removal of secrets, the file inputs kept inside the served directory, and
// the client's name as a record shows it.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { answerOf, failureMessage } from '../../../src/mcp/answer.js';
import { callCommand } from '../../../src/mcp/call-record.js';
import { checkProjectFile, InputError } from '../../../src/mcp/inputs.js';
import { collectSecrets, redact } from '../../../src/mcp/secrets.js';
import { removeTempDirs, tempDir } from '../../support/temp-dir.js';

afterAll(removeTempDirs);

const run = (code: number, stdout: string, stderr: string) => ({ code, stdout, stderr });

describe('the answer of a tool', () => {
  it('is the stdout, byte for byte, for an answering exit code; warnings follow as a second text', () => {
    expect(answerOf(run(0, '{"a": 1}\n', ''), [0], 'plan')).toEqual({ content: [{ type: 'text', text: '{"a": 1}\n' }] });
    expect(answerOf(run(3, '{}\n', 'dbform.yaml:3:5: warning: x\n'), [0, 3], 'plan').content.map((c) => c.text)).toEqual(['{}\n', 'dbform.yaml:3:5: warning: x']);
  });

  it('is isError and the error line, with the indented lines that belong to it, for any other', () => {
    const blocked = 'Plan: 1 to delete\nerror: the plan is blocked; nothing was changed:\n  service.b deleteService: data-loss\n  service.c deleteService: data-loss\nnote: later\n';
    expect(answerOf(run(3, 'progress\n', blocked), [0], 'apply')).toEqual({
      content: [{ type: 'text', text: 'error: the plan is blocked; nothing was changed:\n  service.b deleteService: data-loss\n  service.c deleteService: data-loss' }],
      isError: true,
    });
  });

  it('keeps positioned config errors, drops warnings, notes and the bug hint', () => {
    const stderr = 'a.yaml:1:1: warning: unused\na.yaml:2:3: services.x: bad\nnote: something\nerror: unexpected failure: boom\n(this is a bug in dbform; run again with --debug for details)\n';
    expect(failureMessage(run(1, '', stderr), 'plan')).toBe('a.yaml:2:3: services.x: bad\nerror: unexpected failure: boom');
    expect(failureMessage(run(1, '', ''), 'plan')).toBe('error: dbform plan exited with code 1 and said nothing');
  });
});

describe('secrets', () => {
  it('are removed as written and as escaped in a JSON string, the longest first', () => {
    const secrets = ['pa"ss\\word', 'abcd', 'abcdef'];
    const text = JSON.stringify({ m: 'x pa"ss\\word y abcdef z abcd' });
    expect(redact(text, secrets)).toBe('{"m":"x (redacted) y (redacted) z (redacted)"}');
  });

  it('are the credentials of the environment, the password.from_env values and state URL passwords; short values are not searched for', async () => {
    const env = { DBFORM_API_KEY: 'key-123456', PGPASSWORD: 'abc', APP_PW: 'app-password', OTHER: 'not-a-secret' };
    const found = await collectSecrets({ env, passwordEnv: ['APP_PW'], stateUrls: ['postgres://u:p%40ss-word@h:5432/db', 'file:x.json'], keyFiles: [], pgpassFiles: [] });
    expect(found.sort()).toEqual(['app-password', 'key-123456', 'p%40ss-word', 'p@ss-word'].sort());
  });

  it('include the API key file and every password of the pgpass files', async () => {
    const dir = tempDir('dbform-mcp-secrets-');
    writeFileSync(join(dir, 'key'), 'file-api-key\n');
    writeFileSync(join(dir, 'pgpass'), '# comment\nh:5432:tsdb:tsdbadmin:first-pw\nh2:5432:tsdb:tsdbadmin:with\\:colon\n');
    const found = await collectSecrets({ env: {}, passwordEnv: [], stateUrls: [], keyFiles: [join(dir, 'key'), join(dir, 'absent')], pgpassFiles: [join(dir, 'pgpass')] });
    expect(found.sort()).toEqual(['file-api-key', 'first-pw', 'with:colon']);
  });
});

describe('file inputs', () => {
  it('must lie inside the served directory, also through a symlink', async () => {
    const root = tempDir('dbform-mcp-root-');
    const outside = tempDir('dbform-mcp-outside-');
    writeFileSync(join(outside, 'secret.yaml'), 'x: 1\n');
    mkdirSync(join(root, 'env'));
    writeFileSync(join(root, 'env', 'prod.yaml'), 'x: 1\n');
    symlinkSync(join(outside, 'secret.yaml'), join(root, 'link.yaml'));
    expect(await checkProjectFile('files', 'env/prod.yaml', root, ['.yaml'])).toBe('env/prod.yaml');
    expect(await checkProjectFile('files', join(root, 'env', 'prod.yaml'), root, ['.yaml'])).toBe(join(root, 'env', 'prod.yaml'));
    expect(await checkProjectFile('files', 'not-yet.yaml', root, ['.yaml'])).toBe('not-yet.yaml');
    for (const bad of ['link.yaml', '../x.yaml', join(outside, 'secret.yaml'), '.', 'env/prod.json', 'a\nb.yaml']) {
      await expect(checkProjectFile('files', bad, root, ['.yaml']), bad).rejects.toBeInstanceOf(InputError);
    }
  });
});

describe('the command of a record', () => {
  it('names the tool and the client on one line, whatever the client sent', () => {
    expect(callCommand('plan', { name: 'claude-ai', version: '0.1.0' })).toBe('dbform mcp plan (client claude-ai 0.1.0)');
    expect(callCommand('plan', { name: 'evil\nname\u0000', version: '' })).toBe('dbform mcp plan (client evil name ?)');
    expect(callCommand('logs', undefined)).toBe('dbform mcp logs (client unknown)');
  });
});
