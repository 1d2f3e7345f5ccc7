// What the engine needs from the outside world, as narrow interfaces: the only file of the
// executor that knows the API layer exists (test/unit/architecture.test.ts keeps it so). The API
// client (src/api/client.ts) satisfies ExecutorApi structurally: its methods are named after the
// operations and take the project ID first. ExecutorWaits is built over a batched poller that
// satisfies ExecutorPoller, such as the client's StatusPoller (see poller-waits.ts). The errors
// the engine tells apart (ApiError, AmbiguousCreateError, WaitTimeoutError) are model types.
// What the engine needs from the state is StateBindings below: the state layer implements it
// (src/state/working-state.ts), and the engine never knows where the state lives.
import type * as Dto from '../api/dto.js';
import type { Address, LivePeering, LiveReplicaSet, LiveService, LiveVpc, LockEntry, OperationId, RouteIds } from '../model/index.js';

/** The wire types of requests and answers, as the API client speaks them. */
export type { Dto };

type Id = string;

export interface ExecutorApi {
  /** Optional: after `signal` aborts, failed calls are not retried (the first Ctrl-C). */
  stopRetriesOn?(signal: AbortSignal): void;
  /** An operation whose repeat does no harm, sent as its row of the op table says (renames, metadata, switches). */
  sendOperation(op: OperationId, ids: RouteIds, body?: unknown): Promise<unknown>;
  listVPCs(p: Id): Promise<Dto.VpcDto[]>;
  createVPC(p: Id, body: Dto.CreateVpcRequestDto): Promise<Dto.VpcDto>;
  deleteVPC(p: Id, v: Id): Promise<void>;

  listVPCPeerings(p: Id, v: Id): Promise<Dto.PeeringDto[]>;
  createVPCPeering(p: Id, v: Id, body: Dto.CreatePeeringRequestDto): Promise<Dto.PeeringDto>;
  deleteVPCPeering(p: Id, v: Id, x: Id): Promise<void>;

  listServices(p: Id): Promise<Dto.ServiceDto[]>;
  getService(p: Id, s: Id): Promise<Dto.ServiceDto>;
  createService(p: Id, body: Dto.CreateServiceRequestDto): Promise<Dto.ServiceDto>;
  forkService(p: Id, s: Id, body: Dto.ForkServiceRequestDto): Promise<Dto.ServiceDto>;
  deleteService(p: Id, s: Id): Promise<void>;
  startService(p: Id, s: Id): Promise<Dto.ServiceDto | undefined>;
  stopService(p: Id, s: Id): Promise<Dto.ServiceDto | undefined>;
  resizeService(p: Id, s: Id, body: Dto.ResizeRequestDto): Promise<Dto.ServiceDto | undefined>;
  setHAReplica(p: Id, s: Id, body: Dto.SetHaRequestDto): Promise<Dto.ServiceDto | undefined>;
  attachServiceToVPC(p: Id, s: Id, body: Dto.VpcAttachmentRequestDto): Promise<unknown>;
  detachServiceFromVPC(p: Id, s: Id, body: Dto.VpcAttachmentRequestDto): Promise<unknown>;
  updatePassword(p: Id, s: Id, body: Dto.UpdatePasswordRequestDto): Promise<void>;

  listReplicaSets(p: Id, s: Id): Promise<Dto.ReadReplicaSetDto[]>;
  createReplicaSet(p: Id, s: Id, body: Dto.CreateReplicaSetRequestDto): Promise<Dto.ReadReplicaSetDto>;
  deleteReplicaSet(p: Id, s: Id, r: Id): Promise<void>;
  resizeReplicaSet(p: Id, s: Id, r: Id, body: Dto.ResizeRequestDto): Promise<unknown>;
}

export interface WaitOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  /** Called with each status observed while waiting. */
  onStatus?: (status: string) => void;
  /**
   * Called once the observed status (undefined: none seen yet) has not changed for a while (60 s by
   * default), again only after the next change; `known`: dbform knows what the status means.
   */
  onStall?: (stall: { waitingFor: string; status: string | undefined; forMs: number; known: boolean }) => void;
}

/**
 * The wait conditions of SPEC section 3. Each resolves when the condition holds and rejects with
 * a timeout, a terminal failure (the resource's own error message) or the signal's abort.
 */
