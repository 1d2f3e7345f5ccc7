// Plain HTTP helpers for the emulator tests: global fetch over real loopback HTTP, no client code.
import { afterAll, beforeAll } from 'vitest';
import { startEmulator, type EmulatorHandle, type EmulatorOptions } from '../../../src/emulator/index.js';

export interface Answer<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface CallOptions {
  token?: string | null;
  headers?: Record<string, string>;
  /** Sent as is instead of JSON.stringify(body). */
  raw?: string | Buffer;
}

/** A tiny API caller bound to an emulator and a token (default demo-pat). */
export function apiOf(em: () => EmulatorHandle, defaultToken = 'demo-pat') {
  return async function call<T = any>(method: string, path: string, body?: unknown, opts: CallOptions = {}): Promise<Answer<T>> {
    const token = opts.token === undefined ? defaultToken : opts.token;
    const headers: Record<string, string> = { ...(token === null ? {} : { authorization: `Bearer ${token}` }) };
    let payload: string | Buffer | undefined = opts.raw;
    if (payload === undefined && body !== undefined) payload = JSON.stringify(body);
    if (payload !== undefined) headers['content-type'] = 'application/json';
    Object.assign(headers, opts.headers);
    const res = await fetch(em().url + path, { method, headers, body: payload });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, body: text === '' ? undefined : JSON.parse(text) };
  };
}

/** Starts one emulator for the file (beforeAll) and closes it (afterAll). */
export function useEmulator(options: EmulatorOptions = {}): () => EmulatorHandle {
  let em: EmulatorHandle | undefined;
  beforeAll(async () => {
    em = await startEmulator({ timeScale: 0, ...options });
  });
  afterAll(async () => {
    await em?.close();
  });
  return () => em!;
}

/** A clock the test moves by hand: timelines are then exact at time scale 1. */
export function manualClock(start = Date.parse('2026-03-01T12:00:00Z')) {
  let t = start;
  return {
    now: () => t,
    advance: (ms: number) => {
      t += ms;
    },
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until `done` holds for the value `read` returns, or fails after `timeoutMs`. */
export async function waitFor<T>(read: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 5000, everyMs = 10): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms; last value: ${JSON.stringify(v).slice(0, 500)}`);
    await sleep(everyMs);
  }
}

export const P = '/projects/proj-demo';

export const expectError = (a: Answer, status: number, code: string) => {
  if (a.status !== status || a.body?.code !== code) {
    throw new Error(`expected ${status} ${code}, got ${a.status} ${a.text.slice(0, 300)}`);
  }
  if (a.headers.get('content-type') !== 'application/json') throw new Error(`error without JSON content type: ${a.headers.get('content-type')}`);
  if (typeof a.body.message !== 'string' || a.body.message === '') throw new Error('error without message');
  return a.body as { code: string; message: string; details?: string };
};
