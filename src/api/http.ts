// The HTTP transport under ApiClient: one keep-alive undici Pool per API origin, a time limit per
// attempt, retries by safety class (retry.ts), debug lines that never hold the token or a body,
// and errors a person can act on.
import { setMaxListeners } from 'node:events';
import { createRequire } from 'node:module';
import type { Dispatcher, Pool as UndiciPool } from 'undici';
import { DbformError } from '../model/errors.js';
import { ambiguousCreate, attemptError, errorCode, isTlsFailure, NOT_SENT_CODES, summarize, toOutcome, type AttemptResult, type HttpResult } from './attempt.js';
import { parseBaseUrl } from './base-url.js';
import { authorizationHeader, secretsOf, type ApiCredentials } from './credentials.js';
import { ApiError } from './errors.js';
import { JsonArrayReader } from './json-array.js';
import { excerpt, scrub } from './messages.js';
import { decideRetry, type RetryPolicy, type Safety } from './retry.js';
import { sleep } from './sleep.js';
import type { Timers } from './timers.js';

export type ApiLogger = (line: string) => void;

export interface TransportOptions {
  baseUrl: string;
  credentials: ApiCredentials;
  userAgent: string;
  timeoutMs: number;
  retry: RetryPolicy;
  allowInsecureHttp: boolean;
  logger?: ApiLogger;
  /** Upper bound of parallel connections to the API. */
  connections: number;
  random: () => number;
  /**
   * The clock of the backoff between attempts. An attempt's own time limit stays on real time:
   * it bounds real network I/O.
   */
  timers: Timers;
}

export interface RequestSpec {
  /** The API operation, for messages: `resizeService`, `listServices`. */
  op: string;
  method: 'GET' | 'POST' | 'DELETE';
  /** Below the base URL, IDs already encoded: `/projects/p/services`. */
  path: string;
  query?: URLSearchParams;
  body?: unknown;
  safety: Safety;
  /** Values sent in this request that must never appear in a message (a password). */
  secrets?: string[];
  /** create only: the `name` sent, for AmbiguousCreateError. */
  requestName?: string;
  signal?: AbortSignal;
  /** A list: a 2xx body is parsed item by item as it arrives (json-array.ts), never held as one string. */
  streamArray?: boolean;
}

export interface ApiResponse {
  status: number;
  /** Parsed JSON, or undefined for an empty body. */
  data: unknown;
  /** An earlier attempt of this call had an unknown outcome (it may have been processed). */
  afterUnknownOutcome: boolean;
}

