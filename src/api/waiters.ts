// Waiting for asynchronous work (SPEC section 5), shared by every waiting action of an apply.
//
//   const poller = new StatusPoller(client, { projectId });
//   const svc = await poller.waitForService(id, (s) => s?.status === 'READY', { timeoutMs, signal, onStatus });
//   await poller.waitForReplicaSet(serviceId, rsId, (rs) => rs?.status === 'active');
//   await poller.waitForPeering(vpcId, peeringId, (p) => peeringPhase(p?.status) === 'done');
//   await poller.waitForServiceGone(serviceId);
//
// Cost: a tick of the services channel reads either one `GET /projects/{p}/services` (which serves
// every waiting service and replica set: the list embeds read_replica_sets) or just the resources
// that wait (`GET .../services/{id}`, a replica set through `GET .../replicaSets` of its service),
// whichever costs less for what waits (service-reads.ts); one `GET .../vpcs/{v}/peerings` per tick
// serves every waiting peering of that VPC. Where the list does not embed the replica sets (the
// real API, SPEC section 12), a list tick also reads `GET .../replicaSets` of each service that
// has a replica set due, and no other. Two ticks of a channel are never closer than pollMs. A
// wait first looks after pollMs (or at the next tick with `immediate`), then on the schedule of
// poll-schedule.ts. A wait that joins while a tick's read is in flight is served by the next
// tick, never by a read that may predate the action it waits for.
//
// A check returns true / {done: true} to finish (the promise resolves with the live object, or
// undefined when it is gone), false / {done: false} to keep waiting, or {done: false, failure}
// to fail with WaitFailedError. When the check is not done, built-in terminal failures apply:
// - service: gone (absent from the list), DELETED or DELETING;
// - replica set: gone, `deleting`, or `error`;
// - peering: gone, or a failed status in any spelling (with the peering's own error_message);
// - VPC (waitForVpc): gone.
// The *Gone variants wait for disappearance instead and only fail on timeout or `error`.
// Each wait is bounded by timeoutMs (WaitTimeoutError, which says when the last status is one
// dbform does not know) and may be abandoned with an AbortSignal (rejects with the signal's
// reason). onStatus sees every change of the observed status (`gone` once absent), first
// observation included; onStall is called once the status has not changed for stallNoticeMs
// (default 60 s), and again only after the next change.
import { describeRef, kindDef, knownStatus, mapLive } from '../kinds/index.js';
import type { WaitRef } from '../kinds/types.js';
import type { Kind } from '../model/address.js';
import type { LivePeering, LiveReplicaSet, LiveService, LiveVpc } from '../model/resources.js';
import type { ApiClient } from './client.js';
import { DbformError } from '../model/errors.js';
import { ApiError, WaitFailedError, WaitTimeoutError } from './errors.js';
import { listSnapshot, PollChannel, type Covering, type Snapshot } from './poll-channel.js';
import { LookSchedule } from './poll-schedule.js';
import { replicaSetsKey, serviceKey, ServiceReads, type ProjectSnapshot, type ServiceReadStats } from './service-reads.js';
import { systemTimers, type TimerHandle, type Timers } from './timers.js';

export type WaitVerdict = boolean | { done: true } | { done: false; failure?: string };
export type WaitCheck<T> = (live: T | undefined) => WaitVerdict;

export interface WaitOptions<T> {
  /** Default: the poller's defaultTimeoutMs. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Each change of the observed status; `gone` when the resource is absent. */
  onStatus?: (status: string, live: T | undefined) => void;
  /** Look at the next tick instead of after pollMs (for a condition that may already hold). */
  immediate?: boolean;
  /** The status (undefined: none seen yet) has not changed for `forMs`; `known`: dbform knows what it means. */
  onStall?: (status: string | undefined, forMs: number, known: boolean) => void;
}

export interface StatusPollerOptions {
  projectId: string;
  /** First interval, and the floor between two ticks; default DBFORM_POLL_MS or 1000. */
  pollMs?: number;
  /** Default 30 minutes. */
  defaultTimeoutMs?: number;
  /** How long a status may stay the same before onStall is told; default 60 s. */
  stallNoticeMs?: number;
  /** The clock of ticks and timeouts; tests pass a fake one. */
  timers?: Timers;
}

type PollClient = Pick<ApiClient, 'listServices' | 'listVPCPeerings' | 'listVPCs' | 'listReplicaSets'> & Partial<Pick<ApiClient, 'getService' | 'noteOnce'>>;

