// Waiting for asynchronous work (SPEC section 5), shared by every waiting action of an apply.
//
//   const poller = new StatusPoller(client, { projectId });
//   const svc = await poller.waitForService(id, (s) => s?.status === 'READY', { timeoutMs, signal, onStatus });
//   await poller.waitForReplicaSet(serviceId, rsId, (rs) => rs?.status === 'active');
//   await poller.waitForPeering(vpcId, peeringId, (p) => p?.status === 'active');
//   await poller.waitForServiceGone(serviceId);
//
// Cost: one `GET /projects/{p}/services` per tick serves every waiting service and replica set
// (the list embeds read_replica_sets), and one `GET .../vpcs/{v}/peerings` per tick serves every
// waiting peering of that VPC, however many waits are pending. A wait first looks after pollMs
// (or at the next tick with `immediate`), then backs off by 1.5x up to 10x pollMs. A wait that
// joins while a tick's request is in flight is served by the next tick, never by a list that may
// predate the action it waits for.
//
// A check returns true / {done: true} to finish (the promise resolves with the live object, or
// undefined when it is gone), false / {done: false} to keep waiting, or {done: false, failure}
// to fail with WaitFailedError. When the check is not done, built-in terminal failures apply:
// - service: gone (absent from the list), DELETED or DELETING;
// - replica set: gone, `deleting`, or `error`;
// - peering: gone, or `failed` / `error` (with the peering's own error_message).
// The *Gone variants wait for disappearance instead and only fail on timeout or `error`.
// Each wait is bounded by timeoutMs (WaitTimeoutError) and may be abandoned with an AbortSignal
// (rejects with the signal's reason). onStatus sees every change of the observed status
// (`gone` once absent), first observation included.
import { DbformError } from '../model/errors.js';
import type { LivePeering, LiveReplicaSet, LiveService } from '../model/resources.js';
import type { ApiClient } from './client.js';
import { ApiError, WaitFailedError, WaitTimeoutError } from './errors.js';
import { mapPeering, mapService } from './live-mapping.js';
import { PollChannel, type Snapshot } from './poll-channel.js';
import { systemTimers, type Timers } from './timers.js';

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
}

export interface StatusPollerOptions {
  projectId: string;
  /** First interval; default DBFORM_POLL_MS or 1000. */
  pollMs?: number;
  /** Default 30 minutes. */
  defaultTimeoutMs?: number;
  /** The clock of ticks and timeouts; tests pass a fake one. */
  timers?: Timers;
}

type PollClient = Pick<ApiClient, 'listServices' | 'listVPCPeerings'>;

const SERVICE_GONE = new Set(['DELETED', 'DELETING']);

/** DBFORM_POLL_MS, checked; 1000 when unset. */
export function pollMsFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.DBFORM_POLL_MS;
  if (raw === undefined || raw === '') return 1000;
  const ms = Number(raw);
  if (!Number.isFinite(ms) || ms <= 0) throw new DbformError(`DBFORM_POLL_MS must be a positive number of milliseconds (found "${raw}")`);
  return ms;
}

export class StatusPoller {
  private readonly pollMs: number;
  private readonly defaultTimeoutMs: number;
  private readonly services: PollChannel<LiveService>;
  private readonly peerings = new Map<string, PollChannel<LivePeering>>();
  private readonly projectId: string;
  private readonly timers: Timers;

  constructor(
    private readonly client: PollClient,
    options: StatusPollerOptions,
  ) {
    this.projectId = options.projectId;
    this.pollMs = options.pollMs ?? pollMsFromEnv();
    this.defaultTimeoutMs = options.defaultTimeoutMs ?? 30 * 60_000;
    this.timers = options.timers ?? systemTimers;
    this.services = new PollChannel(() => this.fetchServices(), isFatalListError, this.channelOptions());
  }

  /** List requests made so far, for tests and benchmarks. */
  stats(): { serviceListRequests: number; peeringListRequests: number } {
    let peeringListRequests = 0;
    for (const c of this.peerings.values()) peeringListRequests += c.requests;
    return { serviceListRequests: this.services.requests, peeringListRequests };
  }

  waitForService(serviceId: string, check: WaitCheck<LiveService>, options: WaitOptions<LiveService> = {}): Promise<LiveService | undefined> {
    return this.wait(this.services, `service ${serviceId}`, (s) => s.items.get(serviceId), check, serviceTerminal, options);
  }

  /** Resolves when the service is one of `statuses`. */
  waitForServiceStatus(serviceId: string, statuses: string | string[], options: WaitOptions<LiveService> = {}): Promise<LiveService | undefined> {
    const wanted = new Set(Array.isArray(statuses) ? statuses : [statuses]);
    return this.waitForService(serviceId, (s) => s !== undefined && wanted.has(s.status), options);
  }

  async waitForServiceGone(serviceId: string, options: WaitOptions<LiveService> = {}): Promise<void> {
    const gone: WaitCheck<LiveService> = (s) => s === undefined || s.status === 'DELETED';
    await this.wait(this.services, `deletion of service ${serviceId}`, (s) => s.items.get(serviceId), gone, () => undefined, options);
  }

  waitForReplicaSet(serviceId: string, replicaSetId: string, check: WaitCheck<LiveReplicaSet>, options: WaitOptions<LiveReplicaSet> = {}): Promise<LiveReplicaSet | undefined> {
    const find = (s: Snapshot<LiveService>) => s.items.get(serviceId)?.replicaSets.find((rs) => rs.id === replicaSetId);
    return this.wait(this.services, `replica set ${replicaSetId} of service ${serviceId}`, find, check, replicaSetTerminal, options);
  }

