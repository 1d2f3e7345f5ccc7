// How a poll tick reads the services and replica sets it is due to look at (SPEC sections 5 and
// 8): one `GET .../services` list, which covers every service however many wait, or reads of just
// the resources due (`GET .../services/{id}`; a replica set through its service's
// `GET .../replicaSets`, there being no GET of one set). The tick takes whichever costs less for
// everything that waits (what is not due now will be soon; a list serves it too): a request counts
// as REQUEST_ITEMS services of transfer, a list as one request plus every service of the project
// (known from the last list; before any, at most UNKNOWN_SIZE_READS waits are read per resource).
// So one resize waited for costs the same bytes in a project of 10 services as in one of 10,000,
// and 100 waits in a 100-service project still cost one request a tick. Past MAX_READS_PER_TICK
// waits one list is kinder to the API's rate limits, whatever its size.
import type { LiveReplicaSet, LiveService } from '../model/resources.js';
import type { ApiClient } from './client.js';
import type { ServiceDto } from './dto.js';
import { ApiError } from './errors.js';
import { kindDef, mapLive } from '../kinds/index.js';
import type { Covering, ReadRequest } from './poll-channel.js';

export const REQUEST_ITEMS = 2;
export const UNKNOWN_SIZE_READS = 4;
export const MAX_READS_PER_TICK = 32;
const READS_IN_FLIGHT = 8;

const replicaSets = kindDef('replica_set');
/** Whether a services-list item carries its replica sets (cloud-api.md does; the real API may not). */
const embedsReplicaSets = (dto: ServiceDto): boolean => replicaSets.read.embedded!(dto) !== undefined;
const mapService = (dto: ServiceDto) => mapLive('service', dto) as LiveService;
const mapReplicaSet = (dto: unknown, serviceId: string) => mapLive('replica_set', dto, serviceId) as LiveReplicaSet;

export type ServiceReadsClient = Pick<ApiClient, 'listServices' | 'listReplicaSets'> & Partial<Pick<ApiClient, 'getService' | 'noteOnce'>>;

/** The key of a wait on a service, and of a wait on one of a service's replica sets. */
export const serviceKey = (serviceId: string) => `s:${serviceId}`;
export const replicaSetsKey = (serviceId: string) => `r:${serviceId}`;

export interface ProjectSnapshot extends Covering {
  /** The service as read; undefined when it is absent. */
  service(serviceId: string): LiveService | undefined;
  /** The service's replica sets as read; undefined when the service is absent. */
  replicaSets(serviceId: string): LiveReplicaSet[] | undefined;
}

export interface ServiceReadStats {
  lists: number;
  serviceReads: number;
  replicaSetReads: number;
}

export class ServiceReads {
  /** Services in the project at the last list; undefined before the first. */
  private knownServices: number | undefined;
  /** Whether the last list embedded replica sets (undefined: not known yet). */
  private embeds: boolean | undefined;
  readonly stats: ServiceReadStats = { lists: 0, serviceReads: 0, replicaSetReads: 0 };

  constructor(
    private readonly client: ServiceReadsClient,
    private readonly projectId: string,
  ) {}

  read(request: ReadRequest): Promise<ProjectSnapshot> {
    const [services, sets] = splitKeys(request.due);
    const [allServices, allSets] = splitKeys(request.waiting);
    return this.perResource(allServices.length, allSets.length) ? this.readEach(services, sets) : this.readList(sets);
  }

  private perResource(services: number, sets: number): boolean {
    const reads = services + sets;
    if (reads === 0 || reads > MAX_READS_PER_TICK) return false;
    if (services > 0 && this.client.getService === undefined) return false;
    if (this.knownServices === undefined) return reads <= UNKNOWN_SIZE_READS;
    // Where the list leaves replica sets out, a list tick reads each set's list anyway.
    const listCost = REQUEST_ITEMS + this.knownServices + (this.embeds === false ? sets * (REQUEST_ITEMS + 1) : 0);
    return reads * (REQUEST_ITEMS + 1) < listCost;
  }

  private async readList(sets: string[]): Promise<ProjectSnapshot> {
    this.stats.lists++;
    const list = await this.client.listServices(this.projectId);
    this.knownServices = list.length;
    const dtos = new Map<string, ServiceDto>();
    for (const dto of list) dtos.set(String(dto.service_id), dto);
    if (list.length > 0) this.embeds = list.every(embedsReplicaSets);
    const unembedded = sets.filter((id) => dtos.has(id) && !embedsReplicaSets(dtos.get(id)!));
    if (unembedded.length > 0) this.client.noteOnce?.(replicaSets.read.unembeddedNote!);
    const setsRead = new Map<string, LiveReplicaSet[] | undefined>();
    await this.inBatches(unembedded, async (id) => setsRead.set(id, await this.readSets(id)));
    return listView(dtos, setsRead);
  }

  private async readEach(services: string[], sets: string[]): Promise<ProjectSnapshot> {
    const servicesRead = new Map<string, LiveService | undefined>();
    const setsRead = new Map<string, LiveReplicaSet[] | undefined>();
    await this.inBatches([...services.map((id) => ['s', id] as const), ...sets.map((id) => ['r', id] as const)], async ([kind, id]) => {
      if (kind === 's') servicesRead.set(id, await this.readService(id));
      else setsRead.set(id, await this.readSets(id));
    });
    return {
      covers: (key) => (key.startsWith('s:') ? servicesRead.has(key.slice(2)) : setsRead.has(key.slice(2))),
      service: (id) => servicesRead.get(id),
      replicaSets: (id) => setsRead.get(id),
    };
  }

  private async readService(id: string): Promise<LiveService | undefined> {
    this.stats.serviceReads++;
    return absentOn404(async () => mapService(await this.client.getService!(this.projectId, id)));
  }

  /** A 404 means the service is gone, and its replica sets with it. */
  private async readSets(serviceId: string): Promise<LiveReplicaSet[] | undefined> {
    this.stats.replicaSetReads++;
    return absentOn404(async () => (await this.client.listReplicaSets(this.projectId, serviceId)).map((r) => mapReplicaSet(r, serviceId)));
  }

  private async inBatches<T>(items: readonly T[], run: (item: T) => Promise<unknown>): Promise<void> {
    for (let i = 0; i < items.length; i += READS_IN_FLIGHT) await Promise.all(items.slice(i, i + READS_IN_FLIGHT).map(run));
  }
}

/** Service IDs of service waits, and of replica-set waits. */
function splitKeys(keys: readonly string[]): [string[], string[]] {
  const services: string[] = [];
  const sets: string[] = [];
  for (const key of keys) (key.startsWith('s:') ? services : sets).push(key.slice(2));
  return [services, sets];
}

async function absentOn404<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return undefined;
    throw err;
  }
}

/** A list covers every service; a replica-set key when the list embeds its sets or they were read. Mapped only when asked. */
function listView(dtos: Map<string, ServiceDto>, setsRead: Map<string, LiveReplicaSet[] | undefined>): ProjectSnapshot {
  const mapped = new Map<string, LiveService>();
  const service = (id: string) => {
    let live = mapped.get(id);
    const dto = dtos.get(id);
    if (live === undefined && dto !== undefined) mapped.set(id, (live = mapService(dto)));
    return live;
  };
  return {
    covers(key) {
      if (key.startsWith('s:')) return true;
      const dto = dtos.get(key.slice(2));
      return dto === undefined || embedsReplicaSets(dto) || setsRead.has(key.slice(2));
    },
    service,
    replicaSets: (id) => (setsRead.has(id) ? setsRead.get(id) : service(id)?.replicaSets),
  };
}
