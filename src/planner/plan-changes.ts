// planChanges: the pure core. One function of its inputs: match, diff per kind, order, guard.
import { indexLiveBoth, KINDS, kindDef, OPERATIONS } from '../kinds/index.js';
import { API_CAPABILITIES, compareAddresses, type Action, type Address, type ApiCapabilities, type ApiCapability, type Binding, type DesiredState, type Diagnostic, type Kind, type LiveState, type Lockfile, type Plan } from '../model/index.js';
import { addressChecks, duplicateIdErrors, projectChecks, renameHints, unmanagedBlockers } from './checks.js';
import { liveKey, type LiveIndex, type LiveResource, type PlanContext, type PlanOptions } from './context.js';
import type { Draft } from './drafts.js';
import { fingerprintLive, fingerprintSubjects, stateFingerprint } from './fingerprint.js';
import { findDrift } from './drift.js';
import { listEntries, type ListedEntry } from './lock-entries.js';
import { matchResources } from './match.js';
import { linkDrafts, selectTargets, sortDrafts, type DepGraph } from './ordering.js';
import { withoutResends } from './pending.js';
import { forgetBindings, protectBindings, protectionSources } from './protect.js';
import { restoreView } from './restore.js';
import { findAwaiting, findSettling } from './settling.js';
import { blockReason, riskOf, type ProtectSource } from './risk.js';
import { summarize } from './summary.js';
import { twinChecks } from './twins.js';

export type { PlanOptions } from './context.js';

function newContext(desired: DesiredState, live: LiveState, lock: Lockfile, options: PlanOptions, diagnostics: Diagnostic[], noAdopt: ReadonlySet<Address>, entries: readonly ListedEntry[], index: LiveIndex): PlanContext {
  const matching = matchResources(desired, lock, index, diagnostics, {
    ...(options.claimedElsewhere ? { claimedElsewhere: options.claimedElsewhere } : {}),
    noAdopt,
    entries,
    ...(options.deleteRetired ? { deleteRetired: true } : {}),
  });
  const liveIds = new Map<Address, string>();
  for (const def of KINDS) for (const m of matching.matches[def.kind]) if (m.live) liveIds.set(m.address, (m.live as LiveResource).id);
  // What this plan deletes: removed ones now, replaced ones as their kind plans them.
  const going = new Map<string, { address: Address; replaced: boolean }>();
  for (const r of matching.removed) {
    if (!r.live) continue;
    liveIds.set(r.address, r.live.id);
    going.set(liveKey(r.kind, r.live.id), { address: r.address, replaced: false });
  }
  let bound: Record<Kind, Map<string, Address>> | undefined;
  const boundTo = (kind: Kind, id: string) => (bound ??= boundAddresses(matching))[kind].get(id);
  return { desired, live, lock, options, index, matching, diagnostics, fresh: new Map(), going, liveIds, boundTo, operations: OPERATIONS, api: options.api ?? {}, consulted: new Set() };
}

/** By kind, the ID of each matched live resource -> the desired address it is bound to. */
function boundAddresses(matching: PlanContext['matching']): Record<Kind, Map<string, Address>> {
  const out = Object.fromEntries(KINDS.map((k) => [k.kind, new Map<string, Address>()])) as Record<Kind, Map<string, Address>>;
  for (const def of KINDS) for (const m of matching.matches[def.kind]) if (m.live) out[def.kind].set((m.live as LiveResource).id, m.address);
  return out;
}

/** Each kind's desired resources (parents' kinds first), its removed ones, then what wraps them all. */
function planAll(ctx: PlanContext): Draft[] {
  const { matching } = ctx;
  const out: Draft[] = [];
  for (const def of KINDS) {
    const matches = def.plan.order ? def.plan.order(matching.matches[def.kind], ctx) : matching.matches[def.kind];
    for (const m of matches) if (!matching.skipped.has(m.address)) out.push(...def.plan.planDesired(m, ctx));
  }
  for (const r of matching.removed) if (r.live) out.push(...kindDef(r.kind).plan.planRemoved(r, r.live, ctx));
  unmanagedBlockers(ctx);
  for (const def of KINDS) if (def.plan.finish) out.push(...def.plan.finish(ctx, out));
  return out;
}

function toActions(order: Draft[], deps: DepGraph, protectedBy: Map<Address, ProtectSource>, allowDataLoss: boolean): Action[] {
  const ids = new Map(order.map((d, i) => [d.key, `a${i + 1}`]));
  return order.map((d) => {
    const risk = riskOf(d);
    const blocked = blockReason(d, risk, protectedBy, allowDataLoss);
    const dependsOn = [...deps.get(d.key)!].filter((k) => ids.has(k)).map((k) => ids.get(k)!);
    dependsOn.sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));
    const action: Action = { id: ids.get(d.key)!, address: d.address, kind: d.kind, op: d.op, reason: d.reason, risk, dependsOn, changes: d.changes, refs: d.refs };
    if (blocked !== undefined) action.blocked = blocked;
    if (d.request !== undefined) action.request = d.request;
    if (d.password !== undefined) action.password = d.password;
    if (d.protect !== undefined) action.protect = d.protect;
    return action;
  });
}

const BINDING_ORDER: Record<Binding['kind'], number> = { retire: 0, move: 1, adopt: 2, protect: 3, forget: 4 };

function sortBindings(bindings: Binding[]): Binding[] {
  return [...bindings].sort((a, b) => compareAddresses(a.address, b.address) || BINDING_ORDER[a.kind] - BINDING_ORDER[b.kind]);
}