  async waitForReplicaSetGone(serviceId: string, replicaSetId: string, options: WaitOptions<LiveReplicaSet> = {}): Promise<void> {
    const find = (s: Snapshot<LiveService>) => s.items.get(serviceId)?.replicaSets.find((rs) => rs.id === replicaSetId);
    const what = `deletion of replica set ${replicaSetId} of service ${serviceId}`;
    await this.wait(this.services, what, find, (rs) => rs === undefined, (rs) => (rs?.status === 'error' ? 'is in error state' : undefined), options);
  }

  waitForPeering(vpcId: string, peeringId: string, check: WaitCheck<LivePeering>, options: WaitOptions<LivePeering> = {}): Promise<LivePeering | undefined> {
    return this.wait(this.peeringChannel(vpcId), `peering ${peeringId} of VPC ${vpcId}`, (s) => s.items.get(peeringId), check, peeringTerminal, options);
  }

  async waitForPeeringGone(vpcId: string, peeringId: string, options: WaitOptions<LivePeering> = {}): Promise<void> {
    await this.wait(this.peeringChannel(vpcId), `deletion of peering ${peeringId} of VPC ${vpcId}`, (s) => s.items.get(peeringId), (p) => p === undefined, () => undefined, options);
  }

  /** Stops polling; pending waits stay pending until their own timeout or signal. */
  close(): void {
    this.services.close();
    for (const c of this.peerings.values()) c.close();
  }

  private channelOptions() {
    return { factor: 1.5, maxIntervalMs: this.pollMs * 10, timers: this.timers };
  }

  private peeringChannel(vpcId: string): PollChannel<LivePeering> {
    let channel = this.peerings.get(vpcId);
    if (!channel) {
      channel = new PollChannel(() => this.fetchPeerings(vpcId), isFatalListError, this.channelOptions());
      this.peerings.set(vpcId, channel);
    }
    return channel;
  }

  private async fetchServices(): Promise<Snapshot<LiveService>> {
    const list = await this.client.listServices(this.projectId);
    return { items: new Map(list.map((dto) => [String(dto.service_id), mapService(dto)])) };
  }

  private async fetchPeerings(vpcId: string): Promise<Snapshot<LivePeering>> {
    try {
      const list = await this.client.listVPCPeerings(this.projectId, vpcId);
      return { items: new Map(list.map((dto) => [String(dto.id), mapPeering(dto, vpcId)])) };
    } catch (err) {
      // The VPC is gone, and its peerings with it.
      if (err instanceof ApiError && err.status === 404) return { items: new Map() };
      throw err;
    }
  }

  private wait<T extends { status?: string }, S>(
    channel: PollChannel<S>,
    resource: string,
    find: (snapshot: Snapshot<S>) => T | undefined,
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
      const finish = (settle: () => void) => {
        this.timers.clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        channel.remove(waiter);
        settle();
      };
      const onAbort = () => finish(() => reject(options.signal!.reason));
      const timer = this.timers.setTimeout(() => finish(() => reject(new WaitTimeoutError(resource, timeoutMs, lastStatus, lastError))), timeoutMs);
      const waiter = {
        dueAt: this.timers.now() + (options.immediate ? 0 : this.pollMs),
        intervalMs: options.immediate ? this.pollMs : this.pollMs * 1.5,
        serve: (snapshot: Snapshot<S>): boolean => {
          const live = find(snapshot);
          const status = live === undefined ? 'gone' : (live.status ?? 'unknown');
          if (status !== lastStatus) {
            lastStatus = status;
            options.onStatus?.(status, live);
          }
          const verdict = normalize(check(live));
          const failure = verdict.done ? undefined : (verdict.failure ?? terminal(live));
          if (!verdict.done && failure === undefined) return false;
          this.timers.clearTimeout(timer);
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
      channel.add(waiter);
    });
  }
}

function normalize(v: WaitVerdict): { done: true } | { done: false; failure?: string } {
  return typeof v === 'boolean' ? { done: v } : v;
}

function serviceTerminal(svc: LiveService | undefined): string | undefined {
  if (svc === undefined) return 'is gone (deleted while waiting for it)';
  if (SERVICE_GONE.has(svc.status)) return `is being deleted (status ${svc.status}) while waiting for it`;
  return undefined;
}

function replicaSetTerminal(rs: LiveReplicaSet | undefined): string | undefined {
  if (rs === undefined) return 'is gone (deleted while waiting for it)';
  if (rs.status === 'error') return 'is in error state';
  if (rs.status === 'deleting') return 'is being deleted while waiting for it';
  return undefined;
}

function peeringTerminal(p: LivePeering | undefined): string | undefined {
  if (p === undefined) return 'is gone (deleted while waiting for it)';
  if (p.status === 'failed' || p.status === 'error') return `failed: ${p.errorMessage ?? `status ${p.status}, no error message`}`;
  return undefined;
}

/** Errors after which polling cannot succeed: the token or the project is not valid any more. */
function isFatalListError(err: unknown): boolean {
  return err instanceof ApiError && (err.status === 401 || err.status === 403 || err.status === 404 || err.code === 'INVALID_RESPONSE');
}
