// SPEC section 10 in the config: the top-level `state:` key and `${workspace}` in strings.
import { describe, expect, it } from 'vitest';
import { loadConfigInputs, loadConfigText } from '../../../src/config/index.js';

const base = 'version: 1\nproject_id: p1\n';

describe('config: state and workspace', () => {
  it('${workspace} expands to the workspace (default: "default"); $${workspace} stays literal', () => {
    const text = `${base}services:\n  app:\n    name: app-\${workspace}\n  lit:\n    name: "$\${workspace}"\n`;
    const named = loadConfigText(text, 'dbform.yaml', { env: {}, workspace: 'pr-42' });
    expect(named.ok && named.value.services.map((s) => s.name)).toEqual(['app-pr-42', '${workspace}']);
    const plain = loadConfigText(text, 'dbform.yaml', { env: {} });
    expect(plain.ok && plain.value.services[0]!.name).toBe('app-default');
  });

  it('state: is a string with ${env:...}, kept with its position', () => {
    const r = loadConfigText(`${base}state: postgres://dbform@\${env:DBH}:5432/infra\n`, 'dbform.yaml', { env: { DBH: 'db.internal' } });
    expect(r.ok && r.value.state).toEqual({ value: 'postgres://dbform@db.internal:5432/infra', source: { file: 'dbform.yaml', line: 3, col: 8 } });
  });

  it('state: must be a non-empty string, and files must agree on it', () => {
    const bad = loadConfigText(`${base}state: 5432\n`, 'dbform.yaml', { env: {} });
    expect(!bad.ok && bad.errors.map((e) => `${e.source?.line}:${e.path}`)).toEqual(['3:state']);
    const two = loadConfigInputs(
      [
        { file: 'a.yaml', content: `${base}state: file:a.json\n` },
        { file: 'b.yaml', content: `${base}state: file:b.json\n` },
      ],
      { env: {} },
    );
    expect(!two.ok && two.errors.map((e) => `${e.source?.file}:${e.source?.line}: ${e.message}`)).toEqual([
      'b.yaml:3: state differs from the one at a.yaml:3:8; all files must keep their state in one place',
    ]);
  });
});
