import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../../src/emulator/index.js';
import { apiOf, expectError, useEmulator } from './helpers.js';
import { removeTempDirs, tempDir } from '../../support/temp-dir.js';

afterAll(removeTempDirs);

describe('projects and auth', () => {
  const em = useEmulator();
  const api = apiOf(em);

  it('GET /projects: a PAT sees its one project, an OAuth token all of its projects', async () => {
    const pat = await api('GET', '/projects');
    expect(pat.status).toBe(200);
    expect(pat.headers.get('content-type')).toBe('application/json');
    expect(pat.body).toEqual([{ id: 'proj-demo', name: 'Demo' }]);
    const oauth = await api('GET', '/projects', undefined, { token: 'demo-oauth' });
    expect(oauth.body).toEqual([
      { id: 'proj-demo', name: 'Demo' },
      { id: 'proj-other', name: 'Other' },
    ]);
  });

  it('401 for a missing, malformed or unknown token, without echoing it', async () => {
    const missing = await api('GET', '/projects', undefined, { token: null });
    expectError(missing, 401, 'UNAUTHORIZED');
    expect(missing.headers.get('www-authenticate')).toBe('Bearer');
    expectError(await api('GET', '/projects', undefined, { token: null, headers: { authorization: 'Basic abc' } }), 401, 'UNAUTHORIZED');
    const unknown = await api('GET', '/projects/proj-demo/services', undefined, { token: 'sekrit-token-123' });
    expectError(unknown, 401, 'UNAUTHORIZED');
    expect(unknown.text).not.toContain('sekrit-token-123');
    expectError(await api('POST', '/projects/proj-demo/vpcs', {}, { token: 'nope' }), 401, 'UNAUTHORIZED');
  });

  it('a PAT can neither see nor touch another project: 404 exactly like a project that does not exist', async () => {
    const oauth = (m: string, p: string, b?: unknown) => api(m, p, b, { token: 'demo-oauth' });
    const created = await oauth('POST', '/projects/proj-other/services', { name: 'other-db' });
    expect(created.status).toBe(202);
    const id = created.body.service_id;
    const vpc = await oauth('POST', '/projects/proj-other/vpcs', { name: 'v', cidr: '10.0.0.0/16', region_code: 'us-east-1' });
    expect(vpc.status).toBe(201);

    const hidden = await api('GET', '/projects/proj-other/services');
    const missing = await api('GET', '/projects/proj-nowhere/services');
    expectError(hidden, 404, 'NOT_FOUND');
    expectError(missing, 404, 'NOT_FOUND');
    expect(hidden.body.message.replace('proj-other', 'X')).toBe(missing.body.message.replace('proj-nowhere', 'X'));
    for (const [m, p, b] of [
      ['GET', `/projects/proj-other/services/${id}`],
      ['DELETE', `/projects/proj-other/services/${id}`],
      ['POST', `/projects/proj-other/services/${id}/stop`],
      ['POST', '/projects/proj-other/services', { name: 'sneaky' }],
      ['GET', '/projects/proj-other/vpcs'],
      ['DELETE', `/projects/proj-other/vpcs/${vpc.body.id}`],
      ['GET', `/projects/proj-other/services/${id}/logs`],
    ] as const) {
      expectError(await api(m, p, b), 404, 'NOT_FOUND');
    }
    // ...and nothing changed.
    const list = await oauth('GET', '/projects/proj-other/services');
    expect(list.body.map((s: any) => s.name)).toEqual(['other-db']);
    expect(list.body[0].status).toBe('READY');
    expect((await oauth('GET', '/projects/proj-other/vpcs')).body).toHaveLength(1);
    // A service ID of another project is not reachable through one's own project either.
    expectError(await api('GET', `/projects/proj-demo/services/${id}`), 404, 'NOT_FOUND');
  });

  it('OAuth tokens work on every project they belong to', async () => {
    expect((await api('GET', '/projects/proj-demo/services', undefined, { token: 'demo-oauth' })).status).toBe(200);
    expect((await api('GET', '/projects/proj-other/services', undefined, { token: 'demo-oauth' })).status).toBe(200);
  });
});

