// The engine's wait conditions (SPEC section 3) over the client's batched StatusPoller.
import type { ApiClient } from '../api/client.js';
import type { StatusPoller } from '../api/waiters.js';
import { isReplicaSetSettling, isServiceSettling } from '../model/index.js';
import type { ExecutorApi, ExecutorWaits, WaitOptions } from './ports.js';

/** The real client is an ExecutorApi as it is; this keeps that true at compile time. */
export const asExecutorApi = (client: ApiClient): ExecutorApi => client;

function options<T>(o: WaitOptions, describe: (status: string, live: T | undefined) => string = (status) => status) {
  return {
    timeoutMs: o.timeoutMs,
    ...(o.signal ? { signal: o.signal } : {}),
    ...(o.onStatus ? { onStatus: (status: string, live: T | undefined) => o.onStatus!(describe(status, live)) } : {}),
  };
}

export function pollerWaits(poller: StatusPoller): ExecutorWaits {
  return {
    async serviceStatus(serviceId, status, o) {
      await poller.waitForServiceStatus(serviceId, status, options(o));
    },
    async serviceSettled(serviceId, o) {
      // Not done while going away: the poller's terminal rule then fails the wait with its story.
      const settled = (s: { status: string } | undefined) => s !== undefined && !isServiceSettling(s.status) && s.status !== 'DELETING' && s.status !== 'DELETED';
      await poller.waitForService(serviceId, settled, options(o));
    },
    serviceGone: async (serviceId, o) => poller.waitForServiceGone(serviceId, options(o)),
    async serviceVpc(serviceId, vpcId, fromVpcId, o) {
      // Attach/detach leave the status READY; what changes is the VPC endpoint.
      const attached = (s: { vpcId: string | null } | undefined) => s !== undefined && s.vpcId === vpcId;
      const detached = (s: { vpcId: string | null } | undefined) => s !== undefined && (s.vpcId === null || s.vpcId !== fromVpcId);
      const done = vpcId === null ? detached : attached;
      // READY alone would read as finished while the endpoint is still on its way: say what is awaited.
      const pending = vpcId === null ? `detaching from VPC ${fromVpcId}` : `attaching to VPC ${vpcId}`;
      const describe = (status: string, s: { vpcId: string | null } | undefined) => (done(s) ? status : `${status}, ${pending}`);
      await poller.waitForService(serviceId, done, options(o, describe));
    },
    async replicaSetActive(serviceId, replicaSetId, o) {
      await poller.waitForReplicaSet(serviceId, replicaSetId, (rs) => rs?.status === 'active', options(o));
    },
    async replicaSetSettled(serviceId, replicaSetId, o) {
      const settled = (rs: { status: string } | undefined) => rs !== undefined && !isReplicaSetSettling(rs.status) && rs.status !== 'deleting' && rs.status !== 'error';
      await poller.waitForReplicaSet(serviceId, replicaSetId, settled, options(o));
    },
    replicaSetGone: async (serviceId, replicaSetId, o) => poller.waitForReplicaSetGone(serviceId, replicaSetId, options(o)),
    async peeringSettled(vpcId, peeringId, o) {
      // Failed/error statuses fail the wait with the peering's own error message (the poller's rule).
      await poller.waitForPeering(vpcId, peeringId, (p) => p?.status === 'active', options(o));
    },
    peeringGone: async (vpcId, peeringId, o) => poller.waitForPeeringGone(vpcId, peeringId, options(o)),
  };
}
