// An in-memory API for the poller's tests (waiters.test.ts, poll-schedule.test.ts): lists, and
// optionally per-resource reads, on a fake clock; every call is recorded with its time.
import type { PeeringDto, ReadReplicaSetDto, ServiceDto, VpcDto } from '../../../src/api/dto.js';
import { ApiError } from '../../../src/api/errors.js';
import { StatusPoller, type StatusPollerOptions } from '../../../src/api/waiters.js';
import { FakeTimers } from '../../support/fake-timers.js';

export class FakeWorld {
  readonly timers = new FakeTimers();
  services = new Map<string, ServiceDto>();
  peerings = new Map<string, PeeringDto>();
  vpcs = new Map<string, VpcDto>();
  /** false: the services list leaves read_replica_sets out, as the real API may (SPEC section 12). */
  embeds = true;
  notes: string[] = [];
  calls: Array<{ what: string; at: number }> = [];
  /** Resolves a pending list request when set; lets a test hold a tick in flight. */
  gate: Promise<void> | undefined;
  failNext: unknown;
  /** true: the client also has `getService` (per-resource reads), as the real client does. */
  readsOne = false;

  setService(id: string, status: string, rs: ServiceDto['read_replica_sets'] = []) {
    this.services.set(id, { service_id: id, status, name: id, read_replica_sets: rs, resources: [] } as unknown as ServiceDto);
  }

  client() {
    const getService = async (_p: string, id: string): Promise<ServiceDto> => {
      this.calls.push({ what: `service:${id}`, at: this.timers.now() });
      const svc = this.services.get(id);
      if (!svc) throw new ApiError('gone', { status: 404, code: 'NOT_FOUND', apiMessage: 'x', method: 'GET', path: '/x' });
      return structuredClone(svc);
    };
    return {
      ...(this.readsOne ? { getService } : {}),
      listServices: async () => {
        this.calls.push({ what: 'services', at: this.timers.now() });
        const snapshot = [...this.services.values()].map((s) => {
          const copy = structuredClone(s);
          if (!this.embeds) delete copy.read_replica_sets;
          return copy;
        });
        if (this.gate) await this.gate;
        if (this.failNext) {
          const err = this.failNext;
          this.failNext = undefined;
          throw err;
        }
        return snapshot;
      },
      listVPCPeerings: async (_p: string, vpcId: string) => {
        this.calls.push({ what: `peerings:${vpcId}`, at: this.timers.now() });
        return [...this.peerings.values()];
      },
      listReplicaSets: async (_p: string, serviceId: string): Promise<ReadReplicaSetDto[]> => {
        this.calls.push({ what: `replicaSets:${serviceId}`, at: this.timers.now() });
        const svc = this.services.get(serviceId);
        if (!svc) throw new ApiError('gone', { status: 404, code: 'NOT_FOUND', apiMessage: 'x', method: 'GET', path: '/x' });
        return structuredClone(svc.read_replica_sets ?? []);
      },
      listVPCs: async () => {
        this.calls.push({ what: 'vpcs', at: this.timers.now() });
        return [...this.vpcs.values()].map((v) => structuredClone(v));
      },
      noteOnce: (line: string) => {
        if (!this.notes.includes(line)) this.notes.push(line);
      },
    };
  }
}

export const count = (w: FakeWorld, what: string) => w.calls.filter((c) => c.what === what).length;

/** A poller on the world's fake clock. */
export const pollerOf = (world: FakeWorld, options: Omit<StatusPollerOptions, 'timers'>) => new StatusPoller(world.client(), { ...options, timers: world.timers });
