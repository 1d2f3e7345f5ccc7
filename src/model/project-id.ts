// What a project ID looks like (SPEC section 13): checked where one enters dbform, before it is
// used in a request, a state key or a file name.
import { DbformError } from './errors.js';

export const PROJECT_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

export function isProjectId(value: string): boolean {
  return PROJECT_ID_PATTERN.test(value);
}

/** A project ID given on the command line: one line naming the flag when it is not one. */
export function checkProjectIdFlag(value: string, flag: string): string {
  if (!isProjectId(value)) {
    const shown = value.length > 60 ? `${JSON.stringify(value.slice(0, 60))}... (${value.length} characters)` : JSON.stringify(value);
    throw new DbformError(`${flag} ${shown} is not a project ID: use 1-128 letters, digits, '_' and '-', starting with a letter or digit`);
  }
  return value;
}