// undici's index also loads its fetch, WebSocket, cache, mock and proxy modules: 110 modules
// where the transport needs the pool and its request() (24). Loaded alone, every command that
// talks to the API starts about 8 MiB smaller and 30 ms sooner (BENCHMARKS.md, "Plan of 1,000
// services"). undici 7 has no exports map; its files are where the lockfile's version keeps them,
// and every e2e test loads them.
const require = createRequire(import.meta.url);
const Pool = require('undici/lib/dispatcher/pool.js') as typeof UndiciPool;
const request = require('undici/lib/api/api-request.js') as (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;

/** Thrown inside an attempt when its own timer fired (as opposed to the caller's signal). */
class AttemptTimeout extends Error {}

export class HttpTransport {
  readonly baseUrl: URL;
  private readonly pool: UndiciPool;
  private readonly basePath: string;
  private readonly closing = new AbortController();
  private retryStop: AbortSignal | undefined;
  /** The credential's values, scrubbed from every message and debug line. */
  private readonly credentialSecrets: string[];
  private readonly authorization: string;

  constructor(private readonly options: TransportOptions) {
    this.baseUrl = parseBaseUrl(options.baseUrl, options.allowInsecureHttp);
    this.basePath = this.baseUrl.pathname;
    this.credentialSecrets = secretsOf(options.credentials);
    this.authorization = authorizationHeader(options.credentials);
    // Every request in flight listens to it: a wide apply has hundreds at once.
    setMaxListeners(0, this.closing.signal);
    this.pool = new Pool(this.baseUrl.origin, {
      connections: options.connections,
      connect: { timeout: Math.min(10_000, options.timeoutMs) },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
  }

  /** Stops every call still retrying or waiting (they reject), then closes the connections. */
  async close(): Promise<void> {
    this.closing.abort(new DbformError('the API client was closed while a request was still being retried'));
    await this.pool.close();
  }

  /**
   * After `signal` aborts (the first Ctrl-C of an apply), a failed attempt is not retried: the
   * call fails with what it got. An attempt already in flight is let finish, so a create that the
   * API answers still has its ID recorded.
   */
  stopRetriesOn(signal: AbortSignal): void {
    setMaxListeners(0, signal);
    this.retryStop = signal;
  }

  /** Sends with retries; resolves with any 2xx answer, throws ApiError / AmbiguousCreateError otherwise. */
  async send(request: RequestSpec): Promise<ApiResponse> {
    // A closed client retries nothing: a call left running after its command gave up would
    // otherwise keep the process alive for its whole retry budget.
    const spec = { ...request, signal: request.signal ? AbortSignal.any([request.signal, this.closing.signal]) : this.closing.signal };
    const secrets = [...this.credentialSecrets, ...(spec.secrets ?? [])];
    let afterUnknownOutcome = false;
    for (let attempt = 1; ; attempt++) {
      spec.signal.throwIfAborted();
      const started = performance.now();
      const result = await this.attempt(spec);
      const ms = Math.round(performance.now() - started);
      const outcome = toOutcome(result);
      const decision = decideRetry(spec.safety, outcome, attempt, this.options.retry, this.options.random);
      const summary = summarize(result, secrets);
      if (decision.action === 'retry') {
        const stopped = () => {
          this.log(`${spec.method} ${this.pathFor(spec)} -> ${summary} in ${ms} ms (attempt ${attempt}); not retried: interrupted`);
          return this.toError(spec, result, attempt, secrets, afterUnknownOutcome);
        };
        if (this.retryStop?.aborted) throw stopped();
        this.log(`${spec.method} ${this.pathFor(spec)} -> ${summary} in ${ms} ms (attempt ${attempt}); retrying in ${decision.delayMs} ms`);
        afterUnknownOutcome ||= decision.ambiguous;
        try {
          await sleep(decision.delayMs, this.retryStop ? AbortSignal.any([spec.signal, this.retryStop]) : spec.signal, this.options.timers);
        } catch (err) {
          if (spec.signal.aborted) throw err;
          throw stopped();
        }
        continue;
      }
      this.log(`${spec.method} ${this.pathFor(spec)} -> ${summary} in ${ms} ms (attempt ${attempt})`);
      if (decision.action === 'ambiguous') throw ambiguousCreate(spec, this.toError(spec, result, attempt, secrets, afterUnknownOutcome));
      if ('status' in result && result.status >= 200 && result.status < 300) {
        try {
          return { status: result.status, data: this.parseBody(spec, result, secrets, afterUnknownOutcome), afterUnknownOutcome };
        } catch (err) {
          // Accepted, but the answer (and so the new ID) is unreadable: as good as lost.
          throw spec.safety === 'create' ? ambiguousCreate(spec, err) : err;
        }
      }
      throw this.toError(spec, result, attempt, secrets, afterUnknownOutcome);
    }
  }

  private pathFor(spec: RequestSpec): string {
    const q = spec.query?.toString();
    return q ? `${spec.path}?${q}` : spec.path;
  }

  private log(line: string): void {
    // Defence in depth: the credential is never put in a line, but scrub anyway.
    this.options.logger?.(scrub(`[api] ${line}`, this.credentialSecrets));
  }

  private async attempt(spec: RequestSpec): Promise<AttemptResult> {
    const timer = new AbortController();
    const timeout = setTimeout(() => timer.abort(new AttemptTimeout()), this.options.timeoutMs);
    const signal = spec.signal ? AbortSignal.any([spec.signal, timer.signal]) : timer.signal;
    const headers: Record<string, string> = {
      authorization: this.authorization,
      'user-agent': this.options.userAgent,
      accept: 'application/json',
    };
    let body: string | undefined;
    if (spec.body !== undefined) {
      body = JSON.stringify(spec.body);
      headers['content-type'] = 'application/json';
    }
    try {
      const res = await request.call(this.pool, { method: spec.method, path: this.basePath + this.pathFor(spec), headers, body, signal });
      const headersOf = { retryAfter: res.headers['retry-after'], retryAfterMs: res.headers['retry-after-ms'] };
      if (spec.streamArray && res.statusCode >= 200 && res.statusCode < 300) {
        const reader = new JsonArrayReader();
        for await (const chunk of res.body) reader.write(chunk as Buffer);
        return { status: res.statusCode, text: '', parsed: reader, ...headersOf };
      }
      return { status: res.statusCode, text: await res.body.text(), ...headersOf };
    } catch (err) {
      if (spec.signal?.aborted) throw spec.signal.reason;
      if (timer.signal.aborted) return { failure: 'timeout', error: err };
      // A refused TLS handshake happens before the request is written: nothing was sent.
      if (isTlsFailure(err)) return { failure: 'network', error: err, sent: false, tls: true };
      return { failure: 'network', error: err, sent: !NOT_SENT_CODES.has(errorCode(err)) };
    } finally {
      clearTimeout(timeout);
    }
  }

  private parseBody(spec: RequestSpec, res: HttpResult, secrets: string[], afterUnknownOutcome: boolean): unknown {
    if (!res.parsed && res.text.trim() === '') return undefined;
    try {
      return res.parsed ? res.parsed.end() : JSON.parse(res.text);
    } catch (err) {
      const message = `${spec.op}: the API answered ${res.status} with a body that is not JSON (truncated or not the API?): ${excerpt(res.parsed ? res.parsed.head : res.text)}`;
      throw new ApiError(scrub(message, secrets), {
        status: res.status,
        code: 'INVALID_RESPONSE',
        apiMessage: 'invalid JSON body',
        method: spec.method,
        path: spec.path,
        cause: err,
        afterUnknownOutcome,
      });
    }
  }

  private toError(spec: RequestSpec, result: AttemptResult, attempts: number, secrets: string[], afterUnknownOutcome: boolean): ApiError {
    const ctx = { where: this.baseUrl.href, timeoutMs: this.options.timeoutMs, credentials: this.options.credentials };
    return attemptError(spec, result, attempts, secrets, afterUnknownOutcome, ctx);
  }
}