function sortDiagnostics(list: Diagnostic[]): Diagnostic[] {
  const rank = (d: Diagnostic) => (d.severity === 'error' ? 0 : 1);
  return [...list].sort(
    (a, b) =>
      rank(a) - rank(b) ||
      (a.address === undefined ? 1 : 0) - (b.address === undefined ? 1 : 0) ||
      compareAddresses(a.address ?? '', b.address ?? '') ||
      (a.message < b.message ? -1 : a.message > b.message ? 1 : 0),
  );
}

/** A plan refused before matching: no action, no binding, only the errors that say why. */
function nothingPlanned(desired: DesiredState, diagnostics: Diagnostic[]): Plan {
  return {
    formatVersion: 1,
    projectId: desired.projectId,
    summary: summarize([], [], 0, 0, 0),
    actions: [],
    bindings: [],
    settling: [],
    fingerprints: {},
    stateFingerprint: stateFingerprint({}),
    diagnostics: sortDiagnostics(diagnostics),
  };
}

/**
 * The plan that brings `live` to `desired` (SPEC sections 2 and 3). Pure: no I/O, clock,
 * randomness or colour; the same inputs give the same plan. Problems that make the plan unusable
 * are returned as error diagnostics, never thrown.
 */
export function planChanges(config: DesiredState, live: LiveState, state: Lockfile, options: PlanOptions): Plan {
  const diagnostics: Diagnostic[] = [];
  projectChecks(config, live, state, diagnostics);
  const listed = listEntries(state);
  const duplicates = duplicateIdErrors(listed);
  if (duplicates.length > 0) return nothingPlanned(config, [...diagnostics, ...duplicates]);
  // Drift reads every live resource; restores, the plan and its fingerprints those not on their
  // way out: usually one index.
  const indexes = indexLiveBoth(live);
  // A restore is the config and the state as it wants them (restore.ts), planned like any other.
  const restore = restoreView(config, live, state, options, listed, indexes.kept);
  diagnostics.push(...restore.diagnostics);
  if (restore.diagnostics.some((d) => d.severity === 'error')) return nothingPlanned(config, diagnostics);
  const { desired, lock } = restore;
  // The state is listed once, again only when a restore changed it.
  const entries = lock === state ? listed : listEntries(lock);
  const ctx = newContext(desired, live, lock, options, diagnostics, restore.noAdopt, entries, indexes.kept as LiveIndex);
  for (const c of restore.consulted) ctx.consulted.add(c);
  addressChecks(ctx);
  const drafts = withoutResends(ctx, planAll(ctx));
  twinChecks(ctx);
  renameHints(ctx);
  const deps = linkDrafts(drafts);
  const selected = options.target.length > 0 ? selectTargets(drafts, deps, options.target) : undefined;
  const kept = selected ? drafts.filter((d) => selected.has(d.key)) : drafts;
  const { order, cyclic } = sortDrafts(kept, deps);
  if (cyclic.length > 0) {
    diagnostics.push({ severity: 'error', code: 'internal-cycle', message: `internal error: a dependency cycle among ${cyclic.map((d) => d.key).join(', ')}; please report this` });
  }
  const drafted = [...order, ...cyclic];
  // What protects each resource matters only to an action (most plans have none at 10,000 services).
  const actions = drafted.length === 0 ? [] : toActions(drafted, deps, protectionSources(ctx), options.allowDataLoss);
  const allBindings = [...restore.bindings, ...ctx.matching.bindings, ...protectBindings(ctx), ...forgetBindings(ctx)];
  const keptAddresses = new Set([...options.target, ...kept.map((d) => d.address)]);
  const bindings = sortBindings(selected ? allBindings.filter((b) => keptAddresses.has(b.address)) : allBindings);
  const touched = new Set([...drafts.map((d) => d.address), ...allBindings.filter((b) => b.kind !== 'forget').map((b) => b.address)]);
  const inTarget = (a: Address) => !selected || keptAddresses.has(a);
  const settling = findSettling(ctx, inTarget);
  const awaiting = findAwaiting(ctx, inTarget);
  const stillChanging = new Set(settling.map((s) => s.address));
  // The desired resources less those touched, still changing or skipped: counted over those few
  // sets, not by three lookups for each of the config's resources.
  const notUnchanged = new Set<Address>();
  for (const set of [touched, stillChanging, ctx.matching.skipped]) for (const a of set) if (ctx.matching.wanted.has(a)) notUnchanged.add(a);
  const unchanged = ctx.matching.wanted.size - notUnchanged.size;
  const fingerprints = fingerprintLive(live, fingerprintSubjects({ actions, bindings }), indexes.kept);
  const drift = findDrift(live, lock, entries, indexes.all);
  const { api, needs } = apiOf(ctx);
  return {
    formatVersion: 1,
    projectId: desired.projectId,
    summary: summarize(actions, bindings, unchanged, ctx.matching.unmanaged, settling.length),
    actions,
    bindings,
    settling,
    ...(awaiting.length > 0 ? { awaiting } : {}),
    fingerprints,
    stateFingerprint: stateFingerprint(fingerprints),
    diagnostics: sortDiagnostics(diagnostics),
    ...(drift.length > 0 ? { drift } : {}),
    ...(api ? { api } : {}),
    ...(needs.length > 0 ? { needs } : {}),
  };
}

/** What the plan was made for: the capabilities that decided a change, known or still needed. */
function apiOf(ctx: PlanContext): { api?: ApiCapabilities; needs: ApiCapability[] } {
  const known: ApiCapabilities = {};
  const needs: ApiCapability[] = [];
  for (const c of API_CAPABILITIES) {
    if (!ctx.consulted.has(c)) continue;
    if (ctx.api[c] === undefined) needs.push(c);
    else known[c] = ctx.api[c];
  }
  return { ...(Object.keys(known).length > 0 ? { api: known } : {}), needs };
}
