// Walks the plan's DAG (Terraform's dag walker in miniature): bounded concurrency, dependents of
// a failed action skipped with the root cause, independent branches continuing, nothing new
// started once the signal aborts. Knows nothing about the API.
import type { Action } from '../model/index.js';
import type { SkipReason } from './events.js';

export interface WalkOptions {
  parallelism: number;
  signal?: AbortSignal;
  /** Runs one action; resolving means done, rejecting means failed. */
  run(action: Action): Promise<void>;
  /** An action that will not run; `root` is the failed action that caused it, if any. */
  onSkip(action: Action, reason: SkipReason, root?: Action): void;
}

interface NodeState {
  action: Action;
  index: number;
  /** Explicit dependencies (failure propagates) plus the previous action on the same resource. */
  waitingOn: number;
  dependents: NodeState[];
  /** Later actions on the same address: ordered after this one, but run even if it fails. */
  followers: NodeState[];
  state: 'pending' | 'running' | 'done' | 'failed' | 'skipped';
  /** The failed action behind a skip, and why the skip happened. */
  root?: Action;
  skipReason?: SkipReason;
}

/** Throws on an unknown dependency or a cycle, before anything runs. */
function buildNodes(actions: Action[]): NodeState[] {
  const nodes = actions.map((action, index): NodeState => ({ action, index, waitingOn: 0, dependents: [], followers: [], state: 'pending' }));
  const byId = new Map(nodes.map((n) => [n.action.id, n]));
  const lastOnAddress = new Map<string, NodeState>();
  for (const node of nodes) {
    for (const depId of new Set(node.action.dependsOn)) {
      const dep = byId.get(depId);
      if (!dep) throw new Error(`action ${node.action.id} (${node.action.address}) depends on unknown action ${depId}`);
      dep.dependents.push(node);
      node.waitingOn++;
    }
    // Ops on one resource run one at a time, in plan order (SPEC section 3).
    const previous = lastOnAddress.get(node.action.address);
    if (previous && !node.action.dependsOn.includes(previous.action.id)) {
      previous.followers.push(node);
      node.waitingOn++;
    }
    lastOnAddress.set(node.action.address, node);
  }
  assertAcyclic(nodes);
  return nodes;
}

function assertAcyclic(nodes: NodeState[]): void {
  const remaining = new Map(nodes.map((n) => [n, n.waitingOn]));
  const queue = nodes.filter((n) => n.waitingOn === 0);
  let seen = 0;
  while (queue.length > 0) {
    const n = queue.pop()!;
    seen++;
    for (const next of [...n.dependents, ...n.followers]) {
      const left = remaining.get(next)! - 1;
      remaining.set(next, left);
      if (left === 0) queue.push(next);
    }
  }
  if (seen !== nodes.length) {
    const stuck = nodes.filter((n) => remaining.get(n)! > 0).map((n) => n.action.id);
    throw new Error(`the plan's dependencies form a cycle among actions ${stuck.join(', ')}`);
  }
}

export async function walkGraph(actions: Action[], options: WalkOptions): Promise<void> {
  const nodes = buildNodes(actions);
  const parallelism = Math.max(1, Math.floor(options.parallelism));
  // Kept sorted by plan index so ready actions start in plan order.
  const ready: NodeState[] = nodes.filter((n) => n.waitingOn === 0);
  let running = 0;
  let settle!: () => void;
  const finished = new Promise<void>((resolve) => (settle = resolve));
  let unsettled = nodes.length;

  const markReady = (node: NodeState) => {
    const at = ready.findIndex((r) => r.index > node.index);
    ready.splice(at === -1 ? ready.length : at, 0, node);
  };
  const release = (node: NodeState) => {
    if (node.state !== 'pending') return;
    node.waitingOn--;
    if (node.waitingOn === 0) markReady(node);
  };
  const settleNode = (node: NodeState, state: 'done' | 'failed' | 'skipped') => {
    node.state = state;
    unsettled--;
    for (const f of node.followers) release(f);
    if (state === 'done') for (const d of node.dependents) release(d);
    else if (state === 'failed') for (const d of node.dependents) skip(d, 'upstream-failed', node.action);
    else for (const d of node.dependents) skip(d, node.skipReason ?? 'upstream-failed', node.root);
  };
  const skip = (node: NodeState, reason: SkipReason, root?: Action) => {
    if (node.state !== 'pending') return;
    const at = ready.indexOf(node);
    if (at !== -1) ready.splice(at, 1);
    node.root = root;
    node.skipReason = reason;
    options.onSkip(node.action, reason, root);
    settleNode(node, 'skipped');
  };
  const pump = () => {
    if (options.signal?.aborted) {
      for (const node of nodes) skip(node, 'interrupted');
    }
    while (!options.signal?.aborted && running < parallelism && ready.length > 0) {
      const node = ready.shift()!;
      node.state = 'running';
      running++;
      void runNode(node);
    }
    if (unsettled === 0 && running === 0) settle();
  };
  const runNode = async (node: NodeState) => {
    let outcome: 'done' | 'failed' = 'done';
    try {
      await options.run(node.action);
    } catch {
      outcome = 'failed';
    }
    running--;
    settleNode(node, outcome);
    pump();
  };

  const onAbort = () => pump();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    pump();
    await finished;
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
  }
}
