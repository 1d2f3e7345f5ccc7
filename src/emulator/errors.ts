import { DbformError } from '../model/errors.js';

/** An API error answer: status, machine-readable code and a message naming the problem. */
export class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details?: string;
  readonly headers: Record<string, string>;
  constructor(status: number, code: string, message: string, options?: { details?: string; headers?: Record<string, string> }) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.code = code;
    if (options?.details !== undefined) this.details = options.details;
    this.headers = options?.headers ?? {};
  }
}

export const badRequest = (message: string) => new HttpError(400, 'BAD_REQUEST', message);
export const invalidField = (field: string, problem: string) =>
  new HttpError(400, 'VALIDATION_ERROR', `invalid field "${field}": ${problem}`, { details: field });
export const notFound = (message: string) => new HttpError(404, 'NOT_FOUND', message);
export const conflict = (message: string) => new HttpError(409, 'CONFLICT', message);

/** A bad emulator option, seed file or state file: reported to the person who started it. */
export class EmulatorConfigError extends DbformError {}
