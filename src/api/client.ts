// The typed API client: one method per operation of cloud-api.md, named by the operation. The
// method, route and safety class of each operation come from its row in src/model/operations.ts.
// Retry behaviour per method is its safety class (retry.ts): reads and repeatable changes are
// retried on any transient failure; checked transitions are retried and read back when a repeat
// is refused after an unknown outcome; creates are re-sent only when the failure proves nothing
// was done, else they throw AmbiguousCreateError.
import type { ApiCredentials } from './credentials.js';
import type * as Dto from './dto.js';
import { DbformError } from '../model/errors.js';
import { pathSegment } from '../model/path-segment.js';
import { type OperationId, type RouteIds } from '../model/operations.js';
import type { ApiCapabilities } from '../model/plan.js';
import { readCapabilities } from './capabilities.js';
import { ApiError } from './errors.js';
import { HttpTransport, type ApiLogger, type RequestSpec } from './http.js';
import { Requests, type CallOptions } from './requests.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry.js';
import { systemTimers, type Timers } from './timers.js';
import { defaultUserAgent } from './user-agent.js';
import { asMessage, logsQuery, projectPath, servicePath, vpcPath } from './paths.js';
import { isGone, mapLive, OPERATIONS } from '../kinds/index.js';
import * as verify from './verify.js';

export interface ApiClientOptions {
  /** Base URL ending in /public/api/v1 (a bare origin gets that prefix). */
  baseUrl: string;
  /** A Bearer token; or give `credentials`, which wins. */
  token?: string;
  /** A Bearer token or an HTTP Basic key pair (SPEC section 12). */
  credentials?: ApiCredentials;
  /** Default `dbform/<version>`. */
  userAgent?: string;
  /** Per attempt; default 30 s. */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  /** Plain http to a non-loopback host is refused unless this is set. */
  allowInsecureHttp?: boolean;
  /** Receives one line per attempt (method, path, status, time, attempt); never a credential or a body. */
  logger?: ApiLogger;
  /** Parallel connections to the API; default 64. */
  connections?: number;
  /** Jitter source, for deterministic tests. */
  random?: () => number;
  /** The clock of the backoff between attempts; tests pass a fake one. */
  timers?: Timers;
}

export type { CallOptions } from './requests.js';

type Id = string;

export class ApiClient {
  private readonly http: HttpTransport;
  private readonly requests: Requests;
  private readonly logger: ApiLogger | undefined;
  private readonly noted = new Set<string>();
  private capabilitiesRead: Promise<Required<ApiCapabilities>> | undefined;
  private readonly keyPair: boolean;

  constructor(options: ApiClientOptions) {
    this.logger = options.logger;
    const credentials = options.credentials ?? (options.token !== undefined ? { kind: 'bearer' as const, token: options.token } : undefined);
    if (credentials === undefined) throw new DbformError('the API client needs a token or a key pair');
    this.keyPair = credentials.kind === 'key-pair';
    this.http = new HttpTransport({
      baseUrl: options.baseUrl,
      credentials,
      userAgent: options.userAgent ?? defaultUserAgent(),
      timeoutMs: options.timeoutMs ?? 30_000,
      retry: { ...DEFAULT_RETRY_POLICY, ...options.retry },
      allowInsecureHttp: options.allowInsecureHttp ?? false,
      logger: options.logger,
      connections: options.connections ?? 64,
      random: options.random ?? Math.random,
      timers: options.timers ?? systemTimers,
    });
    this.requests = new Requests(this.http, this.logger);
  }

  /** The normalized base URL, e.g. `http://127.0.0.1:4010/public/api/v1`. */
  get baseUrl(): string {
    return this.http.baseUrl.href;
  }

  /** After `signal` aborts, failed calls are no longer retried (see HttpTransport.stopRetriesOn). */
  stopRetriesOn(signal: AbortSignal): void {
    this.http.stopRetriesOn(signal);
  }

  /** Closes the keep-alive connections. */
  close(): Promise<void> {
    return this.http.close();
  }

  /** One debug line (`--debug`) about how the API answers, said once per client whatever the callers. */
  noteOnce(line: string): void {
    if (this.noted.has(line)) return;
    this.noted.add(line);
    this.logger?.(`[api] ${line}`);
  }

  // ---- who, and what the API can do ------------------------------------------------------------

  /** `GET /auth/info` (the real service's OpenAPI): who the credential is; undefined where the API does not serve it (404). */
  async authInfo(o?: CallOptions): Promise<Dto.AuthInfoDto | undefined> {
    try {
      return await this.requests.object<Dto.AuthInfoDto>({ op: 'getAuthInfo', method: 'GET', path: '/auth/info', safety: 'read', signal: o?.signal });
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return undefined;
      throw err;
    }
  }

