// Reads a whole project in at most 2 + V requests: the services list (which embeds every replica
// set), the VPC list, and the peerings of each VPC asked for, all in parallel (SPEC section 8).
// Where the services list does not embed `read_replica_sets` (the real API may leave it out, SPEC
// section 12), the replica sets of each service asked for are read with `GET .../replicaSets`:
// 2 + V + M requests for M such services.
import { setMaxListeners } from 'node:events';
import type { LiveService, LiveState, LiveVpc } from '../model/resources.js';
import type { ApiClient, CallOptions } from './client.js';
import type { ServiceDto } from './dto.js';
import { ApiError } from './errors.js';
import { embedsReplicaSets, mapPeering, mapReplicaSet, mapService, mapVpc } from './live-mapping.js';

export interface FetchLiveStateOptions extends CallOptions {
  /** Which VPCs' peerings to read: `'all'`, or a predicate on the VPC. Others get `peerings: undefined`. */
  peeringsOf: 'all' | ((vpc: LiveVpc) => boolean);
  /**
   * Whose replica sets to read when the list does not embed them: `'all'` (default), or a predicate
   * (the services a config manages). Others keep `replicaSets: []`.
   */
  replicaSetsOf?: 'all' | ((svc: LiveService) => boolean);
  /** Lists in flight at once after the first two; default 16. */
  concurrency?: number;
}

type ReaderClient = Pick<ApiClient, 'listServices' | 'listVPCs' | 'listVPCPeerings' | 'listReplicaSets'> & Partial<Pick<ApiClient, 'noteOnce'>>;

export const CHEAP_PATH_NOTE =
  'the services list does not embed read_replica_sets; reading GET .../replicaSets for each managed service instead (one request each)';

export async function fetchLiveState(client: ReaderClient, projectId: string, options: FetchLiveStateOptions): Promise<LiveState> {
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
  const [serviceDtos, vpcDtos] = await Promise.all([guard(() => client.listServices(projectId, call)), guard(() => client.listVPCs(projectId, call))]);
  throwIfFailed();
  const vpcs = vpcDtos!.map(mapVpc);
  const services = serviceDtos!.map(mapService);
  const gone = new Set<string>();
  /** Reads one list; a 404 means its owner was deleted between the two reads: it is not live any more. */
  const readOwned = async (ownerId: string, read: () => Promise<void>) => {
    if (first.failure) return;
    await guard(async () => {
      try {
        await read();
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) gone.add(ownerId);
        else throw err;
      }
    });
  };
  const tasks: Array<() => Promise<void>> = [];
  for (const vpc of vpcs.filter((v) => options.peeringsOf === 'all' || options.peeringsOf(v))) {
    tasks.push(() => readOwned(`vpc:${vpc.id}`, async () => {
      vpc.peerings = (await client.listVPCPeerings(projectId, vpc.id, call)).map((p) => mapPeering(p, vpc.id));
    }));
  }
  for (const svc of servicesMissingReplicaSets(serviceDtos!, services, options.replicaSetsOf ?? 'all')) {
    client.noteOnce?.(CHEAP_PATH_NOTE);
    tasks.push(() => readOwned(`service:${svc.id}`, async () => {
      svc.replicaSets = (await client.listReplicaSets(projectId, svc.id, call)).map((r) => mapReplicaSet(r, svc.id));
    }));
  }
  await runBounded(tasks, options.concurrency ?? 16);
  throwIfFailed();
  return {
    projectId,
    vpcs: vpcs.filter((v) => !gone.has(`vpc:${v.id}`)),
    services: services.filter((s) => !gone.has(`service:${s.id}`)),
  };
}

/** The services whose list item lacks `read_replica_sets` and whose replica sets are wanted. */
function servicesMissingReplicaSets(dtos: ServiceDto[], services: LiveService[], wanted: 'all' | ((svc: LiveService) => boolean)): LiveService[] {
  return services.filter((svc, i) => !embedsReplicaSets(dtos[i]!) && (wanted === 'all' || wanted(svc)));
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
