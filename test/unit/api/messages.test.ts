import { describe, expect, it } from 'vitest';
import { parseBaseUrl, isLoopback } from '../../../src/api/base-url.js';
import { linesOf, nextCursorOf } from '../../../src/api/logs.js';
import { describeHttpError, describeTarget, readErrorBody, scrub } from '../../../src/api/messages.js';
import * as verify from '../../../src/api/verify.js';
import type { ServiceDto } from '../../../src/api/dto.js';

describe('describeTarget', () => {
  it.each([
    ['/projects', 'the project list'],
    ['/projects/p1/services', 'project p1'],
    ['/projects/p1/vpcs', 'project p1'],
    ['/projects/p1/vpcs/123/rename', 'VPC 123'],
    ['/projects/p1/vpcs/123/peerings', 'VPC 123'],
    ['/projects/p1/vpcs/123/peerings/9', 'peering 9 of VPC 123'],
    ['/projects/p1/services/s1/resize', 'service s1'],
    ['/projects/p1/services/s1/replicaSets/r1/resize', 'replica set r1 of service s1'],
    ['/projects/p1/services/s1/logs?cursor=x', 'service s1'],
  ])('%s -> %s', (path, words) => expect(describeTarget(path)).toBe(words));
});

describe('error messages', () => {
  const facts = (status: number, path: string, code: string, message: string) => ({ op: 'op', path, status, error: { code, message }, attempts: 1 });

  it('401 says the token was rejected and where to set it', () => {
    const m = describeHttpError(facts(401, '/projects', 'UNAUTHORIZED', 'invalid token'));
    expect(m).toMatch(/rejected the token/);
    expect(m).toMatch(/DBFORM_API_KEY/);
  });

  it('404 on a project path says the project does not exist or is not visible', () => {
    expect(describeHttpError({ ...facts(404, '/projects/nope/services', 'NOT_FOUND', 'project not found'), op: 'listServices' })).toBe(
      'listServices: project "nope" does not exist or the token cannot see it (404 NOT_FOUND: project not found)',
    );
  });

  it('404 on the project list says the base URL is probably wrong', () => {
    expect(describeHttpError({ ...facts(404, '/projects', 'NOT_FOUND', 'no route'), op: 'listProjects' })).toBe(
      "listProjects: the project list was not found (404 NOT_FOUND: no route); is --api-url (DBFORM_API_URL) the API's base URL, ending in /public/api/v1?",
    );
  });

  it('409 carries the API message and the resource', () => {
    expect(describeHttpError({ ...facts(409, '/projects/p/services/s1/start', 'CONFLICT', 'service is not PAUSED'), op: 'startService' })).toBe(
      'startService on service s1 was refused: service is not PAUSED (409 CONFLICT)',
    );
  });

  it('reads non-JSON and empty error bodies without crashing', () => {
    expect(readErrorBody('<html>Bad gateway</html>', 502)).toEqual({ code: 'HTTP_502', message: 'the error body is not JSON: "<html>Bad gateway</html>"' });
    expect(readErrorBody('', 500)).toEqual({ code: 'HTTP_500', message: 'no error body' });
    expect(readErrorBody('{"code":"CONFLICT","message":"m","details":"d"}', 409)).toEqual({ code: 'CONFLICT', message: 'm', details: 'd' });
    expect(readErrorBody('{"code":', 500).code).toBe('HTTP_500');
  });

  it('scrubs every occurrence of each secret', () => {
    expect(scrub('token abc and abc again; pw xyz', ['abc', 'xyz', ''])).toBe('token [redacted] and [redacted] again; pw [redacted]');
  });
});

describe('parseBaseUrl', () => {
  it('accepts https anywhere and http on loopback, adding the API prefix to a bare origin', () => {
    expect(parseBaseUrl('https://api.example.com/public/api/v1/', false).href).toBe('https://api.example.com/public/api/v1');
    expect(parseBaseUrl('http://127.0.0.1:4010', false).href).toBe('http://127.0.0.1:4010/public/api/v1');
    expect(parseBaseUrl('http://localhost:4010/public/api/v1', false).pathname).toBe('/public/api/v1');
    expect(parseBaseUrl('http://[::1]:4010/public/api/v1', false).hostname).toBe('[::1]');
  });

  it('refuses plain http to other hosts unless allowed, and nonsense URLs', () => {
    expect(() => parseBaseUrl('http://api.example.com/public/api/v1', false)).toThrow(/plain http.*--allow-insecure-http/);
    expect(parseBaseUrl('http://api.example.com/public/api/v1', true).host).toBe('api.example.com');
    expect(() => parseBaseUrl('not a url', false)).toThrow(/not a valid URL/);
    expect(() => parseBaseUrl('ftp://x/y', false)).toThrow(/https/);
    expect(() => parseBaseUrl('https://user:pw@x/y', false)).toThrow(/credentials/);
  });

  it('knows loopback names', () => {
    expect(['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]', 'a.localhost'].every(isLoopback)).toBe(true);
    expect(['10.0.0.1', 'example.com', '128.0.0.1', 'localhost.example.com'].some(isLoopback)).toBe(false);
  });
});

