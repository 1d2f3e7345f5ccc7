// What the engine needs from the outside world, as narrow interfaces: the only file of the
// executor that knows the API layer exists (test/unit/architecture.test.ts keeps it so). The API
// client (src/api/client.ts) satisfies ExecutorApi structurally: its methods are named after the
// operations and take the project ID first. ExecutorWaits is built over a batched poller that
// satisfies ExecutorPoller, such as the client's StatusPoller (see poller-waits.ts). The errors
// the engine tells apart (ApiError, AmbiguousCreateError, WaitTimeoutError) are model types. What
// a wait waits for, each kind says (src/kinds/<kind>: `waits`). What the engine needs from the
// state is StateBindings below: the state layer implements it (src/state/working-state.ts), and
// the engine never knows where the state lives.
import type * as Dto from '../api/dto.js';
import type { WaitGoal, WaitRef } from '../kinds/types.js';
import type { Address, Kind, LockEntry, Lockfile, OperationId, RouteIds } from '../model/index.js';

/** The wire types of requests and answers, as the API client speaks them. */
export type { Dto, WaitRef };

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
 * The wait conditions of SPEC sections 3 and 5, as each kind defines its goals (src/kinds/<kind>:
 * `waits`). It resolves when the goal holds and rejects with a timeout, a terminal failure (the
 * resource's own error message) or the signal's abort.
 */
export interface ExecutorWaits {
  /**
   * `arg`: what the waiting op knows that the goal needs (the VPC of an attach or detach).
   * Resolves with the live resource as last seen when the goal held, where the waits tell it
   * (undefined for `gone`, or a wait that does not).
   */
  until(kind: Kind, ref: WaitRef, goal: WaitGoal | 'gone', o: WaitOptions, arg?: unknown): Promise<unknown>;
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
 * returns true once its condition holds; a resource that fails or disappears fails the wait (its
 * kind's terminal rules).
 */
export interface ExecutorPoller {
  waitFor(kind: Kind, ref: WaitRef, check: (live: unknown) => boolean, o?: PollOptions<unknown>): Promise<unknown>;
  waitForGone(kind: Kind, ref: WaitRef, o?: PollOptions<unknown>): Promise<void>;
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
  /** A copy of the entry of `address`, if any. */
  get(address: Address): LockEntry | undefined;
  /** The state as it is in memory now, without a copy: for reading at once, never for keeping or changing. */
  peek(): Readonly<Lockfile>;
  /** Binds `address` to `id`, keeping the entry's other fields when the ID is unchanged. */
  bind(address: Address, id: string, extra?: Omit<LockEntry, 'id'>): Promise<void>;
  /** Changes fields of an existing entry; a missing entry is left alone. */
  update(address: Address, patch: Omit<LockEntry, 'id'>): Promise<void>;
  /**
   * Ends the entry's pending operation (SPEC section 14): seen to finish (`applied`: the values it
   * set, in the vocabulary of drift's record, merged into the entry's) or to fail (none).
   */
  endPending(address: Address, applied?: Record<string, unknown>): Promise<void>;
  remove(address: Address): Promise<void>;
  move(from: Address, to: Address): Promise<void>;
  /** Resolves once every change made so far is persisted. */
  flush(): Promise<void>;
  /** Called after each write with the number of bindings written. */
  onWritten(listener: (entries: number) => void): void;
}