  /** What the API can do (capabilities.ts, SPEC section 15), asked at most once per client. */
  capabilities(): Promise<Required<ApiCapabilities>> {
    this.capabilitiesRead ??= readCapabilities(this).catch((err: unknown) => {
      this.capabilitiesRead = undefined;
      throw err;
    });
    return this.capabilitiesRead;
  }

  // ---- projects -------------------------------------------------------------------------------

  listProjects(o?: CallOptions): Promise<Dto.ProjectDto[]> {
    return this.requests.list('listProjects', '/projects', 'id', o);
  }

  /**
   * The projects the credential works in: a key pair's one project, as GET /auth/info says where
   * the API serves it (the real service: what tiger-cli reads, SPEC section 15), else GET /projects.
   */
  async credentialProjects(o?: CallOptions): Promise<Dto.ProjectDto[]> {
    if (this.keyPair) {
      const info = await this.authInfo(o);
      const project = (info?.api_key ?? info?.apiKey)?.project;
      if (project?.id !== undefined) return [{ id: String(project.id), name: String(project.name ?? '') }];
    }
    return this.listProjects(o);
  }

  // ---- VPCs -----------------------------------------------------------------------------------

  listVPCs(p: Id, o?: CallOptions): Promise<Dto.VpcDto[]> {
    return this.requests.list('listVPCs', `${projectPath(p)}/vpcs`, 'id', o);
  }

  createVPC(p: Id, body: Dto.CreateVpcRequestDto, o?: CallOptions): Promise<Dto.VpcDto> {
    return this.requests.object(this.requests.call('createVPC', { project_id: p }, o, body), body.name);
  }

  getVPC(p: Id, v: Id, o?: CallOptions): Promise<Dto.VpcDto> {
    return this.requests.object({ op: 'getVPC', method: 'GET', path: vpcPath(p, v), safety: 'read', signal: o?.signal });
  }

  async deleteVPC(p: Id, v: Id, o?: CallOptions): Promise<void> {
    await this.requests.checked(this.requests.call('deleteVPC', { project_id: p, vpc_id: v }, o), async (err) => (err.status === 404 ? true : undefined));
  }

  renameVPC(p: Id, v: Id, body: Dto.RenameVpcRequestDto, o?: CallOptions): Promise<Dto.MessageResponseDto> {
    return this.sendOperation('renameVPC', { project_id: p, vpc_id: v }, body, o);
  }

  // ---- peerings -------------------------------------------------------------------------------

  listVPCPeerings(p: Id, v: Id, o?: CallOptions): Promise<Dto.PeeringDto[]> {
    return this.requests.list('listVPCPeerings', `${vpcPath(p, v)}/peerings`, 'id', o);
  }

  /** The peering's identity is its peer_vpc_id: that is the "name" of an ambiguous create. */
  createVPCPeering(p: Id, v: Id, body: Dto.CreatePeeringRequestDto, o?: CallOptions): Promise<Dto.PeeringDto> {
    return this.requests.object(this.requests.call('createVPCPeering', { project_id: p, vpc_id: v }, o, body), body.peer_vpc_id);
  }

  getVPCPeering(p: Id, v: Id, x: Id, o?: CallOptions): Promise<Dto.PeeringDto> {
    return this.requests.object({ op: 'getVPCPeering', method: 'GET', path: `${vpcPath(p, v)}/peerings/${pathSegment(x, 'peering ID')}`, safety: 'read', signal: o?.signal });
  }

  async deleteVPCPeering(p: Id, v: Id, x: Id, o?: CallOptions): Promise<void> {
    const spec = this.requests.call('deleteVPCPeering', { project_id: p, vpc_id: v, peering_id: x }, o);
    await this.requests.checked(spec, async (err) => {
      if (err.status === 404) return true;
      // Already being torn down (SPEC section 15): the first attempt took effect.
      const peering = await this.findPeering(p, v, x, o);
      return peering === undefined || isGone('peering', mapLive('peering', peering, v)) ? true : undefined;
    });
  }

  // ---- services -------------------------------------------------------------------------------

  listServices(p: Id, o?: CallOptions): Promise<Dto.ServiceDto[]> {
    return this.requests.list('listServices', `${projectPath(p)}/services`, 'service_id', o);
  }

  /** The answer carries `initial_password`: a secret the caller must not print or store. */
  createService(p: Id, body: Dto.CreateServiceRequestDto, o?: CallOptions): Promise<Dto.ServiceDto> {
    return this.requests.object(this.requests.call('createService', { project_id: p }, o, body), body.name);
  }

