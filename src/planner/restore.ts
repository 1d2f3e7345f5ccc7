// A restore (SPEC section 17) is not a second planner: it is the config and the state as the
// restore wants them, which the one planner then plans like any other. For `dbform restore
// service.KEY --to TIME`, and for every restore the state records as under way (an interrupted
// one, which any later plan finishes):
// - the state: the original's binding, and those of the resources that belong to it, retire to
//   `service.<key>-before-<stamp>` (protected); the address is bound to nothing, or to the fork an
//   interrupted run made (found by its parent and name, never by name alone);
// - the config: the address is a PITR fork of the original to TIME, with its desired settings,
//   which the planner applies once the fork is READY as after any create; the retired original is
//   kept, under its own name or, where the API renames services in place, renamed
//   `<name>-before-<stamp>` before the fork is made.
// The plan carries `retire` bindings; the apply writes them as a mark on the entries first (the
// state then records the restore as under way), and the fork's binding moves them (bindRetiring):
// no state written in between leaves the address bound to nothing, forks twice, or loses the
// original. A retired binding in the config keeps the live name: the config cannot rename it.
import { childKinds, desiredIn, indexLive, type LiveById } from '../kinds/index.js';
import {
  parentAddressOf,
  parseRfc3339,
  retiredAddressOf,
  retiredKey,
  retiredName,
  stampOf,
  type Address,
  type ApiCapability,
  type Binding,
  type DesiredService,
  type DesiredState,
  type Diagnostic,
  type Kind,
  type LiveService,
  type LiveState,
  type LockEntry,
  type Lockfile,
  type RestoreRequest,
} from '../model/index.js';
import type { PlanOptions } from './context.js';
import { listEntries, type ListedEntry } from './lock-entries.js';

/** The config and state as the restores want them, and what the plan adds of its own. */
export interface RestoreView {
  desired: DesiredState;
  lock: Lockfile;
  /** The restores' bindings: each retirement, and the adoption of a fork an interrupted run made. */
  bindings: Binding[];
  /** Restored addresses that bind only what the restore says: never a live resource found by name. */
  noAdopt: ReadonlySet<Address>;
  /** Errors stop the plan (nothing is planned); warnings say what the plan does about a restore. */
  diagnostics: Diagnostic[];
  /** What the API can do that decided the restores (whether the original is renamed): the plan records it. */
  consulted: ApiCapability[];
}

interface Restore extends RestoreRequest {
  /** The state records it as under way already (an interrupted run); false for a new one. */
  resumed: boolean;
}

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/** The restores this plan makes: those the state records as under way, and the one asked for. */
function restoresOf(lock: Lockfile, request: RestoreRequest | undefined, diagnostics: Diagnostic[]): Restore[] {
  const out: Restore[] = [];
  for (const [address, entry] of Object.entries(lock.resources)) {
    if (!entry.restoring || parentAddressOf(address) !== undefined) continue;
    const stamp = stampOf(entry.restoring.retireAs);
    if (stamp === undefined) {
      diagnostics.push(error(address, `the state records a restore of ${address} retiring it as "${entry.restoring.retireAs}", which is not a retired address; remove its "restoring" mark from the state`));
      continue;
    }
    if (request?.address === address && request.targetTime !== entry.restoring.targetTime) {
      diagnostics.push(
        error(
          address,
          `a restore of ${address} to ${entry.restoring.targetTime} is under way (it was interrupted); finish it with \`dbform apply\` ` +
            `(or \`dbform restore ${address} --to ${entry.restoring.targetTime}\`) before restoring it to ${request.targetTime}`,
        ),
      );
    }
    out.push({ address, targetTime: entry.restoring.targetTime, stamp, resumed: true });
  }
  if (request && !out.some((r) => r.address === request.address)) out.push({ ...request, resumed: false });
  return out;
}

function error(address: Address, message: string, code = 'restore'): Diagnostic {
  return { severity: 'error', code, address, message };
}

/** The newest retirement of `address` in the state: what its last restore left. */
function lastRetired(lock: Lockfile, address: Address): { address: Address; entry: LockEntry } | undefined {
  let last: { address: Address; entry: LockEntry } | undefined;
  for (const [a, e] of Object.entries(lock.resources)) {
    if (e.retired?.from !== address) continue;
    if (!last || (stampOf(a) ?? '') > (stampOf(last.address) ?? '')) last = { address: a, entry: e };
  }
  return last;
}