export interface ExecutorWaits {
  serviceStatus(serviceId: Id, status: 'READY' | 'PAUSED', o: WaitOptions): Promise<void>;
  /** Until the service is in no transitional status (SPEC section 5): READY, PAUSED, ... */
  serviceSettled(serviceId: Id, o: WaitOptions): Promise<void>;
  serviceGone(serviceId: Id, o: WaitOptions): Promise<void>;
  /** vpcId null: detached from `fromVpcId`. */
  serviceVpc(serviceId: Id, vpcId: Id | null, fromVpcId: Id | null, o: WaitOptions): Promise<void>;
  replicaSetActive(serviceId: Id, replicaSetId: Id, o: WaitOptions): Promise<void>;
  /** Until the replica set is no longer `creating` or `resizing`. */
  replicaSetSettled(serviceId: Id, replicaSetId: Id, o: WaitOptions): Promise<void>;
  replicaSetGone(serviceId: Id, replicaSetId: Id, o: WaitOptions): Promise<void>;
  peeringSettled(vpcId: Id, peeringId: Id, o: WaitOptions): Promise<void>;
  peeringGone(vpcId: Id, peeringId: Id, o: WaitOptions): Promise<void>;
  /** A VPC that carries a status is no longer CREATING/PENDING (SPEC section 12); one without is at once. */
  vpcSettled(vpcId: Id, o: WaitOptions): Promise<void>;
}

/** One wait of the poller: its limit, its abort, and what it tells on the way. */
export interface PollOptions<T> {
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Each change of the observed status (`gone` once absent), with the live resource. */
  onStatus?: (status: string, live: T | undefined) => void;
  /** The status (undefined: none seen yet) has not changed for `forMs`; `known`: dbform knows it. */
  onStall?: (status: string | undefined, forMs: number, known: boolean) => void;
}

/**
 * A poller that serves many waits with one list request per tick (src/api/waiters.ts). A check
 * returns true once its condition holds; a resource that fails or disappears fails the wait.
 */
export interface ExecutorPoller {
  waitForService(serviceId: Id, check: (s: LiveService | undefined) => boolean, o?: PollOptions<LiveService>): Promise<unknown>;
  waitForServiceStatus(serviceId: Id, statuses: string | string[], o?: PollOptions<LiveService>): Promise<unknown>;
  waitForServiceGone(serviceId: Id, o?: PollOptions<LiveService>): Promise<void>;
  waitForReplicaSet(serviceId: Id, replicaSetId: Id, check: (rs: LiveReplicaSet | undefined) => boolean, o?: PollOptions<LiveReplicaSet>): Promise<unknown>;
  waitForReplicaSetGone(serviceId: Id, replicaSetId: Id, o?: PollOptions<LiveReplicaSet>): Promise<void>;
  waitForPeering(vpcId: Id, peeringId: Id, check: (p: LivePeering | undefined) => boolean, o?: PollOptions<LivePeering>): Promise<unknown>;
  waitForPeeringGone(vpcId: Id, peeringId: Id, o?: PollOptions<LivePeering>): Promise<void>;
  waitForVpc(vpcId: Id, check: (v: LiveVpc | undefined) => boolean, o?: PollOptions<LiveVpc>): Promise<unknown>;
}

/**
 * The bindings of the state, as the engine reads and writes them while it runs: each change is
 * visible at once and persisted in order (flush waits for every one so far). The state layer owns
 * the document, where it lives and how it is written; the engine owns only this port.
 */
export interface StateBindings {
  readonly projectId: string;
  /** Where the state lives, for messages and the `lockfile-written` event. */
  readonly location: string;
  idOf(address: Address): string | undefined;
  /** Binds `address` to `id`, keeping the entry's other fields when the ID is unchanged. */
  bind(address: Address, id: string, extra?: Omit<LockEntry, 'id'>): Promise<void>;
  /** Changes fields of an existing entry; a missing entry is left alone. */
  update(address: Address, patch: Omit<LockEntry, 'id'>): Promise<void>;
  remove(address: Address): Promise<void>;
  move(from: Address, to: Address): Promise<void>;
  /** Resolves once every change made so far is persisted. */
  flush(): Promise<void>;
  /** Called after each write with the number of bindings written. */
  onWritten(listener: (entries: number) => void): void;
}
