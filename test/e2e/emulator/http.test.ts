import { describe, expect, it } from 'vitest';
import { apiOf, expectError, P, useEmulator } from './helpers.js';

describe('HTTP layer: bodies, routes, stats, concurrency', () => {
  const em = useEmulator({ timeScale: 0 });
  const api = apiOf(em);

  it('malformed JSON is 400 BAD_REQUEST; a non-JSON content type on a body is 415', async () => {
    const bad = expectError(await api('POST', `${P}/services`, undefined, { raw: '{"name": "x",' }), 400, 'BAD_REQUEST');
    expect(bad.message).toContain('malformed JSON');
    const res = await fetch(`${em().url}${P}/services`, {
      method: 'POST',
      headers: { authorization: 'Bearer demo-pat', 'content-type': 'text/plain' },
      body: 'name=x',
    });
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
    const noType = await fetch(`${em().url}${P}/services`, {
      method: 'POST',
      headers: { authorization: 'Bearer demo-pat' },
      body: new Uint8Array(Buffer.from('{"name":"x"}')),
    });
    expect(noType.status).toBe(415);
    const charset = await api('POST', `${P}/services`, undefined, { raw: '{"name":"ok"}', headers: { 'content-type': 'application/json; charset=utf-8' } });
    expect(charset.status).toBe(202);
    // A POST without body needs no content type.
    const id = charset.body.service_id;
    expect((await fetch(`${em().url}${P}/services/${id}/enablePooler`, { method: 'POST', headers: { authorization: 'Bearer demo-pat' } })).status).toBe(200);
  });

  it('bodies over 1 MiB are 413 PAYLOAD_TOO_LARGE, and nothing is created', async () => {
    const before = (await api('GET', `${P}/services`)).body.length;
    const big = JSON.stringify({ name: 'big', padding: 'x'.repeat(1024 * 1024) });
    expectError(await api('POST', `${P}/services`, undefined, { raw: big }), 413, 'PAYLOAD_TOO_LARGE');
    expect((await api('GET', `${P}/services`)).body.length).toBe(before);
    // Just under the limit is fine.
    const fits = JSON.stringify({ name: 'fits', padding: 'x'.repeat(1024 * 1024 - 100) });
    expect((await api('POST', `${P}/services`, undefined, { raw: fits })).status).toBe(202);
  });

  it('unknown routes are 404 and wrong methods 405 with Allow, always with the JSON error body', async () => {
    expectError(await api('GET', '/nothing/here'), 404, 'NOT_FOUND');
    expectError(await api('GET', `${P}/services/abc/unknownAction`), 404, 'NOT_FOUND');
    expectError(await api('GET', '/projects/'), 404, 'NOT_FOUND');
    const outside = await fetch(`${em().origin}/v2/projects`);
    expect(outside.status).toBe(404);
    expect(outside.headers.get('content-type')).toBe('application/json');
    expect((await outside.json()).code).toBe('NOT_FOUND');

    const put = await api('PUT', `${P}/services`, { name: 'x' });
    expectError(put, 405, 'METHOD_NOT_ALLOWED');
    expect(put.headers.get('allow')).toBe('GET, POST');
    const delProjects = await api('DELETE', '/projects');
    expectError(delProjects, 405, 'METHOD_NOT_ALLOWED');
    expect(delProjects.headers.get('allow')).toBe('GET');
    const getStart = await api('GET', `${P}/services/abc/start`);
    expectError(getStart, 405, 'METHOD_NOT_ALLOWED');
    expect(getStart.headers.get('allow')).toBe('POST');
    const svc = await api('PATCH', `${P}/services/abc`, {});
    expect(svc.headers.get('allow')).toBe('DELETE, GET');
  });

  it('stats count requests per "<METHOD> <route template>", unmatched ones apart, and reset clears them', async () => {
    const reset = await fetch(`${em().origin}/__emulator/reset`, { method: 'POST' });
    expect(reset.status).toBe(204);
    const id = (await api('POST', `${P}/services`, { name: 'counted' })).body.service_id;
    await api('GET', `${P}/services`);
    await api('GET', `${P}/services`);
    await api('POST', `${P}/services/${id}/resize`, { cpu_millis: '500', memory_gbs: '2' });
    await api('GET', '/projects', undefined, { token: 'wrong' });
    await api('GET', '/no/such/route');
    await api('PUT', '/projects');
    const vpc = (await api('POST', `${P}/vpcs`, { name: 'v', cidr: '10.0.0.0/16', region_code: 'us-east-1' })).body.id;
    await api('GET', `${P}/vpcs/${vpc}/peerings`);
    const stats = await (await fetch(`${em().origin}/__emulator/stats`)).json();
    expect(stats).toEqual({
      requests: {
        'GET (unmatched)': 1,
        'GET /projects': 1,
        'GET /projects/{project_id}/services': 2,
        'GET /projects/{project_id}/vpcs/{vpc_id}/peerings': 1,
        'POST /projects/{project_id}/services': 1,
        'POST /projects/{project_id}/services/{service_id}/resize': 1,
        'POST /projects/{project_id}/vpcs': 1,
        'PUT (unmatched)': 1,
      },
      total: 9,
    });
    expect(em().stats()).toEqual(stats);
    em().resetStats();
    expect(em().stats()).toEqual({ requests: {}, total: 0 });
    // The world is untouched by a reset.
    expect((await api('GET', `${P}/services/${id}`)).status).toBe(200);
  });

  it('control endpoints need no auth and answer 404/405 with JSON for anything else', async () => {
    expect((await fetch(`${em().origin}/__emulator/stats`)).status).toBe(200);
    const wrong = await fetch(`${em().origin}/__emulator/stats`, { method: 'POST' });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET');
    const unknown = await fetch(`${em().origin}/__emulator/nope`);
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).code).toBe('NOT_FOUND');
  });

  it('answers 200 concurrent requests correctly', async () => {
    const creates = Array.from({ length: 100 }, (_, i) => api('POST', `${P}/services`, { name: `par-${i}` }));
    const reads = Array.from({ length: 100 }, () => api('GET', '/projects'));
    const [created, read] = await Promise.all([Promise.all(creates), Promise.all(reads)]);
    expect(created.every((r) => r.status === 202)).toBe(true);
    expect(new Set(created.map((r) => r.body.service_id)).size).toBe(100);
    expect(read.every((r) => r.status === 200 && r.body[0].id === 'proj-demo')).toBe(true);
    const names = (await api('GET', `${P}/services`)).body.map((s: any) => s.name);
    for (let i = 0; i < 100; i++) expect(names).toContain(`par-${i}`);
  });
});
