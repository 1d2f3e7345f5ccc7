// Reads a whole project in at most 2 + V requests (SPEC section 8): each top kind's list, and
// the list of each parent whose list does not carry its children (a VPC's), all in parallel.
// Where a list that usually carries its children leaves them out (the real API may, SPEC section
// 12), those of each parent asked for are read on their own: 2 + V + M requests for M such
// parents. What each kind lists, maps and carries, its folder says (src/kinds/<kind>: `read`).
import { setMaxListeners } from 'node:events';
import { attachLive, childKinds, mapLive, TOP_KINDS, type AnyKind } from '../kinds/index.js';
import type { Kind } from '../model/address.js';
import type { LiveState } from '../model/resources.js';
import type { ApiClient, CallOptions } from './client.js';
import { ApiError } from './errors.js';

/** Which parents' lists of a kind to read where the parent's own list does not carry them. */
export type ParentFilter = 'all' | ((parent: never) => boolean);

export interface FetchLiveStateOptions extends CallOptions {
  /**
   * By kind (one with a parent): `'all'` (the default), or a predicate on the live parent (the
   * parents a config manages). A parent left out holds what its kind's `read.unread` says.
   */
  childrenOf?: Partial<Record<Kind, ParentFilter>>;
  /** Lists in flight at once after the first ones; default 16. */
  concurrency?: number;
}

/** The API client, or any object with the list methods the kinds name (tests pass a few of them). */
export type LiveReader = object & Partial<Pick<ApiClient, 'noteOnce'>>;

type ListCall = (projectId: string, ...rest: unknown[]) => Promise<unknown[]>;

/** Calls the client's list method of `def`: the project's, or one parent's. */
export function listOf(client: LiveReader, def: AnyKind, projectId: string, ...rest: unknown[]): Promise<unknown[]> {
  const list = (client as Record<string, unknown>)[def.read.list] as ListCall | undefined;
  if (list === undefined) throw new Error(`the API reader has no ${def.read.list}`);
  return list.call(client, projectId, ...rest);
}

type Live = { id: string };

export async function fetchLiveState(client: LiveReader, projectId: string, options: FetchLiveStateOptions = {}): Promise<LiveState> {
  // The first read that fails stops its siblings: their answers are useless now, and retrying
  // them would keep the process alive long after the error is reported.
  const siblings = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, siblings.signal]) : siblings.signal;
  setMaxListeners(0, signal); // one listener per read in flight: 2 + V (+ M) of them
  const call = { signal };
  const first: { failure?: { error: unknown } } = {};
  const throwIfFailed = () => {
    if (first.failure) throw first.failure.error;
  };
  const guard = async <T>(read: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await read();
    } catch (err) {
      // A sibling stopped by the first failure (not by the caller's signal) is not a failure of its own.
      if (!(siblings.signal.aborted && err === siblings.signal.reason)) first.failure ??= { error: err };
      siblings.abort(new SiblingFailed());
      return undefined;
    }
  };
  const lists = await Promise.all(TOP_KINDS.map((def) => guard(() => listOf(client, def, projectId, call))));
  throwIfFailed();
  const gone = new Set<string>();
  /** Reads one list; a 404 means its owner was deleted between the two reads: it is not live any more. */
  const readOwned = async (owner: string, read: () => Promise<void>) => {
    if (first.failure) return;
    await guard(async () => {
      try {
        await read();
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) gone.add(owner);
        else throw err;
      }
    });
  };
  const tasks: Array<() => Promise<void>> = [];
  const tops = TOP_KINDS.map((def, i) => {
    const dtos = lists[i]!;
    const resources = dtos.map((dto) => mapLive(def.kind, dto));
    for (const child of childKinds(def.kind)) {
      const wanted = options.childrenOf?.[child.kind] ?? 'all';
      resources.forEach((parent, n) => {
        if (child.read.embedded?.(dtos[n]) !== undefined || (wanted !== 'all' && !wanted(parent as never))) return;
        if (child.read.unembeddedNote !== undefined) client.noteOnce?.(child.read.unembeddedNote);
        tasks.push(() =>
          readOwned(`${def.kind}:${parent.id}`, async () => {
            const children = (await listOf(client, child, projectId, parent.id, call)).map((c) => mapLive(child.kind, c, parent.id));
            attachLive(child, parent, children);
          }),
        );
      });
    }
    return resources;
  });
  await runBounded(tasks, options.concurrency ?? 16);
  throwIfFailed();
  const state: Record<string, unknown> = { projectId };
  TOP_KINDS.forEach((def, i) => (state[def.listKey] = tops[i]!.filter((r: Live) => !gone.has(`${def.kind}:${r.id}`))));
  return state as unknown as LiveState;
}

/** Why a read was stopped: another read of the same live state failed first. */
class SiblingFailed extends Error {
  constructor() {
    super('stopped: another read of the live state failed');
    this.name = 'AbortError';
  }
}

async function runBounded(tasks: Array<() => Promise<void>>, limit: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) await tasks[next++]!();
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
}
