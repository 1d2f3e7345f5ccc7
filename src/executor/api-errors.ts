// How the engine reads the client's errors: questions (is it a 404? a 409?) in one place.
import { ApiError } from '../model/index.js';

export function isNotFound(err: unknown): boolean {
  return err instanceof ApiError && err.status === 404;
}

export function isConflict(err: unknown): boolean {
  return err instanceof ApiError && err.status === 409;
}
