// Reads a whole project in at most 2 + V requests: the services list (which embeds every replica
// set), the VPC list, and the peerings of each VPC asked for, all in parallel (SPEC section 8).
import { setMaxListeners } from 'node:events';
import type { LiveState, LiveVpc } from '../model/resources.js';
import type { ApiClient, CallOptions } from './client.js';
import { ApiError } from './errors.js';
import { mapPeering, mapService, mapVpc } from './live-mapping.js';

export interface FetchLiveStateOptions extends CallOptions {
  /** Which VPCs' peerings to read: `'all'`, or a predicate on the VPC. Others get `peerings: undefined`. */
  peeringsOf: 'all' | ((vpc: LiveVpc) => boolean);
  /** Peering lists in flight at once; default 16. */
  concurrency?: number;
}

type ReaderClient = Pick<ApiClient, 'listServices' | 'listVPCs' | 'listVPCPeerings'>;

export async function fetchLiveState(client: ReaderClient, projectId: string, options: FetchLiveStateOptions): Promise<LiveState> {
  // The first read that fails stops its siblings: their answers are useless now, and retrying
  // them would keep the process alive long after the error is reported.
  const siblings = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, siblings.signal]) : siblings.signal;
  setMaxListeners(0, signal); // one listener per read in flight: 2 + V of them
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
  const [serviceDtos, vpcDtos] = await Promise.all([guard(() => client.listServices(projectId, call)), guard(() => client.listVPCs(projectId, call))]);
  throwIfFailed();
  const vpcs = vpcDtos!.map(mapVpc);
  const wanted = vpcs.filter((v) => options.peeringsOf === 'all' || options.peeringsOf(v));
  const gone = new Set<string>();
  await runBounded(wanted, options.concurrency ?? 16, async (vpc) => {
    if (first.failure) return;
    await guard(async () => {
      try {
        vpc.peerings = (await client.listVPCPeerings(projectId, vpc.id, call)).map((p) => mapPeering(p, vpc.id));
      } catch (err) {
        // Deleted between the two reads: it is not live any more.
        if (err instanceof ApiError && err.status === 404) gone.add(vpc.id);
        else throw err;
      }
    });
  });
  throwIfFailed();
  return {
    projectId,
    vpcs: vpcs.filter((v) => !gone.has(v.id)),
    services: serviceDtos!.map(mapService),
  };
}

/** Why a read was stopped: another read of the same live state failed first. */
class SiblingFailed extends Error {
  constructor() {
    super('stopped: another read of the live state failed');
    this.name = 'AbortError';
  }
}

async function runBounded<T>(items: T[], limit: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await run(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
