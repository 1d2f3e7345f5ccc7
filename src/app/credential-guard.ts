// The API credential never reaches a plan's output (SPEC sections 12 and 13). The config may not
// hold it (`${env:...}` of a credential is refused where the config is read); this is the last
// check, made on every plan where it is made (pipeline.ts) before it is printed, posted as a
// pull-request comment, saved or applied: a plan that holds the token or a half of the key pair is
// refused, and nothing is printed, saved or sent.
import { secretsOf } from '../api/credentials.js';
import { DbformError, type Plan } from '../model/index.js';
import { toPlanJson } from '../planner/index.js';
import { readCredentials } from './credentials-input.js';

/** Shorter values would match by chance; every real credential is far longer. */
const MIN_LENGTH = 8;

/** The credential values this run would send, as they could appear in text. */
export async function credentialValues(apiKeyFile: string | undefined, env: NodeJS.ProcessEnv, cwd?: string): Promise<string[]> {
  const credentials = await readCredentials(apiKeyFile, env, () => undefined, cwd).catch(() => undefined);
  return credentials === undefined ? [] : secretsOf(credentials).filter((s) => s.length >= MIN_LENGTH);
}

/**
 * Throws, naming the resource and never the value, when `plan` holds a credential. Its JSON form
 * holds every value any rendering of it shows (and every value apply would send).
 */
export function refuseCredentials(plan: Plan, secrets: readonly string[]): void {
  if (secrets.length === 0) return;
  const text = JSON.stringify(toPlanJson(plan));
  const found = secrets.find((s) => text.includes(s));
  if (found === undefined) return;
  const where = plan.actions.find((a) => JSON.stringify(a).includes(found))?.address;
  throw new DbformError(
    `the plan${where ? ` (${where})` : ''} holds the value of the API credential; nothing was printed, saved or sent. ` +
      'A config value must never hold a credential: remove it (or the ${env:...} that put it there) from the config',
  );
}
