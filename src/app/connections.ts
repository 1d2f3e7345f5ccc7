// What `dbform output` prints (SPEC section 11): for each resource of the config whose kind takes
// connections (its `output`), how a client connects, taken only from the live resource its address
// is bound to. Pure: the command reads config, state and live state, this decides. Never falls back
// to a resource found by name: a preview whose fork is not bound yet must fail, not hand CI its
// parent's endpoint.
import { eachDesired, indexLive, KINDS, kindDef, type AnyKind, type LiveById } from '../kinds/index.js';
import { compareAddresses, KIND_NOUNS, kindOf, nounOf, openEndpoints, type Address, type DesiredState, type Endpoint, type LiveState, type Lockfile } from '../model/index.js';

/** The kinds that take connections, in registry order. */
export const OUTPUT_KINDS: readonly AnyKind[] = KINDS.filter((k) => k.output !== undefined);

/** `services and ...`: the kinds output prints, in words. */
export const outputNouns = (): string => OUTPUT_KINDS.map((k) => KIND_NOUNS[k.kind].many).join(' and ');

export const DATABASE = 'tsdb';
export const USER = 'tsdbadmin';

/** One printed value: `host`, `port`, ... in the order SPEC section 11 lists them. */
export interface OutputField {
  name: string;
  value: string | number;
}

export interface Connection {
  address: Address;
  /**
   * The name in env and GitHub outputs: its key, or a child's `<parent key>__<key>` (keys never
   * contain `_`, so a double underscore cannot be part of a key).
   */
  key: string;
  fields: OutputField[];
  /** Where a password for this login may be found in pgpass, in order (a child's: its own, then its parent's). */
  logins: Endpoint[];
  /** The configured `password.from_env` (a child uses its parent's). */
  passwordEnv?: string;
}

export type Resolved = { ok: true; connections: Connection[] } | { ok: false; problems: string[] };

export interface Target {
  address: Address;
  key: string;
  passwordEnv?: string;
}

/** The config's resources of the kinds that take connections, in output order. */
function configuredTargets(desired: DesiredState): Map<Address, Target> {
  const out: Target[] = [];
  const envs = new Map<Address, string | undefined>();
  eachDesired(desired, (def, r, parent) => {
    const own = def.output?.passwordEnv?.(r);
    const passwordEnv = own ?? (parent ? envs.get(parent.address!) : undefined);
    envs.set(r.address!, passwordEnv);
    if (!def.output) return;
    const key = (r as { key: string }).key;
    out.push({ address: r.address!, key: parent ? `${(parent as { key: string }).key}__${key}` : key, ...(passwordEnv !== undefined ? { passwordEnv } : {}) });
  });
  out.sort((a, b) => compareAddresses(a.address, b.address));
  return new Map(out.map((t) => [t.address, t]));
}

/** What the config calls `address` when its kind takes no connections, for the message. */
function describeOther(desired: DesiredState, address: string): string | undefined {
  const kind = kindOf(address);
  let found = false;
  eachDesired(desired, (_def, r) => void (found ||= r.address === address));
  return kind === undefined || !found ? undefined : (kindDef(kind).described ?? `a ${nounOf(kind)}`);
}

/** The requested addresses (all of the config's when none), or one line per address it does not have. */
export function chooseTargets(desired: DesiredState, requested: readonly string[]): { ok: true; targets: Target[] } | { ok: false; problems: string[] } {
  const all = configuredTargets(desired);
  if (requested.length === 0) return { ok: true, targets: [...all.values()] };
  const files = desired.files.join(', ');
  const known = [...all.keys()].join(', ') || 'none';
  const problems: string[] = [];
  const targets: Target[] = [];
  for (const address of [...new Set(requested)]) {
    const target = all.get(address);
    if (target) {
      targets.push(target);
      continue;
    }
    const other = describeOther(desired, address);
    problems.push(
      other
        ? `${address} is ${other}: output prints the connection details of ${outputNouns()} only (${files} has: ${known})`
        : `${address} is not in the config ${files}; output knows: ${known}`,
    );
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, targets };
}

const uri = (e: Endpoint) => `postgres://${USER}@${e.host}:${e.port}/${DATABASE}?sslmode=require`;

/** The resource's own endpoint, then each one its fields have open (their descriptors' `endpoint`), then the login. */
function fieldsOf(endpoint: Endpoint, open: ReadonlyArray<{ prefix: string; endpoint: Endpoint }>): OutputField[] {
  const fields: OutputField[] = [
    { name: 'host', value: endpoint.host },
    { name: 'port', value: endpoint.port },
  ];
  for (const o of open) fields.push({ name: `${o.prefix}_host`, value: o.endpoint.host }, { name: `${o.prefix}_port`, value: o.endpoint.port });
  fields.push({ name: 'database', value: DATABASE }, { name: 'user', value: USER }, { name: 'uri', value: uri(endpoint) });
  return fields;
}

interface Where {
  workspace: string;
  location: string;
  projectId: string;
}

/** The connection of a target bound to live `id`, or why there is none: gone, not ready, no endpoint yet. */
function connect(t: Target, def: AnyKind, id: string, index: LiveById, where: Where): Connection | string {
  const l = index[def.kind].get(id) as (Live & { status: string }) | undefined;
  const output = def.output!;
  if (!l || def.live.gone(l)) return output.gone(t.address, id, l, where.projectId);
  if (l.status !== output.ready) return `${t.address} (${nounOf(def.kind)} ${id}) is ${l.status}, not ${output.ready}: it takes no connections until it is`;
  if (!l.endpoint) return `${t.address} (${nounOf(def.kind)} ${id}) reports no endpoint yet; try again in a moment`;
  // A child logs in as its parent does: its pgpass line may be the parent's.
  const parent = def.parent === undefined ? undefined : (index[def.parent].get(def.live.parentId!(l)) as Live | undefined);
  const logins = [l.endpoint, ...(parent?.endpoint ? [parent.endpoint] : [])];
  return { address: t.address, key: t.key, fields: fieldsOf(l.endpoint, openEndpoints(def.fields, l)), logins, ...(t.passwordEnv ? { passwordEnv: t.passwordEnv } : {}) };
}

type Live = { id: string; endpoint?: Endpoint };

/**
 * The connection of each target from the live resource its address is bound to; every address
 * that is unbound, gone or not ready is one line in `problems` and nothing is printed.
 */
export function resolveConnections(targets: readonly Target[], lock: Lockfile, live: LiveState, where: Where): Resolved {
  const connections: Connection[] = [];
  const problems: string[] = [];
  const index = indexLive(live);
  for (const t of targets) {
    const entry = lock.resources[t.address];
    if (!entry) {
      problems.push(`${t.address} is not bound in workspace "${where.workspace}" of ${where.location}: it has not been applied there yet (run \`dbform apply\`)`);
      continue;
    }
    const got = connect(t, kindDef(kindOf(t.address)!), entry.id, index, where);
    if (typeof got === 'string') problems.push(got);
    else connections.push(got);
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, connections };
}
