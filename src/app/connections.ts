// What `dbform output` prints (SPEC section 11): for each service and replica set of the config,
// how a client connects, taken only from the live resource its address is bound to. Pure: the
// command reads config, state and live state, this decides. Never falls back to a resource found
// by name: a preview whose fork is not bound yet must fail, not hand CI its parent's endpoint.
import {
  compareAddresses,
  openEndpoints,
  parseAddress,
  REPLICA_SET_FIELDS,
  SERVICE_FIELDS,
  type Address,
  type DesiredState,
  type Endpoint,
  type LiveReplicaSet,
  type LiveService,
  type LiveState,
  type Lockfile,
} from '../model/index.js';

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
   * The name in env and GitHub outputs: the service key, or `<service key>__<replica set key>`
   * (keys never contain `_`, so a double underscore cannot be part of a key).
   */
  key: string;
  fields: OutputField[];
  /** Where a password for this login may be found in pgpass, in order (replica sets: theirs, then their service's). */
  logins: Endpoint[];
  /** The configured `password.from_env` (a replica set uses its service's). */
  passwordEnv?: string;
}

export type Resolved = { ok: true; connections: Connection[] } | { ok: false; problems: string[] };

export interface Target {
  address: Address;
  key: string;
  passwordEnv?: string;
}

/** The services and replica sets of the config, in output order. */
function configuredTargets(desired: DesiredState): Map<Address, Target> {
  const out: Target[] = [];
  for (const s of desired.services) {
    const passwordEnv = s.password?.fromEnv;
    const common = passwordEnv !== undefined ? { passwordEnv } : {};
    out.push({ address: s.address, key: s.key, ...common });
    for (const r of s.replicaSets) out.push({ address: r.address, key: `${s.key}__${r.key}`, ...common });
  }
  out.sort((a, b) => compareAddresses(a.address, b.address));
  return new Map(out.map((t) => [t.address, t]));
}

/** What the config calls `address` when it is not a service or replica set, for the message. */
function describeOther(desired: DesiredState, address: string): string | undefined {
  const parsed = parseAddress(address);
  if (parsed?.kind === 'vpc' && desired.vpcs.some((v) => v.address === address)) return 'a VPC';
  if (parsed?.kind === 'peering' && desired.vpcs.some((v) => v.peerings.some((p) => p.address === address))) return 'a VPC peering';
  return undefined;
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
        ? `${address} is ${other}: output prints the connection details of services and replica sets only (${files} has: ${known})`
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

function connectService(t: Target, id: string, live: LiveState, where: Where): Connection | string {
  const svc: LiveService | undefined = live.services.find((s) => s.id === id);
  if (!svc || svc.status === 'DELETING' || svc.status === 'DELETED') {
    return `${t.address} is bound to service ${id}, which is gone from project ${where.projectId}${svc ? ` (${svc.status})` : ''}; run \`dbform plan\` to see what apply would do`;
  }
  if (svc.status !== 'READY') return `${t.address} (service ${id}) is ${svc.status}, not READY: it takes no connections until it is`;
  if (!svc.endpoint) return `${t.address} (service ${id}) reports no endpoint yet; try again in a moment`;
  return { address: t.address, key: t.key, fields: fieldsOf(svc.endpoint, openEndpoints(SERVICE_FIELDS, svc)), logins: [svc.endpoint], ...(t.passwordEnv ? { passwordEnv: t.passwordEnv } : {}) };
}

function connectReplicaSet(t: Target, id: string, live: LiveState): Connection | string {
  const owner = live.services.find((s) => s.replicaSets.some((r) => r.id === id));
  const rs: LiveReplicaSet | undefined = owner?.replicaSets.find((r) => r.id === id);
  if (!owner || !rs || rs.status === 'deleting') {
    return `${t.address} is bound to replica set ${id}, which is gone${rs ? ' (deleting)' : ''}; run \`dbform plan\` to see what apply would do`;
  }
  if (rs.status !== 'active') return `${t.address} (replica set ${id}) is ${rs.status}, not active: it takes no connections until it is`;
  if (!rs.endpoint) return `${t.address} (replica set ${id}) reports no endpoint yet; try again in a moment`;
  // A replica set logs in as its service does: its pgpass line may be the service's.
  const primary = owner.endpoint ? [owner.endpoint] : [];
  return { address: t.address, key: t.key, fields: fieldsOf(rs.endpoint, openEndpoints(REPLICA_SET_FIELDS, rs)), logins: [rs.endpoint, ...primary], ...(t.passwordEnv ? { passwordEnv: t.passwordEnv } : {}) };
}

/**
 * The connection of each target from the live resource its address is bound to; every address
 * that is unbound, gone or not ready is one line in `problems` and nothing is printed.
 */
export function resolveConnections(targets: readonly Target[], lock: Lockfile, live: LiveState, where: Where): Resolved {
  const connections: Connection[] = [];
  const problems: string[] = [];
  for (const t of targets) {
    const entry = lock.resources[t.address];
    if (!entry) {
      problems.push(`${t.address} is not bound in workspace "${where.workspace}" of ${where.location}: it has not been applied there yet (run \`dbform apply\`)`);
      continue;
    }
    const kind = parseAddress(t.address)?.kind;
    const got = kind === 'service' ? connectService(t, entry.id, live, where) : connectReplicaSet(t, entry.id, live);
    if (typeof got === 'string') problems.push(got);
    else connections.push(got);
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, connections };
}
