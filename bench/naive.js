// The naive reference the figures are compared with: how a per-resource tool talks to the same
// API, built here from dbform's own client so that only the strategy differs.
// - readLiveNaive: list the IDs, then one GET per service, VPC and peering, and the replica sets
//   through one list per service (there is no GET of a single replica set), at most
//   `concurrency` requests in flight (10, Terraform's default parallelism).
// - naiveWaits: an ExecutorWaits that polls each waiting resource with its own GET per tick
//   (dbform's own look schedule, src/api/poll-schedule.ts), whatever the number of waits. With `applyPlan(..., { parallelism: 1, waits: naiveWaits })` the
//   real engine becomes a one-operation-at-a-time applier.
import { setTimeout as sleep } from 'node:timers/promises';
import { mapLive } from '../dist/kinds/index.js';
import { LookSchedule } from '../dist/api/poll-schedule.js';

async function mapBounded(items, limit, run) {
  const out = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await run(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** The live state (same shape as fetchLiveState's), read one resource at a time. */
export async function readLiveNaive(client, projectId, { concurrency = 10 } = {}) {
  const [serviceList, vpcList] = [await client.listServices(projectId), await client.listVPCs(projectId)];
  const services = await mapBounded(serviceList.map((s) => String(s.service_id)), concurrency, async (id) => {
    const dto = await client.getService(projectId, id);
    const replicaSets = await client.listReplicaSets(projectId, id);
    return mapLive('service', { ...dto, read_replica_sets: replicaSets });
  });
  const vpcs = await mapBounded(vpcList.map((v) => String(v.id)), concurrency, async (vpcId) => {
    const vpc = mapLive('vpc', await client.getVPC(projectId, vpcId));
    const peeringIds = (await client.listVPCPeerings(projectId, vpcId)).map((p) => String(p.id));
    vpc.peerings = [];
    for (const id of peeringIds) vpc.peerings.push(mapLive('peering', await client.getVPCPeering(projectId, vpcId, id), vpcId));
    return vpc;
  });
  return { projectId, vpcs, services };
}

// By status, not class: ApiError of dist/ and of src/ (in tests) are different classes.
const isNotFound = (err) => typeof err === 'object' && err !== null && err.status === 404;

/** Polls `read` until `check` holds: one request per look, dbform's look schedule. */
async function pollUntil(read, check, { pollMs, timeoutMs, what }) {
  const deadline = Date.now() + timeoutMs;
  const schedule = new LookSchedule(pollMs, Date.now(), false);
  for (;;) {
    await sleep(Math.max(0, schedule.dueAt - Date.now()));
    const at = Date.now();
    const verdict = check(await read());
    if (verdict === true) return;
    if (typeof verdict === 'string') throw new Error(`${what}: ${verdict}`);
    if (Date.now() > deadline) throw new Error(`${what}: timed out`);
    schedule.looked(at, false);
  }
}

async function orGone(read) {
  try {
    return await read();
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/**
 * An ExecutorWaits (src/executor/ports.ts: `until(kind, ref, goal, o, arg)`) with a GET per
 * waiting resource per tick; its waits by name are what `until` dispatches to.
 */
export function naiveWaits(client, projectId, pollMs) {
  const waits = typedNaiveWaits(client, projectId, pollMs);
  const byGoal = {
    'service:ready': (r, o) => waits.serviceStatus(r.id, 'READY', o),
    'service:paused': (r, o) => waits.serviceStatus(r.id, 'PAUSED', o),
    'service:gone': (r, o) => waits.serviceGone(r.id, o),
    'service:attachment': (r, o, arg) => waits.serviceVpc(r.id, arg.vpcId, arg.fromVpcId, o),
    'replica_set:ready': (r, o) => waits.replicaSetActive(r.parentId, r.id, o),
    'replica_set:gone': (r, o) => waits.replicaSetGone(r.parentId, r.id, o),
    'peering:ready': (r, o) => waits.peeringSettled(r.parentId, r.id, o),
    'peering:gone': (r, o) => waits.peeringGone(r.parentId, r.id, o),
  };
  return {
    ...waits,
    until(kind, ref, goal, o, arg) {
      const wait = byGoal[`${kind}:${goal}`];
      if (!wait) throw new Error(`the naive waits have no ${goal} wait for a ${kind}`);
      return wait(ref, o, arg);
    },
  };
}

function typedNaiveWaits(client, projectId, pollMs) {
  const service = (id) => () => orGone(() => client.getService(projectId, id));
  const replicaSet = (svc, id) => async () => (await orGone(() => client.listReplicaSets(projectId, svc)))?.find((r) => String(r.id) === id);
  const peering = (vpc, id) => () => orGone(() => client.getVPCPeering(projectId, vpc, id));
  const opts = (o, what) => ({ pollMs, timeoutMs: o.timeoutMs, what });
  return {
    serviceStatus: (id, status, o) =>
      pollUntil(service(id), (s) => (s === undefined ? 'gone' : s.status === status || (s.status === 'DELETING' ? 'being deleted' : false)), opts(o, `service ${id}`)),
    serviceGone: (id, o) => pollUntil(service(id), (s) => s === undefined || s.status === 'DELETED', opts(o, `service ${id}`)),
    serviceVpc: (id, vpcId, fromVpcId, o) =>
      pollUntil(
        service(id),
        (s) => {
          if (s === undefined) return 'gone';
          const attached = s.vpc_endpoint?.vpc_id ?? null;
          return vpcId === null ? attached === null || attached !== fromVpcId : attached === vpcId;
        },
        opts(o, `service ${id}`),
      ),
    replicaSetActive: (svc, id, o) =>
      pollUntil(replicaSet(svc, id), (r) => (r === undefined ? 'gone' : r.status === 'active' || (r.status === 'error' ? 'error' : false)), opts(o, `replica set ${id}`)),
    replicaSetGone: (svc, id, o) => pollUntil(replicaSet(svc, id), (r) => r === undefined, opts(o, `replica set ${id}`)),
    peeringSettled: (vpc, id, o) =>
      pollUntil(peering(vpc, id), (p) => (p === undefined ? 'gone' : p.status === 'active' || (p.status === 'failed' ? 'failed' : false)), opts(o, `peering ${id}`)),
    peeringGone: (vpc, id, o) => pollUntil(peering(vpc, id), (p) => p === undefined, opts(o, `peering ${id}`)),
  };
}
