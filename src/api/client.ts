// The typed API client: one method per operation of cloud-api.md, named by the operation.
// Retry behaviour per method is its safety class (retry.ts): reads and repeatable changes are
// retried on any transient failure; checked transitions are retried and read back when a repeat
// is refused after an unknown outcome; creates are re-sent only when the failure proves nothing
// was done, else they throw AmbiguousCreateError.
import type { ApiCredentials } from './credentials.js';
import type * as Dto from './dto.js';
import { DbformError } from '../model/errors.js';
import { ApiError } from './errors.js';
import { HttpTransport, type ApiLogger, type RequestSpec } from './http.js';
import { Requests, type CallOptions } from './requests.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry.js';
import { systemTimers, type Timers } from './timers.js';
import { defaultUserAgent } from './user-agent.js';
import { asMessage, logsQuery, peeringPath, projectPath, replicaSetPath, servicePath, vpcPath } from './paths.js';
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

  constructor(options: ApiClientOptions) {
    this.logger = options.logger;
    const credentials = options.credentials ?? (options.token !== undefined ? { kind: 'bearer' as const, token: options.token } : undefined);
    if (credentials === undefined) throw new DbformError('the API client needs a token or a key pair');
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

  // ---- projects -------------------------------------------------------------------------------

  listProjects(o?: CallOptions): Promise<Dto.ProjectDto[]> {
    return this.requests.list('listProjects', '/projects', 'id', o);
  }

  // ---- VPCs -----------------------------------------------------------------------------------

  listVPCs(p: Id, o?: CallOptions): Promise<Dto.VpcDto[]> {
    return this.requests.list('listVPCs', `${projectPath(p)}/vpcs`, 'id', o);
  }

  createVPC(p: Id, body: Dto.CreateVpcRequestDto, o?: CallOptions): Promise<Dto.VpcDto> {
    return this.requests.object('createVPC', 'POST', `${projectPath(p)}/vpcs`, 'create', o, { body, requestName: body.name });
  }

  getVPC(p: Id, v: Id, o?: CallOptions): Promise<Dto.VpcDto> {
    return this.requests.object('getVPC', 'GET', vpcPath(p, v), 'read', o);
  }

  async deleteVPC(p: Id, v: Id, o?: CallOptions): Promise<void> {
    await this.requests.checked({ op: 'deleteVPC', method: 'DELETE', path: vpcPath(p, v), safety: 'checked', signal: o?.signal }, async (err) =>
      err.status === 404 ? true : undefined,
    );
  }

  renameVPC(p: Id, v: Id, body: Dto.RenameVpcRequestDto, o?: CallOptions): Promise<Dto.MessageResponseDto> {
    return this.requests.message('renameVPC', `${vpcPath(p, v)}/rename`, 'repeatable', o, body);
  }

  // ---- peerings -------------------------------------------------------------------------------

  listVPCPeerings(p: Id, v: Id, o?: CallOptions): Promise<Dto.PeeringDto[]> {
    return this.requests.list('listVPCPeerings', `${vpcPath(p, v)}/peerings`, 'id', o);
  }

  /** The peering's identity is its peer_vpc_id: that is the "name" of an ambiguous create. */
  createVPCPeering(p: Id, v: Id, body: Dto.CreatePeeringRequestDto, o?: CallOptions): Promise<Dto.PeeringDto> {
    const spec = { body, requestName: body.peer_vpc_id };
    return this.requests.object('createVPCPeering', 'POST', `${vpcPath(p, v)}/peerings`, 'create', o, spec);
  }

  getVPCPeering(p: Id, v: Id, x: Id, o?: CallOptions): Promise<Dto.PeeringDto> {
    return this.requests.object('getVPCPeering', 'GET', peeringPath(p, v, x), 'read', o);
  }

  async deleteVPCPeering(p: Id, v: Id, x: Id, o?: CallOptions): Promise<void> {
    const spec: RequestSpec = { op: 'deleteVPCPeering', method: 'DELETE', path: peeringPath(p, v, x), safety: 'checked', signal: o?.signal };
    await this.requests.checked(spec, async (err) => (err.status === 404 ? true : undefined));
  }

  // ---- services -------------------------------------------------------------------------------

  listServices(p: Id, o?: CallOptions): Promise<Dto.ServiceDto[]> {
    return this.requests.list('listServices', `${projectPath(p)}/services`, 'service_id', o);
  }

  /** The answer carries `initial_password`: a secret the caller must not print or store. */
  createService(p: Id, body: Dto.CreateServiceRequestDto, o?: CallOptions): Promise<Dto.ServiceDto> {
    return this.requests.object('createService', 'POST', `${projectPath(p)}/services`, 'create', o, { body, requestName: body.name });
  }

  getService(p: Id, s: Id, o?: CallOptions): Promise<Dto.ServiceDto> {
    return this.requests.object('getService', 'GET', servicePath(p, s), 'read', o);
  }

  async deleteService(p: Id, s: Id, o?: CallOptions): Promise<void> {
    const spec: RequestSpec = { op: 'deleteService', method: 'DELETE', path: servicePath(p, s), safety: 'checked', signal: o?.signal };
    await this.requests.checked(spec, async (err) => {
      if (err.status === 404) return true;
      return verify.showsDeletion(await this.findService(p, s, o)) ? true : undefined;
    });
  }

  startService(p: Id, s: Id, o?: CallOptions): Promise<Dto.ServiceDto | undefined> {
    return this.serviceTransition('startService', p, s, 'start', undefined, o, verify.showsStart);
  }

  stopService(p: Id, s: Id, o?: CallOptions): Promise<Dto.ServiceDto | undefined> {
    return this.serviceTransition('stopService', p, s, 'stop', undefined, o, verify.showsStop);
  }

  async attachServiceToVPC(p: Id, s: Id, body: Dto.VpcAttachmentRequestDto, o?: CallOptions): Promise<Dto.MessageResponseDto> {
    const svc = await this.serviceTransition('attachServiceToVPC', p, s, 'attachToVPC', body, o, (x) => verify.showsAttach(x, body.vpc_id));
    return asMessage(svc);
  }

  async detachServiceFromVPC(p: Id, s: Id, body: Dto.VpcAttachmentRequestDto, o?: CallOptions): Promise<Dto.MessageResponseDto> {
    const svc = await this.serviceTransition('detachServiceFromVPC', p, s, 'detachFromVPC', body, o, (x) => verify.showsDetach(x, body.vpc_id));
    return asMessage(svc);
  }

  resizeService(p: Id, s: Id, body: Dto.ResizeRequestDto, o?: CallOptions): Promise<Dto.ServiceDto | undefined> {
    return this.serviceTransition('resizeService', p, s, 'resize', body, o, (x) => verify.showsServiceResize(x, body));
  }

  enablePooler(p: Id, s: Id, o?: CallOptions): Promise<Dto.MessageResponseDto> {
    return this.requests.message('enablePooler', `${servicePath(p, s)}/enablePooler`, 'repeatable', o);
  }

  disablePooler(p: Id, s: Id, o?: CallOptions): Promise<Dto.MessageResponseDto> {
    return this.requests.message('disablePooler', `${servicePath(p, s)}/disablePooler`, 'repeatable', o);
  }

  /** A create: the answer carries `initial_password`, a secret. */
  forkService(p: Id, s: Id, body: Dto.ForkServiceRequestDto, o?: CallOptions): Promise<Dto.ServiceDto> {
    return this.requests.object('forkService', 'POST', `${servicePath(p, s)}/forkService`, 'create', o, { body, requestName: body.name });
  }

  /** The password is sent once and scrubbed from every message; never logged. */
  async updatePassword(p: Id, s: Id, body: Dto.UpdatePasswordRequestDto, o?: CallOptions): Promise<void> {
    const path = `${servicePath(p, s)}/updatePassword`;
    await this.http.send({ op: 'updatePassword', method: 'POST', path, body, safety: 'repeatable', secrets: [body.password], signal: o?.signal });
  }

  setEnvironment(p: Id, s: Id, body: Dto.SetEnvironmentRequestDto, o?: CallOptions): Promise<Dto.MessageResponseDto> {
    return this.requests.message('setEnvironment', `${servicePath(p, s)}/setEnvironment`, 'repeatable', o, body);
  }

  /** One page, newest first; pass the previous page's cursor (see logs.ts for paging). */
  async getServiceLogs(p: Id, s: Id, query: Dto.LogsQueryDto = {}, o?: CallOptions): Promise<Dto.LogsResponseDto> {
    const spec: RequestSpec = { op: 'getServiceLogs', method: 'GET', path: `${servicePath(p, s)}/logs`, query: logsQuery(query), safety: 'read', signal: o?.signal };
    const data = this.requests.expectObject(spec, (await this.http.send(spec)).data) as Dto.LogsResponseDto;
    if (!Array.isArray(data.logs) && !Array.isArray(data.entries)) throw this.requests.invalid(spec, 'a logs answer without "logs" or "entries"');
    return data;
  }

  setHAReplica(p: Id, s: Id, body: Dto.SetHaRequestDto, o?: CallOptions): Promise<Dto.ServiceDto | undefined> {
    return this.serviceTransition('setHAReplica', p, s, 'setHA', body, o, (x) => verify.showsHa(x, body));
  }

  // ---- read replica sets ----------------------------------------------------------------------

  listReplicaSets(p: Id, s: Id, o?: CallOptions): Promise<Dto.ReadReplicaSetDto[]> {
    return this.requests.list('listReplicaSets', `${servicePath(p, s)}/replicaSets`, 'id', o);
  }

  createReplicaSet(p: Id, s: Id, body: Dto.CreateReplicaSetRequestDto, o?: CallOptions): Promise<Dto.ReadReplicaSetDto> {
    const spec = { body, requestName: body.name };
    return this.requests.object('createReplicaSet', 'POST', `${servicePath(p, s)}/replicaSets`, 'create', o, spec);
  }

  async deleteReplicaSet(p: Id, s: Id, r: Id, o?: CallOptions): Promise<void> {
    const spec: RequestSpec = { op: 'deleteReplicaSet', method: 'DELETE', path: replicaSetPath(p, s, r), safety: 'checked', signal: o?.signal };
    await this.requests.checked(spec, async (err) => {
      if (err.status === 404) return true;
      return verify.showsReplicaSetDeletion(await this.findReplicaSet(p, s, r, o)) ? true : undefined;
    });
  }

  async resizeReplicaSet(p: Id, s: Id, r: Id, body: Dto.ResizeRequestDto, o?: CallOptions): Promise<Dto.MessageResponseDto> {
    const spec: RequestSpec = { op: 'resizeReplicaSet', method: 'POST', path: `${replicaSetPath(p, s, r)}/resize`, body, safety: 'checked', signal: o?.signal };
    const data = await this.requests.checked(spec, async (err) =>
      err.status === 409 && verify.showsReplicaSetResize(await this.findReplicaSet(p, s, r, o), body) ? {} : undefined,
    );
    return asMessage(data);
  }

  enableReplicaPooler(p: Id, s: Id, r: Id, o?: CallOptions): Promise<Dto.MessageResponseDto> {
    return this.requests.message('enableReplicaPooler', `${replicaSetPath(p, s, r)}/enablePooler`, 'repeatable', o);
  }

  disableReplicaPooler(p: Id, s: Id, r: Id, o?: CallOptions): Promise<Dto.MessageResponseDto> {
    return this.requests.message('disableReplicaPooler', `${replicaSetPath(p, s, r)}/disablePooler`, 'repeatable', o);
  }

  setReplicaEnvironment(p: Id, s: Id, r: Id, body: Dto.SetEnvironmentRequestDto, o?: CallOptions): Promise<Dto.MessageResponseDto> {
    return this.requests.message('setReplicaEnvironment', `${replicaSetPath(p, s, r)}/setEnvironment`, 'repeatable', o, body);
  }

  // ---- plumbing -------------------------------------------------------------------------------

  /** A checked POST on a service whose answer (when any: an empty 2xx is valid) is the service. */
  private async serviceTransition(op: string, p: Id, s: Id, action: string, body: unknown, o: CallOptions | undefined, shows: (svc: Dto.ServiceDto) => boolean): Promise<Dto.ServiceDto | undefined> {
    const spec: RequestSpec = { op, method: 'POST', path: `${servicePath(p, s)}/${action}`, body, safety: 'checked', signal: o?.signal };
    const data = await this.requests.checked(spec, async (err) => {
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

  private async findReplicaSet(p: Id, s: Id, r: Id, o?: CallOptions): Promise<Dto.ReadReplicaSetDto | undefined> {
    return (await this.listReplicaSets(p, s, o)).find((rs) => String(rs.id) === r);
  }
}
