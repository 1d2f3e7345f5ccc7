// Dependencies between drafts (SPEC section 3 ordering rules) and the plan order: a topological
// order that prefers, among ready actions, the lowest address then the resource's op order.
import { compareAddresses, type Address, type OperationSpec } from '../model/index.js';
import { liveKey } from './context.js';
import type { Draft } from './drafts.js';
import { isCreateOp, isDeleteOp, OPERATION_IDS, OPERATIONS, opRank } from '../kinds/index.js';

export type DepGraph = Map<string, Set<string>>;


function chains(drafts: Draft[]): Map<Address, Draft[]> {
  const out = new Map<Address, Draft[]>();
  for (const d of drafts) {
    const list = out.get(d.address);
    if (list) list.push(d);
    else out.set(d.address, [d]);
  }
  for (const list of out.values()) list.sort((a, b) => opRank(a.op) - opRank(b.op));
  return out;
}

/**
 * The dependencies of SPEC section 3 from the op table and the drafts' ordering facts: a child's
 * ops wait for its parent's last ready point (or its create), and its parent's pause and delete
 * wait for them; a fork waits for its parent's ready point; a create waits for the delete that
 * frees its name; a delete waits for what frees it (detaches, children going first).
 */
export function linkDrafts(drafts: Draft[]): DepGraph {
  const byAddress = chains(drafts);
  const deps: DepGraph = new Map(drafts.map((d) => [d.key, new Set<string>()]));
  const add = (from: Draft | undefined, to: Draft | undefined) => {
    if (from && to && from !== to) deps.get(from.key)!.add(to.key);
  };
  const first = (address: Address, test: (spec: OperationSpec) => boolean) => byAddress.get(address)?.find((d) => test(OPERATIONS[d.op]));
  const createOf = (address: Address) => first(address, (s) => s.effect === 'create');
  const deleteOf = (address: Address) => first(address, (s) => s.effect === 'delete');
  const pauseOf = (address: Address) => first(address, (s) => s.wait === 'paused');
  const readyPoint = (address: Address) => byAddress.get(address)?.filter((d) => OPERATIONS[d.op].readyPoint).at(-1);
  const freeing = new Map<string, Draft[]>();
  const namesFreed = new Map<string, Draft[]>();
  for (const d of drafts) {
    if (d.frees !== undefined) pushTo(freeing, d.frees, d);
    if (d.freesName !== undefined) pushTo(namesFreed, `${d.owner ?? d.kind} ${d.freesName}`, d);
  }

  // Ops on one resource run one at a time, in plan order.
  for (const chain of byAddress.values()) for (let i = 1; i < chain.length; i++) add(chain[i], chain[i - 1]);
  for (const d of drafts) {
    if (d.needs) add(d, createOf(d.needs));
    if (d.owner) {
      if (isDeleteOp(d.op)) add(deleteOf(d.owner), d);
      else add(d, readyPoint(d.owner) ?? createOf(d.owner));
      add(pauseOf(d.owner), d);
    }
    // A name is reused only once its holder gave it up (deleted, or renamed: a restore's original).
    if (isCreateOp(d.op)) for (const f of namesFreed.get(`${d.owner ?? d.kind} ${String(d.request?.name)}`) ?? []) add(d, f);
    if (d.forkParent) {
      add(d, readyPoint(d.forkParent));
      add(pauseOf(d.forkParent), d);
    }
    if (isDeleteOp(d.op) && d.refs.target?.id !== undefined) for (const f of freeing.get(liveKey(d.kind, d.refs.target.id)) ?? []) add(d, f);
  }
  return deps;
}

/** `--target`: the named resources' drafts plus everything they depend on. */
export function selectTargets(drafts: Draft[], deps: DepGraph, targets: readonly Address[]): Set<string> {
  const wanted = new Set(targets);
  const keep = new Set<string>();
  const stack = drafts.filter((d) => wanted.has(d.address)).map((d) => d.key);
  while (stack.length > 0) {
    const key = stack.pop()!;
    if (keep.has(key)) continue;
    keep.add(key);
    for (const dep of deps.get(key) ?? []) stack.push(dep);
  }
  return keep;
}

/** Kahn's algorithm over a binary heap; returns the drafts in plan order and any left in a cycle. */
export function sortDrafts(drafts: Draft[], deps: DepGraph): { order: Draft[]; cyclic: Draft[] } {
  const addresses = [...new Set(drafts.map((d) => d.address))].sort(compareAddresses);
  const addressRank = new Map(addresses.map((a, i) => [a, i]));
  const priority = (d: Draft) => addressRank.get(d.address)! * OPERATION_IDS.length + opRank(d.op);
  const byKey = new Map(drafts.map((d) => [d.key, d]));
  const pending = new Map<string, number>();
  const dependents = new Map<string, string[]>();
  for (const d of drafts) {
    const own = [...deps.get(d.key)!].filter((k) => byKey.has(k));
    pending.set(d.key, own.length);
    for (const k of own) pushTo(dependents, k, d.key);
  }
  const heap = new MinHeap<Draft>((a, b) => priority(a) - priority(b));
  for (const d of drafts) if (pending.get(d.key) === 0) heap.push(d);
  const order: Draft[] = [];
  while (heap.size > 0) {
    const d = heap.pop();
    order.push(d);
    for (const k of dependents.get(d.key) ?? []) {
      const left = pending.get(k)! - 1;
      pending.set(k, left);
      if (left === 0) heap.push(byKey.get(k)!);
    }
  }
  const placed = new Set(order.map((d) => d.key));
  return { order, cyclic: drafts.filter((d) => !placed.has(d.key)) };
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

class MinHeap<T> {
  private readonly items: T[] = [];
  constructor(private readonly less: (a: T, b: T) => number) {}
  get size(): number {
    return this.items.length;
  }
  push(item: T): void {
    const a = this.items;
    a.push(item);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (this.less(a[i]!, a[p]!) >= 0) break;
      [a[i], a[p]] = [a[p]!, a[i]!];
      i = p;
    }
  }
  pop(): T {
    const a = this.items;
    const top = a[0]!;
    const last = a.pop()!;
    if (a.length > 0) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && this.less(a[l]!, a[m]!) < 0) m = l;
        if (r < a.length && this.less(a[r]!, a[m]!) < 0) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m]!, a[i]!];
        i = m;
      }
    }
    return top;
  }
}
