// How the engine reads the client's errors: questions (is it a 404? a 409?) in one place.
import { ApiError } from '../model/index.js';

export function isNotFound(err: unknown): boolean {
  return err instanceof ApiError && err.status === 404;
}

export function isConflict(err: unknown): boolean {
  return err instanceof ApiError && err.status === 409;
}

/** A delete of something already gone has done its job. */
export async function ignoreNotFound(run: () => Promise<unknown>): Promise<void> {
  try {
    await run();
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
}