export class StatusPoller {
  private readonly pollMs: number;
  private readonly defaultTimeoutMs: number;
  private readonly stallNoticeMs: number;
  private readonly serviceReads: ServiceReads;
  private readonly services: PollChannel<ProjectSnapshot>;
  private readonly peerings = new Map<string, PollChannel<Snapshot<LivePeering>>>();
  private readonly vpcs: PollChannel<Snapshot<LiveVpc>>;
  private readonly projectId: string;
  private readonly timers: Timers;

  constructor(
    private readonly client: PollClient,
    options: StatusPollerOptions,
  ) {
    this.projectId = options.projectId;
    this.pollMs = options.pollMs ?? pollMsFromEnv();
    this.defaultTimeoutMs = options.defaultTimeoutMs ?? 30 * 60_000;
    this.stallNoticeMs = options.stallNoticeMs ?? 60_000;
    this.timers = options.timers ?? systemTimers;
    this.serviceReads = new ServiceReads(client, this.projectId);
    this.services = new PollChannel((request) => this.serviceReads.read(request), isFatalListError, this.channelOptions());
    this.vpcs = new PollChannel(() => this.fetchVpcs(), isFatalListError, this.channelOptions());
  }

  /** Reads made so far, for tests and benchmarks: services lists, per-resource reads, peering lists. */
  stats(): { serviceListRequests: number; peeringListRequests: number } & Omit<ServiceReadStats, 'lists'> {
    let peeringListRequests = 0;
    for (const c of this.peerings.values()) peeringListRequests += c.ticks;
    const { lists, serviceReads, replicaSetReads } = this.serviceReads.stats;
    return { serviceListRequests: lists, serviceReads, replicaSetReads, peeringListRequests };
  }

  /**
   * Until `check` holds for the resource of `kind` (`ref.parentId`: its parent's, for a kind whose
   * lists are its parent's); a resource that is gone, or that its kind's terminal rules say can
   * never get there, fails the wait.
   */
  waitFor<T extends { status?: string }>(kind: Kind, ref: WaitRef, check: WaitCheck<T>, options: WaitOptions<T> = {}): Promise<T | undefined> {
    const { channel, key, find } = this.source(kind, ref);
    const terminal = (live: T | undefined) => terminalOf(kind, live);
    return this.wait(channel, key, kind, describeRef(kind, ref.id, ref.parentId), find as (s: Covering) => T | undefined, check, terminal, options);
  }

  /** Until the resource of `kind` is gone (or its kind says it is deleted for good); fails only on timeout or what its kind's `goneTerminal` says. */
  async waitForGone<T extends { status?: string }>(kind: Kind, ref: WaitRef, options: WaitOptions<T> = {}): Promise<void> {
    const { channel, key, find } = this.source(kind, ref);
    const waits = kindDef(kind).waits;
    const gone: WaitCheck<T> = (live) => live === undefined || (waits.deleted?.(live) ?? false);
    const failure = (live: T | undefined) => (live === undefined ? undefined : waits.goneTerminal?.(live));
    await this.wait(channel, key, kind, `deletion of ${describeRef(kind, ref.id, ref.parentId)}`, find as (s: Covering) => T | undefined, gone, failure, options);
  }

  waitForService(serviceId: string, check: WaitCheck<LiveService>, options: WaitOptions<LiveService> = {}): Promise<LiveService | undefined> {
    return this.waitFor('service', { id: serviceId }, check, options);
  }

  /** Resolves when the service is one of `statuses`. */
  waitForServiceStatus(serviceId: string, statuses: string | string[], options: WaitOptions<LiveService> = {}): Promise<LiveService | undefined> {
    const wanted = new Set(Array.isArray(statuses) ? statuses : [statuses]);
    return this.waitForService(serviceId, (s) => s !== undefined && wanted.has(s.status), options);
  }

  waitForServiceGone(serviceId: string, options: WaitOptions<LiveService> = {}): Promise<void> {
    return this.waitForGone('service', { id: serviceId }, options);
  }

  waitForReplicaSet(serviceId: string, replicaSetId: string, check: WaitCheck<LiveReplicaSet>, options: WaitOptions<LiveReplicaSet> = {}): Promise<LiveReplicaSet | undefined> {
    return this.waitFor('replica_set', { id: replicaSetId, parentId: serviceId }, check, options);
  }

  waitForReplicaSetGone(serviceId: string, replicaSetId: string, options: WaitOptions<LiveReplicaSet> = {}): Promise<void> {
    return this.waitForGone('replica_set', { id: replicaSetId, parentId: serviceId }, options);
  }

