// Wire types of the cloud API (cloud-api.md, SPEC section 9), shared by the client and the
// emulator and nothing else. Field names are exactly as on the wire. Reads are typed loosely
// where the API may add values (statuses, types): tolerant readers never crash on them.

import type { ReadReplicaSetDto } from '../kinds/replica-set/kind.js';
import type { ServiceOwnDto } from '../kinds/service/fields.js';

// The wire keys of each kind are declared in its folder (src/kinds/<kind>), beside its fields.
export type { AddonDto, EndpointDto, EnvironmentTagDto, ResizeRequestDto, ResourceSpecDto, ServiceTypeDto, SetEnvironmentRequestDto, VpcEndpointDto } from '../model/fields/index.js';
export type { CreateVpcRequestDto, RenameVpcRequestDto, VpcDto } from '../kinds/vpc/kind.js';
export type { CreatePeeringRequestDto, PeeringDto } from '../kinds/peering/kind.js';
export type {
  CreateServiceRequestDto,
  ForkServiceRequestDto,
  ForkStrategyDto,
  RenameServiceRequestDto,
  ServiceStatusDto,
  SetHaRequestDto,
  UpdatePasswordRequestDto,
  VpcAttachmentRequestDto,
} from '../kinds/service/fields.js';
export type { CreateReplicaSetRequestDto, ReadReplicaSetDto, ReplicaSetStatusDto } from '../kinds/replica-set/kind.js';

export const API_PREFIX = '/public/api/v1';

/** A service as the API sends it: its own keys and the replica sets the list embeds (SPEC section 12). */
export interface ServiceDto extends ServiceOwnDto {
  read_replica_sets?: ReadReplicaSetDto[];
}

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
