// Wire types of the cloud API (cloud-api.md, SPEC section 9), shared by the client and the
// emulator and nothing else. Field names are exactly as on the wire. Reads are typed loosely
// where the API may add values (statuses, types): tolerant readers never crash on them.

import type { AddonDto, EndpointDto, EnvironmentTagDto, PeeringFieldsDto, ReplicaSetFieldsDto, ServiceFieldsDto, VpcFieldsDto } from '../model/fields/index.js';

// The wire keys that managed fields read are declared with their descriptors (src/model/fields).
export type { AddonDto, EndpointDto, EnvironmentTagDto, ResourceSpecDto, ServiceTypeDto, VpcEndpointDto } from '../model/fields/index.js';

export const API_PREFIX = '/public/api/v1';

export type ServiceStatusDto =
  | 'QUEUED'
  | 'CONFIGURING'
  | 'READY'
  | 'UNSTABLE'
  | 'PAUSING'
  | 'PAUSED'
  | 'RESUMING'
  | 'UPGRADING'
  | 'DELETING'
  | 'DELETED'
  | 'OPTIMIZING';
export type ReplicaSetStatusDto = 'creating' | 'active' | 'resizing' | 'deleting' | 'error';
export type ForkStrategyDto = 'LAST_SNAPSHOT' | 'NOW' | 'PITR';

export interface ProjectDto {
  id: string;
  name: string;
}

/**
 * `GET /auth/info` (the real service's OpenAPI, AuthInfo): who the credential is. `api_key` for a
 * key pair, with its project; `oauth` for a user token. `apiKey` is the deprecated spelling.
 */
export interface AuthInfoDto {
  type: 'apiKey' | 'oauth' | (string & {});
  api_key?: AuthInfoApiKeyDto;
  apiKey?: AuthInfoApiKeyDto;
  oauth?: { user: AuthInfoUserDto };
}

export interface AuthInfoApiKeyDto {
  public_key: string;
  name: string;
  created: string;
  project: { id: string; name: string; plan_type: string };
  issuing_user: AuthInfoUserDto;
}

export interface AuthInfoUserDto {
  id: string;
  name: string;
  email: string;
}

export interface VpcDto extends VpcFieldsDto {
  id: string;
  /** Not in either document's VPC; where present (SPEC section 12): CREATING/PENDING, then settled. */
  status?: string;
}

export interface PeeringDto extends PeeringFieldsDto {
  id: string;
  error_message?: string;
  provisioned_id?: string;
  /** Free string: pending | active | failed (seed), PENDING | APPROVED | ACTIVE | INVALID... (real). */
  status?: string;
}

export interface ServiceDto extends ServiceFieldsDto {
  created: string;
  project_id: string;
  service_id: string;
  status: ServiceStatusDto | (string & {});
  data_tiering?: { enabled?: boolean };
  endpoint?: EndpointDto;
  forked_from?: { is_standby?: boolean; project_id?: string; service_id?: string };
  /** A secret: only in create and fork responses. */
  initial_password?: string;
  metrics?: { memory_mb?: number; milli_cpu?: number; storage_mb?: number };
  read_replica_sets?: ReadReplicaSetDto[];
}

export interface ReadReplicaSetDto extends ReplicaSetFieldsDto {
  id: string;
  status: ReplicaSetStatusDto | (string & {});
  endpoint?: EndpointDto;
}

export interface MessageResponseDto {
  message?: string;
}

export interface ErrorDto {
  code: string;
  message: string;
  details?: string;
}

export interface LogEntryDto {
  message: string;
  severity: string;
  timestamp: string;
}

export interface LogsResponseDto {
  logs: string[];
  entries?: LogEntryDto[];
  last_cursor?: string;
  /** Deprecated duplicate of last_cursor. */
  lastCursor?: string;
}

// ---- request bodies ---------------------------------------------------------------------------

export interface CreateVpcRequestDto {
  cidr: string;
  name: string;
  region_code: string;
}

export interface RenameVpcRequestDto {
  name: string;
}

export interface CreatePeeringRequestDto {
  peer_account_id: string;
  peer_region_code: string;
  peer_vpc_id: string;
}

export interface CreateServiceRequestDto {
  name: string;
  addons?: AddonDto[];
  /** Digits or `shared`. */
  cpu_millis?: string;
  /** Digits or `shared`. */
  memory_gbs?: string;
  environment_tag?: EnvironmentTagDto;
  region_code?: string;
  replica_count?: number;
}

export interface ForkServiceRequestDto {
  fork_strategy: ForkStrategyDto;
  cpu_millis?: string;
  memory_gbs?: string;
  environment_tag?: EnvironmentTagDto;
  name?: string;
  /** RFC 3339; required with PITR. */
  target_time?: string;
}

export interface VpcAttachmentRequestDto {
  vpc_id: string;
}

export interface ResizeRequestDto {
  /** Digits. */
  cpu_millis: string;
  /** Digits. */
  memory_gbs: string;
}

export interface UpdatePasswordRequestDto {
  password: string;
}

export interface SetEnvironmentRequestDto {
  environment: EnvironmentTagDto;
}

export interface SetHaRequestDto {
  replica_count?: number;
  sync_replica_count?: number;
}

export interface CreateReplicaSetRequestDto {
  cpu_millis: number;
  memory_gbs: number;
  name: string;
  nodes: number;
}

export interface LogsQueryDto {
  cursor?: string;
  node?: number;
  search?: string[];
  severities?: string[];
  since?: string;
  until?: string;
}

// ---- emulator-only --------------------------------------------------------------------------

export interface EmulatorStatsDto {
  /** "<METHOD> <route template>" -> count, e.g. "GET /projects/{project_id}/services". */
  requests: Record<string, number>;
  total: number;
}
