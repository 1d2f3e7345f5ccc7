// Answers the emulator never gives (it is a faithful API): a tiny misbehaving server over real HTTP
// shows that unusable bodies become clear errors, never parse crashes.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { AmbiguousCreateError, ApiError } from '../../../src/api/errors.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
let handler: Handler = (_req, res) => res.end();
let server: Server;
let base: string;
const seen: IncomingMessage[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req);
    handler(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/public/api/v1`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const client = () => new ApiClient({ baseUrl: base, token: 'tok', retry: { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 10 } });

async function failure(p: Promise<unknown>): Promise<ApiError> {
  const err = await p.catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

describe('unusable answers', () => {
  it('sends the token, a JSON accept header and the dbform User-Agent', async () => {
    handler = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    seen.length = 0;
    const api = client();
    expect(await api.listProjects()).toEqual([]);
    expect(seen[0]!.headers['user-agent']).toMatch(/^dbform\/\d+\.\d+\.\d+/);
    expect(seen[0]!.headers.authorization).toBe('Bearer tok');
    expect(seen[0]!.url).toBe('/public/api/v1/projects');
    await api.close();
  });

  it('a 200 with an HTML body is a clear error', async () => {
    handler = (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Welcome to nginx</body></html>');
    const api = client();
    const err = await failure(api.listProjects());
    expect(err.code).toBe('INVALID_RESPONSE');
    expect(err.message).toBe('listProjects: the API answered 200 with a body that is not JSON (truncated or not the API?): "<html><body>Welcome to nginx</body></html>"');
    await api.close();
  });

  it('a body cut short by the server is a connection error, retried then reported', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
      res.write('[{"id": "proj');
      setTimeout(() => res.destroy(), 5);
    };
    seen.length = 0;
    const api = client();
    const err = await failure(api.listProjects());
    expect(seen).toHaveLength(3);
    expect(err.status).toBe(0);
    expect(err.message).toMatch(/^listProjects: the connection to the API at http:\/\/127\.0\.0\.1:\d+\/public\/api\/v1 failed \(\w+: .+\) \(3 attempts\)$/);
    await api.close();
  });

  it('a proxy error page is reported with its status and an excerpt', async () => {
    handler = (_req, res) => res.writeHead(502, { 'content-type': 'text/html' }).end('<html>502 Bad Gateway</html>');
    const api = client();
    const err = await failure(api.getService('p', 's'));
    expect(err.status).toBe(502);
    expect(err.message).toBe('getService on service s failed after 3 attempts: the error body is not JSON: "<html>502 Bad Gateway</html>" (502 HTTP_502)');
    await api.close();
  });

  it('JSON of the wrong shape is a clear error', async () => {
    handler = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"services": []}');
    const api = client();
    expect((await failure(api.listServices('p'))).message).toBe('listServices: the API answered with an unusable body (expected a JSON array)');
    handler = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('[{"name": "no id"}]');
    expect((await failure(api.listServices('p'))).message).toBe('listServices: the API answered with an unusable body (an item without "service_id")');
    await api.close();
  });

  it('a create accepted with an unreadable answer is ambiguous (the new ID is unknown)', async () => {
    handler = (_req, res) => res.writeHead(201, { 'content-type': 'application/json' }).end('{"id": "12');
    const api = client();
    const err = await api.createVPC('p', { name: 'v', cidr: '10.0.0.0/16', region_code: 'us-east-1' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AmbiguousCreateError);
    expect(err).toMatchObject({ op: 'createVPC', requestName: 'v' });
    expect(((err as AmbiguousCreateError).cause as ApiError).code).toBe('INVALID_RESPONSE');
    handler = (_req, res) => res.writeHead(202, { 'content-type': 'application/json' }).end('[]');
    const err2 = await api.createService('p', { name: 's' }).catch((e: unknown) => e);
    expect(err2).toBeInstanceOf(AmbiguousCreateError);
    await api.close();
  });

  it('an empty 2xx body is valid for every mutation (SPEC section 12); a create without one has an unknown outcome', async () => {
    handler = (_req, res) => res.writeHead(202).end();
    const api = client();
    await expect(api.deleteService('p', 's')).resolves.toBeUndefined();
    await expect(api.deleteReplicaSet('p', 's', 'r')).resolves.toBeUndefined();
    await expect(api.startService('p', 's')).resolves.toBeUndefined();
    await expect(api.stopService('p', 's')).resolves.toBeUndefined();
    await expect(api.resizeService('p', 's', { cpu_millis: '1000', memory_gbs: '4' })).resolves.toBeUndefined();
    await expect(api.setHAReplica('p', 's', { replica_count: 1, sync_replica_count: 0 })).resolves.toBeUndefined();
    await expect(api.attachServiceToVPC('p', 's', { vpc_id: '1' })).resolves.toEqual({});
    await expect(api.detachServiceFromVPC('p', 's', { vpc_id: '1' })).resolves.toEqual({});
    await expect(api.resizeReplicaSet('p', 's', 'r', { cpu_millis: '1000', memory_gbs: '4' })).resolves.toEqual({});
    handler = (_req, res) => res.writeHead(200).end();
    for (const call of [() => api.renameVPC('p', '1', { name: 'n' }), () => api.setEnvironment('p', 's', { environment: 'DEV' }), () => api.enableReplicaPooler('p', 's', 'r')]) {
      await expect(call()).resolves.toEqual({});
    }
    handler = (_req, res) => res.writeHead(202).end();
    const err = await api.createReplicaSet('p', 's', { name: 'r', cpu_millis: 500, memory_gbs: 2, nodes: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AmbiguousCreateError);
    expect(err).toMatchObject({ op: 'createReplicaSet', requestName: 'r' });
    // A read without a body is never taken as "nothing exists".
    handler = (_req, res) => res.writeHead(200).end();
    expect((await failure(api.listServices('p'))).code).toBe('INVALID_RESPONSE');
    await api.close();
  });

  it('an empty 2xx body is fine where none is expected', async () => {
    handler = (_req, res) => res.writeHead(204).end();
    const api = client();
    await expect(api.deleteVPC('p', '1')).resolves.toBeUndefined();
    handler = (_req, res) => res.writeHead(200).end();
    await expect(api.enablePooler('p', 's')).resolves.toEqual({});
    await api.close();
  });
});
