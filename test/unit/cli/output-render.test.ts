import { describe, expect, it } from 'vitest';
import type { Connection } from '../../../src/app/connections.js';
import { renderGithubOutput, renderOutputEnv, shellValue } from '../../../src/cli/output/render-output.js';

const conn = (address: string, key: string, fields: Array<[string, string | number]>): Connection => ({
  address,
  key,
  fields: fields.map(([name, value]) => ({ name, value })),
  logins: [],
});

describe('dbform output formats', () => {
  it('quotes a value for a shell only when the shell would interpret it', () => {
    expect(shellValue('postgres://tsdbadmin@h.example:5432/tsdb?sslmode=require')).toBe('postgres://tsdbadmin@h.example:5432/tsdb?sslmode=require');
    expect(shellValue(5432)).toBe('5432');
    expect(shellValue("it's $HOME `x`")).toBe(`'it'\\''s $HOME \`x\`'`);
    expect(shellValue('a b')).toBe(`'a b'`);
  });

  it('refuses two addresses that would set the same environment variable', () => {
    const a = conn('service.app', 'app', [['pooler_host', 'p']]);
    const b = conn('service.app-pooler', 'app-pooler', [['host', 'h']]);
    expect(() => renderOutputEnv([a, b])).toThrow(
      'service.app and service.app-pooler would both set DBFORM_APP_POOLER_HOST; rename one of the keys, or ask for one address at a time (dbform output service.app-pooler)',
    );
    // GitHub output names keep the key's '-': no clash there.
    expect(renderGithubOutput([a, b])).toBe('app_pooler_host=p\napp-pooler_host=h\n');
  });

  it("writes a value with a line break in the runner's delimiter form, so it cannot forge another output", () => {
    const text = renderGithubOutput([conn('service.app', 'app', [['host', 'evil\nother_host=x']])], () => 'EOF_1');
    expect(text).toBe('app_host<<EOF_1\nevil\nother_host=x\nEOF_1\n');
  });
});