  waitForPeering(vpcId: string, peeringId: string, check: WaitCheck<LivePeering>, options: WaitOptions<LivePeering> = {}): Promise<LivePeering | undefined> {
    return this.waitFor('peering', { id: peeringId, parentId: vpcId }, check, options);
  }

  waitForPeeringGone(vpcId: string, peeringId: string, options: WaitOptions<LivePeering> = {}): Promise<void> {
    return this.waitForGone('peering', { id: peeringId, parentId: vpcId }, options);
  }

  /** Waits on the VPC list (one request per tick for every VPC waited for); fails when the VPC is gone. */
  waitForVpc(vpcId: string, check: WaitCheck<LiveVpc>, options: WaitOptions<LiveVpc> = {}): Promise<LiveVpc | undefined> {
    return this.waitFor('vpc', { id: vpcId }, check, options);
  }

  /** Stops polling; pending waits stay pending until their own timeout or signal. */
  close(): void {
    this.services.close();
    this.vpcs.close();
    for (const c of this.peerings.values()) c.close();
  }

  /**
   * Which read serves waits on a resource of `kind`, under which key, and how a snapshot finds it:
   * the API's shape (a services list that carries its services' replica sets; a VPC list; each
   * VPC's own list of peerings), which this poller is written for.
   */
  private source(kind: Kind, ref: WaitRef): { channel: PollChannel<Covering>; key: string; find: (s: Covering) => unknown } {
    switch (kind) {
      case 'service':
        return { channel: this.services, key: serviceKey(ref.id), find: (s) => (s as ProjectSnapshot).service(ref.id) };
      case 'replica_set':
        return { channel: this.services, key: replicaSetsKey(ref.parentId!), find: (s) => (s as ProjectSnapshot).replicaSets(ref.parentId!)?.find((rs) => rs.id === ref.id) };
      case 'peering':
        return { channel: this.peeringChannel(ref.parentId!), key: ref.id, find: (s) => (s as Snapshot<LivePeering>).items.get(ref.id) };
      case 'vpc':
        return { channel: this.vpcs, key: ref.id, find: (s) => (s as Snapshot<LiveVpc>).items.get(ref.id) };
    }
  }

  private channelOptions() {
    return { timers: this.timers, minSpacingMs: this.pollMs };
  }

  private peeringChannel(vpcId: string): PollChannel<Snapshot<LivePeering>> {
    let channel = this.peerings.get(vpcId);
    if (!channel) {
      channel = new PollChannel(() => this.fetchPeerings(vpcId), isFatalListError, this.channelOptions());
      this.peerings.set(vpcId, channel);
    }
    return channel;
  }

  private async fetchVpcs(): Promise<Snapshot<LiveVpc>> {
    const list = await this.client.listVPCs(this.projectId);
    return listSnapshot(new Map(list.map((dto) => [String(dto.id), mapLive('vpc', dto) as LiveVpc])));
  }

  private async fetchPeerings(vpcId: string): Promise<Snapshot<LivePeering>> {
    try {
      const list = await this.client.listVPCPeerings(this.projectId, vpcId);
      return listSnapshot(new Map(list.map((dto) => [String(dto.id), mapLive('peering', dto, vpcId) as LivePeering])));
    } catch (err) {
      // The VPC is gone, and its peerings with it.
      if (err instanceof ApiError && err.status === 404) return listSnapshot(new Map());
      throw err;
    }
  }

