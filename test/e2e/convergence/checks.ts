// What must hold after every apply of the convergence property: no duplicate, no lost ID, no
// orphan, look-alikes untouched, and the pgpass file holding each configured password.
import { parsePgpassLine } from '../../../src/executor/pgpass.js';
import type { DesiredState, LiveState, Lockfile, Plan } from '../../../src/model/index.js';
import { passwordOf, serviceName, type Cfg } from './generate.js';

export interface CheckInput {
  desired: DesiredState;
  cfg: Cfg;
  live: LiveState;
  lock: Lockfile;
  lookAlikes: ReadonlyMap<string, { serviceId?: string }>;
  pgpass: string;
  env: Record<string, string>;
}

interface LiveThing {
  kind: string;
  scope: string;
  name: string;
  id: string;
}

/** Every live resource not on its way out, with the scope its name is unique in. */
function liveThings(live: LiveState): LiveThing[] {
  const out: LiveThing[] = [];
  for (const v of live.vpcs) {
    out.push({ kind: 'vpc', scope: '', name: v.name, id: v.id });
    for (const p of v.peerings ?? []) out.push({ kind: 'peering', scope: v.id, name: p.peerVpcId, id: p.id });
  }
  for (const s of live.services) {
    if (s.status === 'DELETING' || s.status === 'DELETED') continue;
    out.push({ kind: 'service', scope: '', name: s.name, id: s.id });
    for (const r of s.replicaSets) if (r.status !== 'deleting') out.push({ kind: 'replica_set', scope: s.id, name: r.name, id: r.id });
  }
  return out;
}

/** Desired resources with the scope and name they must have live, given the lockfile's parent IDs. */
function desiredThings(desired: DesiredState, lock: Lockfile): Array<{ address: string; kind: string; scope: string; name: string }> {
  const idOf = (address: string) => lock.resources[address]?.id ?? '?';
  const out: Array<{ address: string; kind: string; scope: string; name: string }> = [];
  for (const v of desired.vpcs) {
    out.push({ address: v.address, kind: 'vpc', scope: '', name: v.name });
    for (const p of v.peerings) out.push({ address: p.address, kind: 'peering', scope: idOf(v.address), name: p.peerVpcId });
  }
  for (const s of desired.services) {
    out.push({ address: s.address, kind: 'service', scope: '', name: s.name });
    for (const r of s.replicaSets) out.push({ address: r.address, kind: 'replica_set', scope: idOf(s.address), name: r.name });
  }
  return out;
}

export function findViolations(input: CheckInput): string[] {
  const { live, lock, lookAlikes } = input;
  const things = liveThings(live);
  const byId = new Map(things.map((t) => [t.id, t]));
  const bound = new Set(Object.values(lock.resources).map((e) => e.id));
  const unmanaged = (id: string) => lookAlikes.has(id) && !bound.has(id);
  const violations: string[] = [];
  for (const d of desiredThings(input.desired, lock)) {
    const id = lock.resources[d.address]?.id;
    const found = id === undefined ? undefined : byId.get(id);
    if (!found) violations.push(`lost ID: ${d.address} is ${id === undefined ? 'not in the lockfile' : `bound to ${id}, which is not live`}`);
    else if (found.kind !== d.kind || found.scope !== d.scope || found.name !== d.name) {
      violations.push(`${d.address} is bound to ${found.kind} ${found.scope}/${found.name} (${found.id}), not ${d.kind} ${d.scope}/${d.name}`);
    }
    const same = things.filter((t) => t.kind === d.kind && t.scope === d.scope && t.name === d.name && !unmanaged(t.id));
    if (same.length > 1) violations.push(`duplicate: ${same.length} live ${d.kind}s named ${d.name} in ${d.scope || 'the project'} (${same.map((t) => t.id).join(', ')})`);
  }
  for (const t of things) {
    if (!bound.has(t.id) && !lookAlikes.has(t.id)) violations.push(`orphan: live ${t.kind} ${t.name} (${t.id}) is bound by no address and was not made out of band`);
  }
  // Look-alikes nobody adopted stay (a replica set goes with its service, which may be deleted).
  for (const [id, where] of lookAlikes) {
    if (bound.has(id) || byId.has(id)) continue;
    if (where.serviceId !== undefined && !byId.has(where.serviceId)) continue;
    violations.push(`the unmanaged look-alike ${id} is gone`);
  }
  violations.push(...pgpassViolations(input));
  return violations;
}

/** Each configured password is in the pgpass line of its service's endpoint, exactly once. */
function pgpassViolations(input: CheckInput): string[] {
  const out: string[] = [];
  const lines = input.pgpass.split('\n').filter((l) => l !== '');
  const entries = lines.map((l) => parsePgpassLine(l));
  for (const [key, s] of Object.entries(input.cfg.services)) {
    if (!s.password) continue;
    const id = input.lock.resources[`service.${key}`]?.id;
    const svc = input.live.services.find((x) => x.id === id);
    if (!svc?.endpoint) continue;
    const mine = entries.filter((e) => e && e.host === svc.endpoint!.host && e.port === svc.endpoint!.port && e.user === 'tsdbadmin');
    const want = passwordOf(s.password.from_env, s.password.version);
    if (mine.length !== 1 || mine[0]!.password !== want) {
      out.push(`pgpass: service.${key} (${serviceName(key, s)}) has ${mine.length} line(s) for ${svc.endpoint.host}, ${mine.length === 1 ? 'not holding its configured password' : 'not one'}`);
    }
  }
  return out;
}

/**
 * SPEC section 2: a service or VPC is never created while exactly one live, unclaimed resource of
 * its kind has the desired name (that one is adopted, also when the lockfile's ID is gone).
 */
export function findCreatesOverLiveNames(plan: Plan, desired: DesiredState, live: LiveState, lock: Lockfile): string[] {
  const bound = new Set(Object.values(lock.resources).map((e) => e.id));
  const names = new Map<string, string>();
  for (const v of desired.vpcs) names.set(v.address, v.name);
  for (const s of desired.services) names.set(s.address, s.name);
  const out: string[] = [];
  for (const a of plan.actions) {
    // A replace (requested, or forced by a field) makes its new resource whatever else is live.
    if (a.op !== 'createService' && a.op !== 'forkService' && a.op !== 'createVPC') continue;
    if (a.reason !== 'missing' && a.reason !== 'drift') continue;
    const name = names.get(a.address);
    const pool = a.op === 'createVPC' ? live.vpcs : live.services.filter((s) => s.status !== 'DELETING' && s.status !== 'DELETED');
    const unclaimed = pool.filter((r) => r.name === name && !bound.has(r.id));
    if (unclaimed.length === 1) out.push(`${a.op} ${a.address} (${a.reason}) would make a second "${name}" beside the unclaimed ${unclaimed[0]!.id}, which it should adopt`);
  }
  return out;
}
