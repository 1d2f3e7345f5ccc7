// The engine's wait conditions (SPEC section 3) over a batched poller (the client's StatusPoller).
import { peeringPhase } from '../kinds/peering/kind.js';
import { isReplicaSetSettling } from '../kinds/replica-set/kind.js';
import { isServiceSettling } from '../kinds/service/kind.js';
import { isVpcSettled } from '../kinds/vpc/kind.js';
import type { ExecutorPoller, ExecutorWaits, WaitOptions } from './ports.js';

/** The poller's options for one wait; `waitingFor` says in words what it waits for (for a stall notice). */
function options<T>(o: WaitOptions, waitingFor: string, describe: (status: string, live: T | undefined) => string = (status) => status) {
  return {
    timeoutMs: o.timeoutMs,
    ...(o.signal ? { signal: o.signal } : {}),
    ...(o.onStatus ? { onStatus: (status: string, live: T | undefined) => o.onStatus!(describe(status, live)) } : {}),
    ...(o.onStall ? { onStall: (status: string | undefined, forMs: number, known: boolean) => o.onStall!({ waitingFor, status, forMs, known }) } : {}),
  };
}

export function pollerWaits(poller: ExecutorPoller): ExecutorWaits {
  return {
    async serviceStatus(serviceId, status, o) {
      await poller.waitForServiceStatus(serviceId, status, options(o, `service ${serviceId} to be ${status}`));
    },
    async serviceSettled(serviceId, o) {
      // Not done while going away: the poller's terminal rule then fails the wait with its story.
      const settled = (s: { status: string } | undefined) => s !== undefined && !isServiceSettling(s.status) && s.status !== 'DELETING' && s.status !== 'DELETED';
      await poller.waitForService(serviceId, settled, options(o, `service ${serviceId} to settle`));
    },
    serviceGone: async (serviceId, o) => poller.waitForServiceGone(serviceId, options(o, `service ${serviceId} to be deleted`)),
    async serviceVpc(serviceId, vpcId, fromVpcId, o) {
      // Attach/detach leave the status READY; what changes is the VPC endpoint.
      const attached = (s: { vpcId: string | null } | undefined) => s !== undefined && s.vpcId === vpcId;
      const detached = (s: { vpcId: string | null } | undefined) => s !== undefined && (s.vpcId === null || s.vpcId !== fromVpcId);
      const done = vpcId === null ? detached : attached;
      // READY alone would read as finished while the endpoint is still on its way: say what is awaited.
      const pending = vpcId === null ? `detaching from VPC ${fromVpcId}` : `attaching to VPC ${vpcId}`;
      const describe = (status: string, s: { vpcId: string | null } | undefined) => (done(s) ? status : `${status}, ${pending}`);
      await poller.waitForService(serviceId, done, options(o, `service ${serviceId} ${pending}`, describe));
    },
    async replicaSetActive(serviceId, replicaSetId, o) {
      const what = `replica set ${replicaSetId} of service ${serviceId} to be active`;
      await poller.waitForReplicaSet(serviceId, replicaSetId, (rs) => rs?.status === 'active', options(o, what));
    },
    async replicaSetSettled(serviceId, replicaSetId, o) {
      const settled = (rs: { status: string } | undefined) => rs !== undefined && !isReplicaSetSettling(rs.status) && rs.status !== 'deleting' && rs.status !== 'error';
      await poller.waitForReplicaSet(serviceId, replicaSetId, settled, options(o, `replica set ${replicaSetId} of service ${serviceId} to settle`));
    },
    replicaSetGone: async (serviceId, replicaSetId, o) =>
      poller.waitForReplicaSetGone(serviceId, replicaSetId, options(o, `replica set ${replicaSetId} of service ${serviceId} to be deleted`)),
    async peeringSettled(vpcId, peeringId, o) {
      // APPROVED and ACTIVE (any case) are done; failed statuses fail the wait with the peering's own
      // error message (the poller's rule); anything else is waited out.
      const what = `peering ${peeringId} of VPC ${vpcId} to be active`;
      await poller.waitForPeering(vpcId, peeringId, (p) => peeringPhase(p?.status) === 'done', options(o, what));
    },
    peeringGone: async (vpcId, peeringId, o) => poller.waitForPeeringGone(vpcId, peeringId, options(o, `peering ${peeringId} of VPC ${vpcId} to be deleted`)),
    async vpcSettled(vpcId, o) {
      await poller.waitForVpc(vpcId, (v) => v !== undefined && isVpcSettled(v.status), options(o, `VPC ${vpcId} to be created`));
    },
  };
}