  private wait<T extends { status?: string }, S extends Covering>(
    channel: PollChannel<S>,
    key: string,
    kind: Kind,
    resource: string,
    find: (snapshot: S) => T | undefined,
    check: WaitCheck<T>,
    terminal: (live: T | undefined) => string | undefined,
    options: WaitOptions<T>,
  ): Promise<T | undefined> {
    const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;
    // Checked before any timer exists: an already-abandoned wait must not keep the process alive.
    if (options.signal?.aborted) return Promise.reject(options.signal.reason);
    return new Promise<T | undefined>((resolve, reject) => {
      let lastStatus: string | undefined;
      let lastError: unknown;
      const known = () => lastStatus === undefined || lastStatus === 'gone' || knownStatus(kind, lastStatus);
      const stall = new StallTimer(this.timers, this.stallNoticeMs, options.onStall && ((forMs) => options.onStall!(lastStatus, forMs, known())));
      const finish = (settle: () => void) => {
        this.timers.clearTimeout(timer);
        stall.stop();
        options.signal?.removeEventListener('abort', onAbort);
        channel.remove(waiter);
        settle();
      };
      const onAbort = () => finish(() => reject(options.signal!.reason));
      const timer = this.timers.setTimeout(() => finish(() => reject(new WaitTimeoutError(resource, timeoutMs, lastStatus, lastError, !known()))), timeoutMs);
      const waiter = {
        key,
        schedule: new LookSchedule(this.pollMs, this.timers.now(), options.immediate === true),
        serve: (snapshot: S, at: number): boolean => {
          const live = find(snapshot);
          const status = live === undefined ? 'gone' : (live.status ?? 'unknown');
          // The first status seen is where the wait starts from, not a change of it.
          const changed = lastStatus !== undefined && status !== lastStatus;
          if (status !== lastStatus) {
            lastStatus = status;
            stall.restart();
            options.onStatus?.(status, live);
          }
          const verdict = normalize(check(live));
          const failure = verdict.done ? undefined : (verdict.failure ?? terminal(live));
          if (!verdict.done && failure === undefined) {
            waiter.schedule.looked(at, changed);
            return false;
          }
          this.timers.clearTimeout(timer);
          stall.stop();
          options.signal?.removeEventListener('abort', onAbort);
          if (verdict.done) resolve(live);
          else reject(new WaitFailedError(resource, live?.status, failure!));
          return true;
        },
        fail: (err: unknown) => finish(() => reject(err)),
        note: (err: unknown) => {
          lastError = err;
        },
      };
      options.signal?.addEventListener('abort', onAbort, { once: true });
      stall.restart();
      channel.add(waiter);
    });
  }
}

/** Tells `notify` once when `ms` pass without a restart (a status change); never keeps the process alive. */
class StallTimer {
  private timer: TimerHandle | undefined;
  constructor(
    private readonly timers: Timers,
    private readonly ms: number,
    private readonly notify: ((forMs: number) => void) | undefined,
  ) {}

  restart(): void {
    this.stop();
    if (!this.notify) return;
    const since = this.timers.now();
    this.timer = this.timers.setTimeout(() => this.notify!(this.timers.now() - since), this.ms);
    (this.timer as { unref?: () => void }).unref?.();
  }

  stop(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }
}

function normalize(v: WaitVerdict): { done: true } | { done: false; failure?: string } {
  return typeof v === 'boolean' ? { done: v } : v;
}

// ---- the end states of a wait -----------------------------------------------------------------
// When a resource can never reach what is waited for. Gone is gone for every kind; the rest each
// kind says (src/kinds/<kind>: `waits.terminal`), reading statuses by meaning, so both the
// emulator's seed dialect and the real service's spellings end a wait the same way.

/** Why a wait on a resource of `kind` can never succeed, or undefined while it may. */
export function terminalOf(kind: Kind, live: unknown): string | undefined {
  if (live === undefined) return 'is gone (deleted while waiting for it)';
  return kindDef(kind).waits.terminal?.(live);
}

/** Errors after which polling cannot succeed: the credentials or the project are not valid any more. */
export function isFatalListError(err: unknown): boolean {
  return err instanceof ApiError && (err.status === 401 || err.status === 403 || err.status === 404 || err.code === 'INVALID_RESPONSE');
}

// ---- the environment's say (SPEC section 5) ---------------------------------------------------
// DBFORM_POLL_MS and, for tests, DBFORM_STALL_NOTICE_MS: checked before an apply starts, so a bad
// value never stops one half-way. The CLI passes its environment; without one, the defaults apply.

/** DBFORM_POLL_MS, checked; 1000 when unset. */
export function pollMsFromEnv(env: NodeJS.ProcessEnv = {}): number {
  const raw = env.DBFORM_POLL_MS;
  if (raw === undefined || raw === '') return 1000;
  const ms = Number(raw);
  if (!Number.isFinite(ms) || ms <= 0) throw new DbformError(`DBFORM_POLL_MS must be a positive number of milliseconds (found "${raw}")`);
  return ms;
}

/** DBFORM_STALL_NOTICE_MS (for tests): after how long an unchanged status is reported; 60 s when unset. */
export function stallNoticeMsFromEnv(env: NodeJS.ProcessEnv = {}): number {
  const raw = env.DBFORM_STALL_NOTICE_MS;
  if (raw === undefined || raw === '') return 60_000;
  const ms = Number(raw);
  if (!Number.isFinite(ms) || ms <= 0) throw new DbformError(`DBFORM_STALL_NOTICE_MS must be a positive number of milliseconds (found "${raw}")`);
  return ms;
}