  getService(p: Id, s: Id, o?: CallOptions): Promise<Dto.ServiceDto> {
    return this.requests.object({ op: 'getService', method: 'GET', path: servicePath(p, s), safety: 'read', signal: o?.signal });
  }

  async deleteService(p: Id, s: Id, o?: CallOptions): Promise<void> {
    await this.requests.checked(this.requests.call('deleteService', { project_id: p, service_id: s }, o), async (err) => {
      if (err.status === 404) return true;
      return verify.showsDeletion(await this.findService(p, s, o)) ? true : undefined;
    });
  }

  startService(p: Id, s: Id, o?: CallOptions): Promise<Dto.ServiceDto | undefined> {
    return this.serviceTransition('startService', p, s, undefined, o, verify.showsStart);
  }

  stopService(p: Id, s: Id, o?: CallOptions): Promise<Dto.ServiceDto | undefined> {
    return this.serviceTransition('stopService', p, s, undefined, o, verify.showsStop);
  }

  async attachServiceToVPC(p: Id, s: Id, body: Dto.VpcAttachmentRequestDto, o?: CallOptions): Promise<Dto.MessageResponseDto> {
    const svc = await this.serviceTransition('attachServiceToVPC', p, s, body, o, (x) => verify.showsAttach(x, body.vpc_id));
    return asMessage(svc);
  }

  async detachServiceFromVPC(p: Id, s: Id, body: Dto.VpcAttachmentRequestDto, o?: CallOptions): Promise<Dto.MessageResponseDto> {
    const svc = await this.serviceTransition('detachServiceFromVPC', p, s, body, o, (x) => verify.showsDetach(x, body.vpc_id));
    return asMessage(svc);
  }

  resizeService(p: Id, s: Id, body: Dto.ResizeRequestDto, o?: CallOptions): Promise<Dto.ServiceDto | undefined> {
    return this.serviceTransition('resizeService', p, s, body, o, (x) => verify.showsServiceResize(x, body));
  }

  enablePooler(p: Id, s: Id, o?: CallOptions): Promise<Dto.MessageResponseDto> {
    return this.sendOperation('enablePooler', { project_id: p, service_id: s }, undefined, o);
  }

  disablePooler(p: Id, s: Id, o?: CallOptions): Promise<Dto.MessageResponseDto> {
    return this.sendOperation('disablePooler', { project_id: p, service_id: s }, undefined, o);
  }

  /** Where the API has it (SPEC section 15): answers the Service, same ID, new name. */
  renameService(p: Id, s: Id, body: Dto.RenameServiceRequestDto, o?: CallOptions): Promise<Dto.MessageResponseDto> {
    return this.sendOperation('renameService', { project_id: p, service_id: s }, body, o);
  }

  /** A create: the answer carries `initial_password`, a secret. */
  forkService(p: Id, s: Id, body: Dto.ForkServiceRequestDto, o?: CallOptions): Promise<Dto.ServiceDto> {
    return this.requests.object(this.requests.call('forkService', { project_id: p, service_id: s }, o, body), body.name);
  }

  /** The password is sent once and scrubbed from every message; never logged. */
  async updatePassword(p: Id, s: Id, body: Dto.UpdatePasswordRequestDto, o?: CallOptions): Promise<void> {
    await this.sendOperation('updatePassword', { project_id: p, service_id: s }, body, { ...o, secrets: [body.password] });
  }

  setEnvironment(p: Id, s: Id, body: Dto.SetEnvironmentRequestDto, o?: CallOptions): Promise<Dto.MessageResponseDto> {
    return this.sendOperation('setEnvironment', { project_id: p, service_id: s }, body, o);
  }

  /** One page, newest first; pass the previous page's cursor (see logs.ts for paging). */
  async getServiceLogs(p: Id, s: Id, query: Dto.LogsQueryDto = {}, o?: CallOptions): Promise<Dto.LogsResponseDto> {
    const spec: RequestSpec = { op: 'getServiceLogs', method: 'GET', path: `${servicePath(p, s)}/logs`, query: logsQuery(query), safety: 'read', signal: o?.signal };
    const data = this.requests.expectObject(spec, (await this.http.send(spec)).data) as Dto.LogsResponseDto;
    if (!Array.isArray(data.logs) && !Array.isArray(data.entries)) throw this.requests.invalid(spec, 'a logs answer without "logs" or "entries"');
    return data;
  }

  setHAReplica(p: Id, s: Id, body: Dto.SetHaRequestDto, o?: CallOptions): Promise<Dto.ServiceDto | undefined> {
    return this.serviceTransition('setHAReplica', p, s, body, o, (x) => verify.showsHa(x, body));
  }

