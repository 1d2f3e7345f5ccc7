// The shapes of the API's calls, each sent through the transport with its answer checked: a list
// (an array whose items carry their ID), an object, and a checked operation, whose repeat refused
// after an unknown outcome the caller reads back. An operation's method, route and safety class
// come from its row in src/model/operations.ts.
import { type OperationId, type RouteIds } from '../model/operations.js';
import { ambiguousCreate } from './attempt.js';
import { ApiError } from './errors.js';
import type { ApiLogger, HttpTransport, RequestSpec } from './http.js';
import { OPERATIONS, operationPath } from '../kinds/index.js';

export interface CallOptions {
  signal?: AbortSignal;
}

export class Requests {
  constructor(
    readonly http: HttpTransport,
    private readonly logger: ApiLogger | undefined,
  ) {}

  /** The request of an operation, as its op table row says. */
  call(op: OperationId, ids: RouteIds, o: CallOptions | undefined, body?: unknown): RequestSpec {
    const row = OPERATIONS[op];
    return { op, method: row.api.method, path: operationPath(op, ids), safety: row.safety, signal: o?.signal, body };
  }

  async list<T>(op: string, path: string, idField: string, o?: CallOptions): Promise<T[]> {
    const spec: RequestSpec = { op, method: 'GET', path, safety: 'read', signal: o?.signal, streamArray: true };
    const data = (await this.http.send(spec)).data;
    if (!Array.isArray(data)) throw this.invalid(spec, 'expected a JSON array');
    for (const item of data) {
      const id = (item as Record<string, unknown> | null)?.[idField];
      if (typeof id !== 'string' && typeof id !== 'number') throw this.invalid(spec, `an item without "${idField}"`);
    }
    return data as T[];
  }

  /** An answer that must be an object; a create's unusable answer is an unknown outcome. */
  async object<T>(spec: RequestSpec, requestName?: string): Promise<T> {
    if (requestName !== undefined) spec.requestName = requestName;
    const data = (await this.http.send(spec)).data;
    try {
      return this.expectObject(spec, data) as T;
    } catch (err) {
      throw spec.safety === 'create' ? ambiguousCreate(spec, err) : err;
    }
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
