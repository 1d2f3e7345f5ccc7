// The four shapes of `dbform output` (SPEC section 11): text for people, JSON for programs,
// `DBFORM_<KEY>_<FIELD>=...` lines for a shell, and `<key>_<field>=...` lines for $GITHUB_OUTPUT.
import { randomBytes } from 'node:crypto';
import { DbformError, terminalJson, terminalLine } from '../../model/index.js';
import type { Connection, OutputField } from '../../app/connections.js';

export type OutputFormat = 'text' | 'json' | 'env' | 'github';

export function renderOutputText(connections: readonly Connection[]): string {
  return connections
    .map((c) => {
      const width = Math.max(...c.fields.map((f) => f.name.length));
      return [c.address, ...c.fields.map((f) => `  ${f.name.padEnd(width)} = ${terminalLine(String(f.value))}`)].join('\n');
    })
    .join('\n\n')
    .concat(connections.length > 0 ? '\n' : '');
}

/** `{ "service.app": { "host": ..., "port": 5432, ... } }`: ports are numbers. */
export function renderOutputJson(connections: readonly Connection[]): string {
  const out: Record<string, Record<string, string | number>> = {};
  for (const c of connections) out[c.address] = Object.fromEntries(c.fields.map((f) => [f.name, f.value]));
  return `${terminalJson(out, 2)}\n`;
}

export const envName = (key: string, field: string): string => `DBFORM_${key.toUpperCase().replace(/-/g, '_')}_${field.toUpperCase()}`;
export const githubName = (key: string, field: string): string => `${key}_${field}`;

/**
 * A value as a shell assignment reads it literally (`eval "$(dbform output --format env)"`):
 * bare when it holds nothing the shell would interpret there, else single-quoted.
 */
export function shellValue(value: string | number): string {
  const text = String(value);
  return /^[A-Za-z0-9_./:@%+=,?-]*$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

interface Named {
  name: string;
  address: string;
  field: OutputField;
}

/**
 * Every variable with the address it came from. Two addresses that would set the same variable
 * (`service.a-b`'s host and `service.a`'s `b_host`... in env format) are refused: one would
 * silently overwrite the other.
 */
function namedFields(connections: readonly Connection[], nameOf: (key: string, field: string) => string): Named[] {
  const out: Named[] = [];
  const seen = new Map<string, string>();
  for (const c of connections) {
    for (const field of c.fields) {
      const name = nameOf(c.key, field.name);
      const first = seen.get(name);
      if (first !== undefined && first !== c.address) {
        throw new DbformError(`${first} and ${c.address} would both set ${name}; rename one of the keys, or ask for one address at a time (dbform output ${c.address})`);
      }
      seen.set(name, c.address);
      out.push({ name, address: c.address, field });
    }
  }
  return out;
}

export function renderOutputEnv(connections: readonly Connection[]): string {
  return namedFields(connections, envName)
    .map((n) => `${n.name}=${shellValue(n.field.value)}\n`)
    .join('');
}

/**
 * The lines appended to $GITHUB_OUTPUT. A value with a line break (never one dbform makes, but
 * the API's answer is not dbform's) uses the runner's delimiter form, so it cannot forge another
 * output.
 */
export function renderGithubOutput(connections: readonly Connection[], delimiter: () => string = () => `dbform_${randomBytes(8).toString('hex')}`): string {
  return namedFields(connections, githubName)
    .map(({ name, field }) => {
      const text = String(field.value);
      if (!/[\r\n]/.test(text)) return `${name}=${text}\n`;
      const end = delimiter();
      return `${name}<<${end}\n${text}\n${end}\n`;
    })
    .join('');
}