  // ---- read replica sets ----------------------------------------------------------------------

  listReplicaSets(p: Id, s: Id, o?: CallOptions): Promise<Dto.ReadReplicaSetDto[]> {
    return this.requests.list('listReplicaSets', `${servicePath(p, s)}/replicaSets`, 'id', o);
  }

  createReplicaSet(p: Id, s: Id, body: Dto.CreateReplicaSetRequestDto, o?: CallOptions): Promise<Dto.ReadReplicaSetDto> {
    return this.requests.object(this.requests.call('createReplicaSet', { project_id: p, service_id: s }, o, body), body.name);
  }

  async deleteReplicaSet(p: Id, s: Id, r: Id, o?: CallOptions): Promise<void> {
    await this.requests.checked(this.requests.call('deleteReplicaSet', { project_id: p, service_id: s, replica_set_id: r }, o), async (err) => {
      if (err.status === 404) return true;
      return verify.showsReplicaSetDeletion(await this.findReplicaSet(p, s, r, o)) ? true : undefined;
    });
  }

  async resizeReplicaSet(p: Id, s: Id, r: Id, body: Dto.ResizeRequestDto, o?: CallOptions): Promise<Dto.MessageResponseDto> {
    const spec = this.requests.call('resizeReplicaSet', { project_id: p, service_id: s, replica_set_id: r }, o, body);
    const data = await this.requests.checked(spec, async (err) =>
      err.status === 409 && verify.showsReplicaSetResize(await this.findReplicaSet(p, s, r, o), body) ? {} : undefined,
    );
    return asMessage(data);
  }

  enableReplicaPooler(p: Id, s: Id, r: Id, o?: CallOptions): Promise<Dto.MessageResponseDto> {
    return this.sendOperation('enableReplicaPooler', { project_id: p, service_id: s, replica_set_id: r }, undefined, o);
  }

  disableReplicaPooler(p: Id, s: Id, r: Id, o?: CallOptions): Promise<Dto.MessageResponseDto> {
    return this.sendOperation('disableReplicaPooler', { project_id: p, service_id: s, replica_set_id: r }, undefined, o);
  }

  setReplicaEnvironment(p: Id, s: Id, r: Id, body: Dto.SetEnvironmentRequestDto, o?: CallOptions): Promise<Dto.MessageResponseDto> {
    return this.sendOperation('setReplicaEnvironment', { project_id: p, service_id: s, replica_set_id: r }, body, o);
  }

  /**
   * An op whose repeat does no harm, as its op table row says; others have their own methods
   * (confirm a refused repeat, adopt a lost create). `secrets`: body values no message may carry.
   */
  async sendOperation(op: OperationId, ids: RouteIds, body?: unknown, o?: CallOptions & { secrets?: string[] }): Promise<Dto.MessageResponseDto> {
    if (OPERATIONS[op].safety !== 'repeatable') throw new DbformError(`${op} is not a repeatable operation: send it through its own client method`);
    const spec = this.requests.call(op, ids, o, body);
    if (o?.secrets !== undefined) spec.secrets = o.secrets;
    return asMessage((await this.http.send(spec)).data);
  }

  // ---- plumbing -------------------------------------------------------------------------------

  /** A checked POST on a service whose answer (when any: an empty 2xx is valid) is the service. */
  private async serviceTransition(op: OperationId, p: Id, s: Id, body: unknown, o: CallOptions | undefined, shows: (svc: Dto.ServiceDto) => boolean): Promise<Dto.ServiceDto | undefined> {
    const data = await this.requests.checked(this.requests.call(op, { project_id: p, service_id: s }, o, body), async (err) => {
      if (err.status !== 409) return undefined;
      const svc = await this.findService(p, s, o);
      return svc !== undefined && shows(svc) ? svc : undefined;
    });
    return typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Dto.ServiceDto) : undefined;
  }

  private async findService(p: Id, s: Id, o?: CallOptions): Promise<Dto.ServiceDto | undefined> {
    try {
      return await this.getService(p, s, o);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return undefined;
      throw err;
    }
  }

  private async findPeering(p: Id, v: Id, x: Id, o?: CallOptions): Promise<Dto.PeeringDto | undefined> {
    try {
      return (await this.listVPCPeerings(p, v, o)).find((peering) => String(peering.id) === x);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return undefined;
      throw err;
    }
  }

  private async findReplicaSet(p: Id, s: Id, r: Id, o?: CallOptions): Promise<Dto.ReadReplicaSetDto | undefined> {
    return (await this.listReplicaSets(p, s, o)).find((rs) => String(rs.id) === r);
  }
}