/** What stops a new restore of `r` from starting: the one line it fails with. */
function refusal(r: Restore, d: DesiredService | undefined, entry: LockEntry | undefined, original: LiveService | undefined, now: number | undefined): string | undefined {
  if (d === undefined) return `not in the config: a restore makes the fork with the config's settings, so the config must have it`;
  if (entry === undefined) return `not bound in the state: there is no service of it to restore`;
  if (entry.retired) return `a retired binding (restored from ${entry.retired.from}); restore ${entry.retired.from} instead`;
  if (original === undefined) return `bound to service ${entry.id}, which is gone or being deleted: a restore forks a live service`;
  const at = parseRfc3339(r.targetTime);
  if (at === undefined) return `--to ${r.targetTime} is not an RFC 3339 time such as 2026-03-01T12:00:00Z`;
  const created = parseRfc3339(original.created);
  if (created !== undefined && at < created) {
    return `--to ${r.targetTime} is before the service (${original.id}) was created (${original.created}): a point-in-time restore goes back at most to its creation`;
  }
  if (now !== undefined && at >= now) return `--to ${r.targetTime} is not in the past (now is ${iso(now)}): a point-in-time restore goes back to a moment that has happened`;
  return undefined;
}

/** The resources of the service at `address` that retire with it: marked ones (resumed), else live ones. */
function retiringChildren(lock: Lockfile, address: Address, index: LiveById, resumed: boolean): Address[] {
  return Object.keys(lock.resources).filter((a) => {
    if (parentAddressOf(a) !== address) return false;
    const entry = lock.resources[a]!;
    if (resumed) return entry.restoring !== undefined;
    return childKinds('service').some((k) => index[k.kind].has(entry.id));
  });
}

/**
 * The fork an interrupted run of this restore sent and never recorded: a live service of the
 * desired name forked from the original (where the API says so), bound nowhere in this state.
 */
function lostForks(name: string, originalId: string, lock: Lockfile, live: LiveState, options: PlanOptions): LiveService[] {
  const bound = new Set(Object.values(lock.resources).map((e) => e.id));
  return live.services.filter(
    (s) =>
      s.name === name &&
      s.id !== originalId &&
      !['DELETING', 'DELETED'].includes(s.status) &&
      !bound.has(s.id) &&
      !options.claimedElsewhere?.has(s.id) &&
      (s.forkedFrom === undefined || s.forkedFrom.serviceId === originalId),
  );
}

interface Working {
  desired: DesiredState;
  resources: Record<Address, LockEntry>;
  bindings: Binding[];
  noAdopt: Set<Address>;
  diagnostics: Diagnostic[];
  /** The retired services this plan keeps in its config (named by the restore, not the config). */
  ownRetired: Set<Address>;
  consulted: Set<ApiCapability>;
}

function planRestore(w: Working, r: Restore, lock: Lockfile, live: LiveState, index: LiveById, options: PlanOptions): void {
  const d = w.desired.services.find((s) => s.address === r.address);
  const entry = lock.resources[r.address];
  const original = entry && (index.service.get(entry.id) as LiveService | undefined);
  if (!r.resumed) {
    const last = lastRetired(lock, r.address);
    if (last?.entry.retired?.targetTime === r.targetTime && entry && !entry.retired) {
      w.diagnostics.push({
        severity: 'warning',
        code: 'restore-done',
        address: r.address,
        message: `${r.address} was restored to ${r.targetTime} already (its original is retired as ${last.address}); this plan applies only what the config still asks of it. To restore it again, give another time`,
      });
      return;
    }
  }
  const refused = refusal(r, d, entry, original, r.resumed ? undefined : options.now);
  if (refused !== undefined) return void w.diagnostics.push(error(r.address, refused, 'restore-refused'));
  const retireAs = retiredAddressOf(r.address, r.address, r.stamp)!;
  if (!r.resumed && (lock.resources[retireAs] || w.desired.services.some((s) => s.address === retireAs))) {
    return void w.diagnostics.push(error(r.address, `${retireAs} exists already in the ${lock.resources[retireAs] ? 'state' : 'config'}; restore again in a second`));
  }
  retire(w, r, r.address, retireAs, true);
  for (const child of retiringChildren(lock, r.address, index, r.resumed)) retire(w, r, child, retiredAddressOf(child, r.address, r.stamp)!, false);
  const protect = d!.protect ?? entry!.protect;
  if (r.resumed) bindLostFork(w, r, d!, original!, lock, live, options, protect);
  else w.noAdopt.add(r.address);
  if (r.resumed) w.diagnostics.push({ severity: 'warning', code: 'restore-resumed', address: r.address, message: `the restore of ${r.address} to ${r.targetTime} was interrupted; this plan finishes it` });
  const fork = { from: { serviceId: original!.id }, strategy: 'PITR' as const, targetTime: r.targetTime };
  // The retired original in this plan's config: only its name managed, none of its resources (they stay retired).
  const kept = {
    kind: 'service',
    address: retireAs,
    key: retiredKey(d!.key, r.stamp),
    name: options.api?.renamesServices === true ? retiredName(original!.name, r.stamp) : original!.name,
    protect: true,
    ...Object.fromEntries(childKinds('service').map((k) => [k.listKey, []])),
  } as unknown as DesiredService;
  w.ownRetired.add(retireAs);
  // Renamed where the API renames: a plan made without knowing asks (needs), then is made again.
  w.consulted.add('renamesServices');
  w.desired = {
    ...w.desired,
    services: w.desired.services.flatMap((s) => (s.address === r.address ? [kept, { ...s, fork, ...(protect !== undefined ? { protect } : {}) }] : [s])),
  };
}