describe('logs paging helpers', () => {
  it('prefers last_cursor then lastCursor', () => {
    expect(nextCursorOf({ logs: [], last_cursor: 'a', lastCursor: 'b' })).toBe('a');
    expect(nextCursorOf({ logs: [], lastCursor: 'b' })).toBe('b');
    expect(nextCursorOf({ logs: [] })).toBeUndefined();
    expect(nextCursorOf({ logs: [], last_cursor: '' })).toBeUndefined();
  });

  it('uses entries, else the legacy logs strings', () => {
    expect(linesOf({ logs: ['x'], entries: [{ message: 'x', severity: 'LOG', timestamp: 't' }] })).toEqual([{ message: 'x', severity: 'LOG', timestamp: 't' }]);
    expect(linesOf({ logs: ['a', 'b'] })).toEqual([{ message: 'a' }, { message: 'b' }]);
  });
});

describe('verification after an unknown outcome', () => {
  const svc = (over: Partial<ServiceDto>): ServiceDto =>
    ({ service_id: 's', status: 'READY', resources: [{ spec: { cpu_millis: 1000, memory_gbs: 4 } }], ...over }) as ServiceDto;

  it('start/stop/delete accept the transitional and final states only', () => {
    expect(verify.showsStart(svc({ status: 'RESUMING' }))).toBe(true);
    expect(verify.showsStart(svc({ status: 'PAUSED' }))).toBe(false);
    expect(verify.showsStop(svc({ status: 'PAUSING' }))).toBe(true);
    expect(verify.showsStop(svc({ status: 'READY' }))).toBe(false);
    expect(verify.showsDeletion(undefined)).toBe(true);
    expect(verify.showsDeletion(svc({ status: 'DELETING' }))).toBe(true);
    expect(verify.showsDeletion(svc({ status: 'READY' }))).toBe(false);
  });

  it('resize and setHA are confirmed only by the requested values: UPGRADING may be another change, which refused this one', () => {
    expect(verify.showsServiceResize(svc({ status: 'UPGRADING' }), { cpu_millis: '2000', memory_gbs: '8' })).toBe(false);
    expect(verify.showsServiceResize(svc({ status: 'UPGRADING' }), { cpu_millis: '1000', memory_gbs: '4' })).toBe(true);
    expect(verify.showsServiceResize(svc({}), { cpu_millis: '1000', memory_gbs: '4' })).toBe(true);
    expect(verify.showsHa(svc({ status: 'UPGRADING', ha_replicas: { replica_count: 0 } }), { replica_count: 1, sync_replica_count: 0 })).toBe(false);
    expect(verify.showsServiceResize(svc({}), { cpu_millis: '2000', memory_gbs: '8' })).toBe(false);
    expect(verify.showsHa(svc({ ha_replicas: { replica_count: 2, sync_replica_count: 1 } }), { replica_count: 2, sync_replica_count: 1 })).toBe(true);
    expect(verify.showsHa(svc({ ha_replicas: { replica_count: 1 } }), { replica_count: 2 })).toBe(false);
    // An omitted count means 0.
    expect(verify.showsHa(svc({ ha_replicas: { replica_count: 2, sync_replica_count: 1 } }), { replica_count: 2 })).toBe(false);
    expect(verify.showsHa(svc({ ha_replicas: { replica_count: 2, sync_replica_count: 0 } }), { replica_count: 2 })).toBe(true);
  });

  it('attach and detach are confirmed only by the end state: not attached yet (or still attached) may be a refusal', () => {
    expect(verify.showsAttach(svc({ vpc_endpoint: { vpc_id: '1' } }), '1')).toBe(true);
    expect(verify.showsAttach(svc({}), '1')).toBe(false);
    expect(verify.showsAttach(svc({ vpcEndpoint: { vpc_id: '2' } }), '1')).toBe(false);
    expect(verify.showsDetach(svc({}), '1')).toBe(true);
    expect(verify.showsDetach(svc({ vpc_endpoint: { vpc_id: '1' } }), '1')).toBe(false);
    expect(verify.showsDetach(svc({ vpc_endpoint: { vpc_id: '2' } }), '1')).toBe(false);
  });

  it('replica set resize and deletion', () => {
    const rs = { id: 'r', cpu_millis: 1000, memory_gbs: 4, name: 'n', nodes: 1, status: 'active' };
    expect(verify.showsReplicaSetResize(rs, { cpu_millis: '1000', memory_gbs: '4' })).toBe(true);
    expect(verify.showsReplicaSetResize(rs, { cpu_millis: '2000', memory_gbs: '8' })).toBe(false);
    expect(verify.showsReplicaSetResize({ ...rs, status: 'resizing' }, { cpu_millis: '2000', memory_gbs: '8' })).toBe(false);
    expect(verify.showsReplicaSetResize({ ...rs, status: 'resizing' }, { cpu_millis: '1000', memory_gbs: '4' })).toBe(true);
    expect(verify.showsReplicaSetDeletion(undefined)).toBe(true);
    expect(verify.showsReplicaSetDeletion(rs)).toBe(false);
  });
});
