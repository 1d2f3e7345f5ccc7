// The HTTP front: control endpoints, stats, faults, routing, auth, bodies, errors, persistence.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { API_PREFIX, type ErrorDto } from '../api/dto.js';
import { authenticate } from './auth.js';
import { answerControl, controlMutates } from './control.js';
import { answerSeededLog } from './seeded-logs.js';
import type { Clock } from './clock.js';
import type { Dialect } from './dialect.js';
import { HttpError } from './errors.js';
import type { Fault, FaultInjector } from './faults.js';
import { readJsonBody } from './http-body.js';
import type { RouteMatch, Router } from './router.js';
import type { RequestStats } from './stats.js';
import type { World } from './store.js';

export interface ServerDeps {
  world: World;
  clock: Clock;
  dialect: Dialect;
  router: Router;
  stats: RequestStats;
  faults: FaultInjector;
  /** Persists the world (a no-op without a state file); awaited before a mutation is answered. */
  persist(): Promise<void>;
}

type Answer = { status: number; body?: unknown; headers?: Record<string, string> };

export function createRequestListener(deps: ServerDeps): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    handleRequest(deps, req, res).catch((err: unknown) => {
      if (!res.headersSent) send(res, errorAnswer(err));
      else res.destroy();
    });
  };
}

async function handleRequest(deps: ServerDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const method = req.method ?? 'GET';
  const url = new URL(req.url ?? '/', 'http://emulator.invalid');
  const path = url.pathname;
  if (path === '/__emulator' || path.startsWith('/__emulator/')) return sendControl(deps, req, res, method, path);
  if (!path.startsWith(`${API_PREFIX}/`)) {
    deps.stats.count(`${method} (unmatched)`);
    return send(res, errorAnswer(new HttpError(404, 'NOT_FOUND', `no such endpoint: the API lives under ${API_PREFIX}`)));
  }
  const match = deps.router.match(method, path.slice(API_PREFIX.length));
  deps.stats.count(match.kind === 'found' ? `${method} ${match.route.template}` : `${method} (unmatched)`);
  if (deps.faults.latencyMs > 0) await sleep(deps.faults.latencyMs);
  const fault = deps.faults.draw();
  const injected = fault === undefined ? undefined : faultError(fault, deps.clock);
  if (injected) return send(res, errorAnswer(injected));
  let answer: Answer;
  try {
    answer = await answerApi(deps, req, url, match);
  } catch (err) {
    answer = errorAnswer(err);
  }
  // A lost response: the work is done (and persisted), but the client never hears of it.
  if (fault === 'lost-response') return void req.socket.destroy();
  send(res, answer);
}

/** The error a fault answers with, before anything else is done; none for a lost response. */
function faultError(fault: Fault, clock: Clock): HttpError | undefined {
  switch (fault) {
    case 'error-500':
      return new HttpError(500, 'INTERNAL_ERROR', 'injected fault: internal error');
    case 'error-503':
      return new HttpError(503, 'SERVICE_UNAVAILABLE', 'injected fault: service unavailable');
    case 'throttle':
      return throttled(clock.scale(THROTTLE_MS));
    case 'lost-response':
      return undefined;
  }
}

/** SPEC section 6: a throttled request may come back after 1 s (at time scale 1). */
const THROTTLE_MS = 1000;

/**
 * The 429 of a throttled request. Its delay follows the time scale like every timeline, so a test
 * at time scale 0.01 is not held up for a real second per 429. `Retry-After` is delay-seconds, an
 * integer (RFC 9110, section 10.2.3): it is rounded up, so a client that reads only it never comes
 * back early; `Retry-After-Ms` carries the exact delay for a client that reads it (dbform does).
 */
function throttled(delayMs: number): HttpError {
  const seconds = Math.ceil(delayMs / 1000);
  const when = delayMs === 1000 ? '1 second' : `${delayMs} ms`;
  return new HttpError(429, 'RATE_LIMITED', `too many requests; retry after ${when}`, {
    headers: { 'retry-after': String(seconds), 'retry-after-ms': String(delayMs) },
  });
}

/** Route, auth, body, handler, persistence: the order docs/api-behaviour.md describes. */
async function answerApi(deps: ServerDeps, req: IncomingMessage, url: URL, match: RouteMatch): Promise<Answer> {
  const method = req.method ?? 'GET';
  if (match.kind === 'none') throw new HttpError(404, 'NOT_FOUND', `no such endpoint: ${method} ${url.pathname}`);
  if (match.kind === 'wrong-method') {
    const allow = match.allow.join(', ');
    throw new HttpError(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed on ${url.pathname} (allowed: ${allow})`, { headers: { allow } });
  }
  const principal = authenticate(deps.world, headerOf(req, 'authorization'), deps.dialect);
  const body = method === 'GET' || method === 'HEAD' ? undefined : await readJsonBody(req);
  const result = await match.route.handle({
    params: match.params,
    query: url.searchParams,
    body,
    principal,
    world: deps.world,
    clock: deps.clock,
    dialect: deps.dialect,
    now: deps.clock.now(),
  });
  if (result.mutated) await deps.persist();
  return result;
}

async function sendControl(deps: ServerDeps, req: IncomingMessage, res: ServerResponse, method: string, path: string): Promise<void> {
  let answer: Answer;
  try {
    answer = answerSeededLog(deps.world, method, req.url ?? path, deps.clock.now()) ?? answerControl(deps, method, path, deps.clock.now());
    if (controlMutates(path, answer)) await deps.persist();
  } catch (err) {
    answer = errorAnswer(err);
  }
  req.resume();
  send(res, answer);
}

function headerOf(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function errorAnswer(err: unknown): Answer {
  if (err instanceof HttpError) {
    const body: ErrorDto = { code: err.code, message: err.message };
    if (err.details !== undefined) body.details = err.details;
    return { status: err.status, body, headers: err.headers };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { status: 500, body: { code: 'INTERNAL_ERROR', message: `emulator failure: ${message}` } satisfies ErrorDto };
}

function send(res: ServerResponse, answer: Answer): void {
  const headers: Record<string, string | number> = { ...answer.headers };
  if (answer.body === undefined) {
    res.writeHead(answer.status, headers);
    res.end();
    return;
  }
  const text = JSON.stringify(answer.body);
  headers['content-type'] = 'application/json';
  headers['content-length'] = Buffer.byteLength(text);
  res.writeHead(answer.status, headers);
  res.end(text);
}
