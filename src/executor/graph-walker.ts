// Walks the plan's DAG (Terraform's dag walker in miniature): bounded concurrency, dependents of
// a failed action skipped with the root cause, independent branches continuing, nothing new
// started once the signal aborts. Knows nothing about the API.
//
// `parallelism` bounds the actions holding a slot: an action takes one to start and gives it up
// while it is idle (SPEC section 5: waiting for an operation costs no request of its own, so a
// waiting action does not count). An action back from idling takes the next free slot before any
// new action starts.
import type { Action } from '../model/index.js';
import type { SkipReason } from './events.js';

export interface Slot {
  /** Runs `work` (a wait) without holding the slot; resolves once the action holds one again. */
  idle<T>(work: () => Promise<T>): Promise<T>;
}

export interface WalkOptions {
  parallelism: number;
  signal?: AbortSignal;
  /** Runs one action; resolving means done, rejecting means failed. */
  run(action: Action, slot: Slot): Promise<void>;
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
  const walk = new Walk(buildNodes(actions), options);
  const onAbort = () => walk.pump();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    walk.pump();
    await walk.finished;
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
  }
}

class Walk {
  private readonly parallelism: number;
  /** Kept sorted by plan index so ready actions start in plan order. */
  private readonly ready: NodeState[];
  /** Actions holding a slot. */
  private running = 0;
  /** Actions back from idling, waiting for a slot (served before new actions start). */
  private readonly resuming: Array<() => void> = [];
  private unsettled: number;
  private settle!: () => void;
  readonly finished = new Promise<void>((resolve) => (this.settle = resolve));

  constructor(
    private readonly nodes: NodeState[],
    private readonly options: WalkOptions,
  ) {
    this.parallelism = Math.max(1, Math.floor(options.parallelism));
    this.ready = nodes.filter((n) => n.waitingOn === 0);
    this.unsettled = nodes.length;
  }

  pump(): void {
    const aborted = () => this.options.signal?.aborted === true;
    if (aborted()) for (const node of this.nodes) this.skip(node, 'interrupted');
    while (this.running < this.parallelism && this.resuming.length > 0) {
      this.running++;
      this.resuming.shift()!();
    }
    while (!aborted() && this.running < this.parallelism && this.ready.length > 0) {
      const node = this.ready.shift()!;
      node.state = 'running';
      this.running++;
      void this.runNode(node);
    }
    if (this.unsettled === 0 && this.running === 0) this.settle();
  }

  private async runNode(node: NodeState): Promise<void> {
    let outcome: 'done' | 'failed' = 'done';
    try {
      await this.options.run(node.action, this.slotOfAction());
    } catch {
      outcome = 'failed';
    }
    this.running--;
    this.settleNode(node, outcome);
    this.pump();
  }

  /** The slot of one action; idling twice at once (a wait within a wait) gives it up once. */
  private slotOfAction(): Slot {
    let holding = true;
    return {
      idle: async (work) => {
        if (!holding) return work();
        holding = false;
        this.running--;
        this.pump();
        try {
          return await work();
        } finally {
          await new Promise<void>((resume) => {
            this.resuming.push(resume);
            this.pump();
          });
          holding = true;
        }
      },
    };
  }

  private markReady(node: NodeState): void {
    const at = this.ready.findIndex((r) => r.index > node.index);
    this.ready.splice(at === -1 ? this.ready.length : at, 0, node);
  }

  private release(node: NodeState): void {
    if (node.state !== 'pending') return;
    node.waitingOn--;
    if (node.waitingOn === 0) this.markReady(node);
  }

  private settleNode(node: NodeState, state: 'done' | 'failed' | 'skipped'): void {
    node.state = state;
    this.unsettled--;
    for (const f of node.followers) this.release(f);
    if (state === 'done') for (const d of node.dependents) this.release(d);
    else if (state === 'failed') for (const d of node.dependents) this.skip(d, 'upstream-failed', node.action);
    else for (const d of node.dependents) this.skip(d, node.skipReason ?? 'upstream-failed', node.root);
  }

  private skip(node: NodeState, reason: SkipReason, root?: Action): void {
    if (node.state !== 'pending') return;
    const at = this.ready.indexOf(node);
    if (at !== -1) this.ready.splice(at, 1);
    node.root = root;
    node.skipReason = reason;
    this.options.onSkip(node.action, reason, root);
    this.settleNode(node, 'skipped');
  }
}