/** The entry at `from` retires to `to` in this plan's view of the state, and the plan says so. */
function retire(w: Working, r: Restore, from: Address, to: Address, own: boolean): void {
  const entry = w.resources[from]!;
  delete w.resources[from];
  const protect = own || entry.protect === true;
  w.resources[to] = { id: entry.id, ...(protect ? { protect: true } : {}), retired: { from, targetTime: r.targetTime } };
  w.bindings.push({ kind: 'retire', address: to, from, id: entry.id, ...(own ? { protect: true } : {}), targetTime: r.targetTime });
}

function bindLostFork(w: Working, r: Restore, d: DesiredService, original: LiveService, lock: Lockfile, live: LiveState, options: PlanOptions, protect: boolean | undefined): void {
  const found = lostForks(d.name, original.id, lock, live, options);
  if (found.length > 1) {
    const ids = found.map((s) => s.id).sort().join(', ');
    w.diagnostics.push(error(r.address, `${found.length} live services named "${d.name}" may be the fork of the interrupted restore of ${r.address} (${ids}); bind the right one with \`dbform import ${r.address} <ID>\``));
    return;
  }
  const fork = found[0];
  if (!fork) return void w.noAdopt.add(r.address);
  w.resources[r.address] = { id: fork.id, ...(protect ? { protect: true } : {}) };
  w.bindings.push({ kind: 'adopt', address: r.address, id: fork.id, ...(protect ? { protect: true } : {}) });
}

/**
 * The config's blocks for retired bindings (to lift their protect, say) keep the live names: a
 * retired original may share its name with the service that replaced it, and the config cannot
 * rename what a restore retired.
 */
function keepRetiredNames(desired: DesiredState, resources: Record<Address, LockEntry>, index: LiveById, own: ReadonlySet<Address>): DesiredState {
  const liveName = (kind: Kind, address: Address): string | undefined => {
    const entry = resources[address];
    if (!entry?.retired || own.has(address)) return undefined;
    return (index[kind].get(entry.id) as { name?: string } | undefined)?.name;
  };
  let changed = false;
  const services = desired.services.map((s) => {
    const name = liveName('service', s.address);
    const children = childKinds('service').map((k) => [k, desiredIn(k, s) as Array<{ address: Address; name: string }>] as const);
    const renamed = children.map(([k, list]) => [k, list.map((c) => ({ ...c, name: liveName(k.kind, c.address) ?? c.name }))] as const);
    if (name === undefined && renamed.every(([, list], i) => list.every((c, j) => c.name === children[i]![1][j]!.name))) return s;
    changed = true;
    return { ...s, ...(name !== undefined ? { name } : {}), ...Object.fromEntries(renamed.map(([k, list]) => [k.listKey, list])) } as DesiredService;
  });
  return changed ? { ...desired, services } : desired;
}

/**
 * The config and state as the restores want them (see the top of this file). A destroy plans no
 * restore: it deletes what the state binds as it is.
 */
export function restoreView(desired: DesiredState, live: LiveState, lock: Lockfile, options: PlanOptions, entries: readonly ListedEntry[] = listEntries(lock), kept?: LiveById): RestoreView {
  const diagnostics: Diagnostic[] = [];
  const hasRetired = entries.some(({ entry }) => entry.retired || entry.restoring);
  if (options.deleteRetired || (!hasRetired && !options.restore)) return { desired, lock, bindings: [], noAdopt: new Set(), diagnostics, consulted: [] };
  const index = kept ?? indexLive(live, false);
  const w: Working = { desired, resources: { ...lock.resources }, bindings: [], noAdopt: new Set(), diagnostics, ownRetired: new Set(), consulted: new Set() };
  for (const r of restoresOf(lock, options.restore, diagnostics)) planRestore(w, r, lock, live, index, options);
  return {
    desired: keepRetiredNames(w.desired, w.resources, index, w.ownRetired),
    lock: { ...lock, resources: w.resources },
    bindings: w.bindings,
    noAdopt: w.noAdopt,
    diagnostics: w.diagnostics,
    consulted: [...w.consulted],
  };
}
