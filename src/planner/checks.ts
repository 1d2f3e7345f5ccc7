// Plan-level problems reported as diagnostics (Terraform's tfdiags): collected, never thrown; and
// the problems of the lockfile itself that make any plan from it wrong (SPEC section 2).
import { childKinds, desiredIn, KINDS, liveIn, TOP_KINDS } from '../kinds/index.js';
import { addressForms, compareAddresses, kindOf, nounOf, parseAddress, type Address, type DesiredState, type Diagnostic, type Kind, type LiveState, type Lockfile } from '../model/index.js';
import { liveKey, type PlanContext } from './context.js';
import type { ListedEntry } from './lock-entries.js';

export function projectChecks(desired: DesiredState, live: LiveState, lock: Lockfile, diagnostics: Diagnostic[]): void {
  if (live.projectId !== desired.projectId) {
    diagnostics.push({ severity: 'error', code: 'project', message: `the live state is of project "${live.projectId}" but the config targets "${desired.projectId}"` });
  }
  if (lock.projectId !== desired.projectId) {
    diagnostics.push({
      severity: 'error',
      code: 'project',
      message: `the lockfile belongs to project "${lock.projectId}" but the config targets "${desired.projectId}"; use --lockfile to point at the right one`,
    });
  }
}

/** `--replace` and `--target` must name resources the config (or, for targets, the lockfile) knows. */
export function addressChecks(ctx: PlanContext): void {
  const { wanted } = ctx.matching;
  const known = new Set([...wanted, ...ctx.matching.removed.map((r) => r.address), ...ctx.matching.retired.map((r) => r.address)]);
  for (const a of ctx.options.replace) {
    if (parseAddress(a) === undefined) ctx.diagnostics.push(badAddress('--replace', a));
    else if (!wanted.has(a)) ctx.diagnostics.push({ severity: 'error', code: 'replace-address', message: `--replace ${a}: no such resource in the config` });
    else if (!ctx.liveIds.has(a) && !ctx.matching.skipped.has(a)) {
      ctx.diagnostics.push({ severity: 'warning', code: 'replace-address', address: a, message: `--replace ${a}: it does not exist yet, so it is simply created` });
    }
  }
  for (const a of ctx.options.target) {
    if (parseAddress(a) === undefined) ctx.diagnostics.push(badAddress('--target', a));
    else if (!known.has(a)) ctx.diagnostics.push({ severity: 'error', code: 'target-address', message: `--target ${a}: no such resource in the config or the state` });
  }
  if (ctx.options.target.length > 0) {
    ctx.diagnostics.push({
      severity: 'warning',
      code: 'target',
      message: '--target is in effect: this plan covers only the targeted resources and what they depend on; run a full plan afterwards',
    });
  }
}

function badAddress(flag: string, a: string): Diagnostic {
  return {
    severity: 'error',
    code: 'address',
    message: `${flag} ${JSON.stringify(a)}: not an address (${addressForms('short')})`,
  };
}

/**
 * A resource this plan deletes or replaces must first lose the children whose kind blocks its
 * delete (blocksParentDelete); ones dbform does not manage would make the delete fail (409), so
 * the plan says so now.
 */
export function unmanagedBlockers(ctx: PlanContext): void {
  if (ctx.going.size === 0) return;
  const managed = new Set<string>();
  for (const [address, id] of ctx.liveIds) managed.add(liveKey(kindOf(address)!, id));
  for (const def of KINDS) {
    const blocking = childKinds(def.kind).filter((c) => c.blocksParentDelete);
    if (blocking.length === 0) continue;
    for (const [id, parent] of ctx.index[def.kind]) {
      const going = ctx.going.get(liveKey(def.kind, id));
      if (!going) continue;
      for (const child of blocking) {
        for (const c of liveIn(child, parent) ?? []) {
          // One already on its way out holds the delete only until it is gone: apply waits for it.
          if (managed.has(liveKey(child.kind, c.id)) || child.live.gone(c)) continue;
          ctx.diagnostics.push({
            severity: 'error',
            code: `${def.kind}-blocked`,
            address: going.address,
            message: `cannot delete the live ${nounOf(def.kind)} ${id}: it has a ${nounOf(child.kind)} ${child.live.describe!(c)} that dbform does not manage; add it to the config or delete it first`,
          });
        }
      }
    }
  }
}

/**
 * A key renamed without keeping the name (the name defaults to the key) plans a delete and a
 * create: legal (SPEC section 2), but rarely meant. Say how to make it a move.
 */
export function renameHints(ctx: PlanContext): void {
  for (const def of TOP_KINDS) {
    const kind = def.kind;
    const desired = desiredIn(def, ctx.desired) as Array<{ address: string }>;
    const created = desired.filter((d) => ctx.fresh.get(d.address) === 'missing').map((d) => d.address);
    if (created.length === 0) continue;
    const list = created.length > 3 ? `${created.slice(0, 3).join(', ')} and ${created.length - 3} more` : created.join(', ');
    for (const r of ctx.matching.removed) {
      if (r.kind !== kind || !r.live || !('name' in r.live)) continue;
      ctx.diagnostics.push({
        severity: 'warning',
        code: 'rename-hint',
        address: r.address,
        message:
          `deleted while ${list} ${created.length === 1 ? 'is' : 'are'} created: if you renamed its key, keep the live name with name: ${JSON.stringify(r.live.name)} ` +
          `under the new key, or add a moved: entry from ${r.address}, so the plan only moves its binding in the state`,
      });
    }
  }
}

/**
 * One ID bound to two addresses of one kind. Planning on would act on the resource twice (delete
 * it for one address while updating it for the other, or delete the wrong one), so nothing is
 * planned: one error per ID, naming every address that binds it.
 */
export function duplicateIdErrors(entries: readonly ListedEntry[]): Diagnostic[] {
  // The first address of each ID by kind; a `kind:id` key and a list only for an ID seen again.
  const first = new Map<Kind, Map<string, Address>>();
  const duplicated = new Map<string, Address[]>();
  for (const { address, kind, entry } of entries) {
    if (kind === undefined) continue;
    const id = entry.id;
    let byId = first.get(kind);
    if (!byId) first.set(kind, (byId = new Map()));
    const earlier = byId.get(id);
    if (earlier === undefined) {
      byId.set(id, address);
      continue;
    }
    const key = `${kind}:${id}`;
    const list = duplicated.get(key);
    if (list) list.push(address);
    else duplicated.set(key, [earlier, address]);
  }
  const out: Diagnostic[] = [];
  for (const [key, addresses] of [...duplicated].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const [kind, id] = [key.slice(0, key.indexOf(':')) as Kind, key.slice(key.indexOf(':') + 1)];
    const sorted = [...addresses].sort(compareAddresses);
    const list = `${sorted.length === 2 ? 'both ' : ''}${sorted.slice(0, -1).join(', ')} and ${sorted[sorted.length - 1]}`;
    out.push({
      severity: 'error',
      code: 'duplicate-id',
      message:
        `the state binds ${nounOf(kind)} ID ${id} to ${list}; one resource can have one address only, so nothing is planned: ` +
        `remove the wrong binding with \`dbform state rm ADDR\` (bind an address to another resource with \`dbform import ADDR ID\`)`,
    });
  }
  return out;
}
