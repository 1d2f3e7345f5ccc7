// SPEC section 13 at the config's edge: `${env:NAME}` never reads a credential outside `password:`
// (dbform's own, or a variable a password.from_env names), and project_id is a plain ID. Every
// refusal is one positioned line that names the variable, never its value.
import { describe, expect, it } from 'vitest';
import { loadConfigInputs, loadConfigText } from '../../../src/config/index.js';
import { formatDiagnostic, type Diagnostic } from '../../../src/model/diagnostics.js';

const HEAD = 'version: 1\nproject_id: proj-demo\n';
const SECRET = 'hunter2-sekrit-value';

function diagnosticsOf(text: string, env: NodeJS.ProcessEnv): Diagnostic[] {
  const result = loadConfigText(text, 'dbform.yaml', { env });
  return result.ok ? result.warnings : result.errors;
}

/** Nothing the loader says, in any field of any diagnostic, holds the secret. */
function expectNoSecret(diagnostics: readonly Diagnostic[]): void {
  expect(JSON.stringify(diagnostics)).not.toContain(SECRET);
}

describe('${env:NAME} refuses credentials outside password:', () => {
  it.each(['DBFORM_API_KEY', 'DBFORM_ACCESS_KEY', 'DBFORM_SECRET_KEY', 'PGPASSWORD'])('refuses %s in a service name, at its position, without its value', (name) => {
    const text = `${HEAD}services:\n  db:\n    name: "app-\${env:${name}}"\n`;
    const diagnostics = diagnosticsOf(text, { [name]: SECRET });
    expect(diagnostics.map(formatDiagnostic)).toEqual([
      expect.stringMatching(new RegExp(`^dbform\\.yaml:5:11: services\\.db\\.name: \\$\\{env:${name}\\} reads a credential, .+; a credential is never a config value`)),
    ]);
    expect(diagnostics[0]).toMatchObject({ severity: 'error', code: 'credential-env', path: 'services.db.name' });
    expectNoSecret(diagnostics);
  });

  it('refuses a credential that is not set as well (the reference is the mistake, not its value)', () => {
    const diagnostics = diagnosticsOf(`${HEAD}services:\n  db:\n    region_code: \${env:DBFORM_API_KEY}\n`, {});
    expect(diagnostics.map((d) => [d.code, d.source?.line, d.source?.col])).toEqual([['credential-env', 5, 18]]);
  });

  it('refuses a variable a password.from_env names, anywhere else, and says whose password it is', () => {
    const text = `${HEAD}services:\n  db:\n    password: { from_env: DB_PW, version: 1 }\n  web:\n    name: web-\${env:DB_PW}\n`;
    const diagnostics = diagnosticsOf(text, { DB_PW: SECRET });
    expect(diagnostics.map(formatDiagnostic)).toEqual([
      'dbform.yaml:7:11: services.web.name: ${env:DB_PW} reads a credential, the password of services.db, by its password.from_env; a credential is never a config value, where plans and logs would show it',
    ]);
    expectNoSecret(diagnostics);
  });

  it('names every credential one string reads, once', () => {
    const text = `${HEAD}state: "postgres://u:\${env:PGPASSWORD}@h/db?x=\${env:DBFORM_SECRET_KEY}&y=\${env:PGPASSWORD}"\n`;
    const [d, ...rest] = diagnosticsOf(text, { PGPASSWORD: SECRET, DBFORM_SECRET_KEY: SECRET });
    expect(rest).toEqual([]);
    expect(d?.message).toMatch(/^state: \$\{env:PGPASSWORD\} and \$\{env:DBFORM_SECRET_KEY\} read credentials \(PGPASSWORD: .+; DBFORM_SECRET_KEY: .+\)/);
    expect(d?.source).toMatchObject({ line: 3, col: 8 });
  });

  it('refuses a password variable of another file given with -f', () => {
    const a = { file: 'a.yaml', content: `${HEAD}services:\n  db:\n    password: { from_env: DB_PW }\n` };
    const b = { file: 'b.yaml', content: `${HEAD}vpcs:\n  main:\n    cidr: 10.0.0.0/16\n    region_code: us-east-1\n    name: \${env:DB_PW}\n` };
    const result = loadConfigInputs([a, b], { env: { DB_PW: SECRET } });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((d) => [d.source?.file, d.source?.line, d.code])).toEqual([['b.yaml', 7, 'credential-env']]);
    expectNoSecret(result.errors);
  });

  it('refuses it where an anchor written in an x- block lands', () => {
    const text = `${HEAD}x-name: &n "\${env:DBFORM_API_KEY}"\nservices:\n  db:\n    name: *n\n`;
    const diagnostics = diagnosticsOf(text, { DBFORM_API_KEY: SECRET });
    expect(diagnostics.map((d) => [d.code, d.path])).toEqual([['credential-env', 'services.db.name']]);
    expectNoSecret(diagnostics);
  });

  it('leaves password: itself alone, and reads any other variable as before', () => {
    const text = `${HEAD}services:\n  db:\n    name: \${env:DB_NAME}\n    password: { from_env: DB_PW }\n`;
    const result = loadConfigText(text, 'dbform.yaml', { env: { DB_PW: SECRET, DB_NAME: 'orders' } });
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.value.services[0]).toMatchObject({ name: 'orders', password: { fromEnv: 'DB_PW', version: 1 } });
  });
});

describe('project_id is checked at the edge', () => {
  it.each(['proj-demo', 'P_1', '0', 'a'.repeat(128)])('accepts %s', (id) => {
    expect(loadConfigText(`version: 1\nproject_id: "${id}"\n`, 'dbform.yaml').ok).toBe(true);
  });

  it.each([
    ['..', '".."'],
    ['a/b', '"a/b"'],
    ['a\\u0000b', '"a\\u0000b"'],
    ['-x', '"-x"'],
    ['x'.repeat(129), `"${'x'.repeat(56)}..."`],
    ['x'.repeat(4000), `"${'x'.repeat(56)}..."`],
  ])('refuses %s at its position, quoted safely', (written, shown) => {
    const diagnostics = diagnosticsOf(`version: 1\nproject_id: "${written}"\n`, {});
    expect(diagnostics.map(formatDiagnostic)).toEqual([
      `dbform.yaml:2:13: project_id: ${shown} is not a project ID; a project ID is 1-128 letters, digits, _ or -, starting with a letter or digit`,
    ]);
    expect(diagnostics[0]?.code).toBe('project-id');
  });

  it('checks the value ${env:...} gave', () => {
    const diagnostics = diagnosticsOf('version: 1\nproject_id: ${env:PROJECT}\n', { PROJECT: '../services' });
    expect(diagnostics.map((d) => [d.code, d.source?.line, d.source?.col])).toEqual([['project-id', 2, 13]]);
  });
});