describe('seed', () => {
  const dir = tempDir('dbform-seed-');

  it('a seed object replaces the default world', async () => {
    const em = await startEmulator({
      seed: {
        projects: [
          { id: 'alpha', name: 'Alpha' },
          { id: 'beta', name: 'Beta' },
        ],
        tokens: [
          { token: 'pat-a', kind: 'pat', project_id: 'alpha' },
          { token: 'user', kind: 'oauth', project_ids: ['beta', 'alpha'] },
        ],
      },
    });
    try {
      const api = apiOf(() => em, 'pat-a');
      expect((await api('GET', '/projects')).body).toEqual([{ id: 'alpha', name: 'Alpha' }]);
      expect((await api('GET', '/projects', undefined, { token: 'user' })).body.map((p: any) => p.id)).toEqual(['beta', 'alpha']);
      expectError(await api('GET', '/projects', undefined, { token: 'demo-pat' }), 401, 'UNAUTHORIZED');
      expectError(await api('GET', '/projects/beta/vpcs'), 404, 'NOT_FOUND');
    } finally {
      await em.close();
    }
  });

  it('seed files may be YAML or JSON', async () => {
    const yamlFile = join(dir, 'seed.yaml');
    writeFileSync(yamlFile, 'projects:\n  - {id: p1, name: One}\ntokens:\n  - {token: t1, kind: pat, project_id: p1}\n');
    const jsonFile = join(dir, 'seed.json');
    writeFileSync(jsonFile, JSON.stringify({ projects: [{ id: 'p2', name: 'Two' }], tokens: [{ token: 't2', kind: 'oauth', project_ids: ['p2'] }] }));
    for (const [file, token, id] of [
      [yamlFile, 't1', 'p1'],
      [jsonFile, 't2', 'p2'],
    ]) {
      const em = await startEmulator({ seed: file });
      try {
        expect((await apiOf(() => em, token)('GET', '/projects')).body).toEqual([{ id, name: id === 'p1' ? 'One' : 'Two' }]);
      } finally {
        await em.close();
      }
    }
  });

  it('a bad seed file is an error naming the file and the field', async () => {
    const cases: Array<[string, RegExp]> = [
      ['projects: [}', /seed file .*bad\.yaml is not valid YAML or JSON: .*[^:]$/],
      ['projects:\n[1, 2]\n', /seed file .*bad\.yaml is not valid YAML or JSON: .*line 2, column 1$/],
      ['tokens: []\n', /bad\.yaml: projects: must be a non-empty list/],
      ['projects: [{id: p1}]\ntokens: []\n', /bad\.yaml: projects\[0\]\.name: must be a string/],
      ['projects: [{id: p1, name: A}]\ntokens: [{token: t, kind: pat, project_id: p9}]\n', /tokens\[0\]\.project_id: unknown project "p9"/],
      ['projects: [{id: p1, name: A}]\ntokens: [{token: t, kind: admin}]\n', /tokens\[0\]\.kind: must be "pat" or "oauth"/],
      ['projects: [{id: p1, name: A}]\ntokens: [{token: t, kind: oauth, project_ids: [p1, zz]}]\n', /tokens\[0\]\.project_ids\[1\]: unknown project "zz"/],
      ['projects: [{id: p1, name: A}, {id: p1, name: B}]\ntokens: []\n', /projects\[1\]\.id: duplicate project id/],
    ];
    const file = join(dir, 'bad.yaml');
    for (const [text, message] of cases) {
      writeFileSync(file, text);
      await expect(startEmulator({ seed: file }), text).rejects.toThrow(message);
    }
    await expect(startEmulator({ seed: join(dir, 'missing.yaml') })).rejects.toThrow(/cannot read seed file .*missing\.yaml: ENOENT/);
  });
});
