// A service's `password` is write-only: its value lives in an environment variable, never in the
// config. Whatever is written under `password` may be the secret itself (`password: "hunter2"`,
// `password: { value: ... }`, even a key `{ hunter2 }`), so its problems never quote a value or a
// key: they say what was found (`(sensitive)`) and name the one accepted form.
import { closestMatch } from '../model/suggest.js';
import { formatPath } from './paths.js';
import type { PathSeg } from './positions.js';
import type { KeywordError, Problem } from './schema-messages.js';

export const PASSWORD_FORM = '{ from_env: VARIABLE, version: 1 }';
const READ_AT_APPLY = 'the password is read from that environment variable at apply time and never written in the config';
const FIELDS = ['from_env', 'version'];

/** True for `services.<key>.password` and everything under it. */
export const isPasswordPath = (path: readonly PathSeg[]): boolean => path.length >= 3 && path[0] === 'services' && path[2] === 'password';

const KIND_WORDS: Record<string, string> = { string: 'a string', number: 'a number', boolean: 'true or false', object: 'a mapping' };
const kindOf = (v: unknown): string => (v === null || v === undefined ? 'nothing (null)' : Array.isArray(v) ? 'a list' : (KIND_WORDS[typeof v] ?? typeof v));

/** `${env:NAME}` written as the whole password: the variable the user meant to read. */
const variableOf = (written: string | undefined): string | undefined => /^\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(written ?? '')?.[1];

/**
 * One schema error about a password, in words that never show what was written; undefined for
 * the problems of the accepted form itself (a `from_env` that is not a variable name, a `version`
 * out of range, a missing `from_env`), whose usual messages show only a name or a number.
 */
export function describePasswordProblem(e: KeywordError, path: PathSeg[], written?: string): Problem | undefined {
  // The path a message or `--json` names is never an unknown key under `password`.
  const at = (message: string): Problem => ({ path, target: 'value', shownPath: path, message: `${formatPath(path)}: ${message}`, code: 'password' });
  if (e.keyword === 'additionalProperties') {
    const key = String(e.params.additionalProperty);
    const guess = closestMatch(key, FIELDS);
    const tail = guess ? `did you mean \`${guess}\`?` : `a password takes only ${PASSWORD_FORM}`;
    return { path: [...path, key], target: 'key', shownPath: path, code: 'unknown-key', message: `unknown key (sensitive) under ${formatPath(path)}; ${tail}` };
  }
  if (e.keyword !== 'type') return undefined;
  if (path.length === 3) {
    if (e.data === null) return at(`expected ${PASSWORD_FORM} (${READ_AT_APPLY}), found nothing (null); remove \`password\` to leave it unmanaged`);
    const variable = variableOf(written);
    const hint = variable ? `; write password: { from_env: ${variable}, version: 1 }` : '';
    return at(`expected ${PASSWORD_FORM} (${READ_AT_APPLY}), found ${kindOf(e.data)} (sensitive)${hint}`);
  }
  if (path[3] === 'version') return at(`expected a whole number of 1 or more, found ${kindOf(e.data)} (sensitive); write ${PASSWORD_FORM} and bump version to rotate the password`);
  if (path[3] === 'from_env') return at(`expected the name of an environment variable, found ${kindOf(e.data)} (sensitive); write ${PASSWORD_FORM}`);
  return at(`expected ${PASSWORD_FORM}, found ${kindOf(e.data)} (sensitive)`);
}
