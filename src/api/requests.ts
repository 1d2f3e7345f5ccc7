// The shapes of the API's calls, each sent through the transport with its answer checked: a list
// (an array whose items carry their ID), an object, a message (any answer, read as {message}), and
// a checked operation, whose repeat refused after an unknown outcome the caller reads back.
import { ambiguousCreate } from './attempt.js';
import type * as Dto from './dto.js';
import { ApiError } from './errors.js';
import type { ApiLogger, HttpTransport, RequestSpec } from './http.js';
import { asMessage } from './paths.js';
import type { Safety } from './retry.js';

export interface CallOptions {
  signal?: AbortSignal;
}

export class Requests {
  constructor(
    readonly http: HttpTransport,
    private readonly logger: ApiLogger | undefined,
  ) {}

  async list<T>(op: string, path: string, idField: string, o?: CallOptions): Promise<T[]> {
    const spec: RequestSpec = { op, method: 'GET', path, safety: 'read', signal: o?.signal };
    const data = (await this.http.send(spec)).data;
    if (!Array.isArray(data)) throw this.invalid(spec, 'expected a JSON array');
    for (const item of data) {
      const id = (item as Record<string, unknown> | null)?.[idField];
      if (typeof id !== 'string' && typeof id !== 'number') throw this.invalid(spec, `an item without "${idField}"`);
    }
    return data as T[];
  }

  async object<T>(op: string, method: 'GET' | 'POST', path: string, safety: Safety, o?: CallOptions, extra?: { body?: unknown; requestName?: string | undefined }): Promise<T> {
    const spec: RequestSpec = { op, method, path, safety, signal: o?.signal, body: extra?.body };
    if (extra?.requestName !== undefined) spec.requestName = extra.requestName;
    const data = (await this.http.send(spec)).data;
    try {
      return this.expectObject(spec, data) as T;
    } catch (err) {
      throw safety === 'create' ? ambiguousCreate(spec, err) : err;
    }
  }

  async message(op: string, path: string, safety: Safety, o?: CallOptions, body?: unknown): Promise<Dto.MessageResponseDto> {
    const res = await this.http.send({ op, method: 'POST', path, body, safety, signal: o?.signal });
    return asMessage(res.data);
  }

  /**
   * Sends a checked operation. When a repeat after an unknown outcome is refused, `confirm` reads
   * the resource back: a defined result means the first attempt took effect.
   */
  async checked(spec: RequestSpec, confirm: (err: ApiError) => Promise<unknown>): Promise<unknown> {
    try {
      return (await this.http.send(spec)).data;
    } catch (err) {
      if (!(err instanceof ApiError) || !err.afterUnknownOutcome || (err.status !== 409 && err.status !== 404)) throw err;
      const confirmed = await confirm(err);
      if (confirmed === undefined) throw err;
      this.logger?.(`[api] ${spec.op}: the repeat was refused (${err.status}) but the resource shows the first attempt took effect`);
      return confirmed === true ? undefined : confirmed;
    }
  }

  expectObject(spec: RequestSpec, data: unknown): object {
    if (typeof data !== 'object' || data === null || Array.isArray(data)) throw this.invalid(spec, 'expected a JSON object');
    return data;
  }

  invalid(spec: RequestSpec, what: string): ApiError {
    return new ApiError(`${spec.op}: the API answered with an unusable body (${what})`, {
      status: 200,
      code: 'INVALID_RESPONSE',
      apiMessage: what,
      method: spec.method,
      path: spec.path,
    });
  }
}
