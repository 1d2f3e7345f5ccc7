// The emulator's two dialects (SPEC section 12). `seed` answers exactly as cloud-api.md and SPEC
// section 9 say (the default); `tiger` as the real service's OpenAPI document does. Every
// difference between them is one named field of this table: routes, views and auth read the field
// and never ask which dialect runs. docs/api-behaviour.md lists the same differences in words.
import { ALLOWED_SERVICE_SIZES, REGION_CODE_REGEX, SECTION_9_SERVICE_SIZES, SEED_REGION_CODE_REGEX, type DedicatedSize } from '../model/index.js';
import type { Switches } from './switches.js';

export type DialectName = 'seed' | 'tiger';
export const DIALECT_NAMES: readonly DialectName[] = ['seed', 'tiger'];

export type AuthScheme = 'Bearer' | 'Basic';

export interface PeeringStatuses {
  pending: string;
  /** The acceptance step between pending and active; undefined: none. */
  approved?: string;
  active: string;
  /** A peering whose peer account is not 12 digits ends here, with an error_message. */
  failed: string;
  /** A deleted peering while it is torn down (shown only under `teardown: eventual`). */
  deleting: string;
}

export interface Dialect {
  name: DialectName;
  /** Authorization schemes accepted, in the order a 401's WWW-Authenticate offers them. */
  authSchemes: readonly AuthScheme[];
  /** service_type of a service created with the `time-series` addon. */
  timeSeriesType: 'TIMESERIESDB' | 'TIMESCALEDB';
  peeringStatus: PeeringStatuses;
  /** `connection_pooler` while the pooler is off: left out, or an object without an endpoint. */
  disabledPooler: 'absent' | 'without-endpoint';
  /** Whether service bodies carry `read_replica_sets` (else: read `GET .../replicaSets`). */
  embedsReplicaSets: boolean;
  /** Whether service bodies carry `data_tiering` (cloud-api.md lists it; the OpenAPI Service does not). */
  sendsDataTiering: boolean;
  /**
   * Whether service bodies carry `addons` as created: an emulator addition to cloud-api.md (no
   * documented field shows `ai`), so that export can write it; the real service does not.
   */
  reportsAddons: boolean;
  /** A VPC's `status` while it is being created and after; undefined: VPCs carry no status. */
  vpcStatus?: { creating: string; created: string };
  /** region_code of a VPC, peering or service, and the hint a 400 gives. */
  regionPattern: RegExp;
  regionHint: string;
  /** Dedicated cpu_millis/memory_gbs pairs of creates and resizes. */
  sizes: readonly DedicatedSize[];
  /** Whether `POST .../services/{id}/rename` exists (else a rename is a 404 and clients replace). */
  renamesServices: boolean;
  /** Whether `GET /auth/info` (who the credential is, and its project) exists. */
  servesAuthInfo: boolean;
  /** SPEC section 15 behaviours: the dialect's defaults, which startEmulator's options override. */
  switches: Switches;
}

export const DIALECTS: Readonly<Record<DialectName, Dialect>> = {
  seed: {
    name: 'seed',
    authSchemes: ['Bearer'],
    timeSeriesType: 'TIMESERIESDB',
    peeringStatus: { pending: 'pending', active: 'active', failed: 'failed', deleting: 'deleting' },
    disabledPooler: 'absent',
    embedsReplicaSets: true,
    sendsDataTiering: true,
    reportsAddons: true,
    regionPattern: SEED_REGION_CODE_REGEX,
    regionHint: 'must be a region code such as us-east-1',
    sizes: SECTION_9_SERVICE_SIZES,
    renamesServices: false,
    servesAuthInfo: false,
    switches: { backupDelay: 0, peeringAcceptance: 'auto', teardown: 'immediate', endpoints: 'fixed' },
  },
  tiger: {
    name: 'tiger',
    authSchemes: ['Basic', 'Bearer'],
    timeSeriesType: 'TIMESCALEDB',
    peeringStatus: { pending: 'PENDING', approved: 'APPROVED', active: 'ACTIVE', failed: 'INVALID', deleting: 'DELETING' },
    disabledPooler: 'without-endpoint',
    embedsReplicaSets: false,
    sendsDataTiering: false,
    reportsAddons: false,
    vpcStatus: { creating: 'CREATING', created: 'CREATED' },
    regionPattern: REGION_CODE_REGEX,
    regionHint: 'must be a region code such as us-east-1 or az-eastus2',
    sizes: ALLOWED_SERVICE_SIZES,
    renamesServices: true,
    servesAuthInfo: true,
    // SPEC section 15: the real service's timings and teardown, scaled by --time-scale.
    switches: { backupDelay: 30, peeringAcceptance: 'auto', teardown: 'eventual', endpoints: 'moving' },
  },
};

/** The dialect of a name; anything else is a clear error for the person who started the emulator. */
export function dialectNamed(name: string | undefined): Dialect | undefined {
  if (name === undefined) return DIALECTS.seed;
  return (DIALECT_NAMES as readonly string[]).includes(name) ? DIALECTS[name as DialectName] : undefined;
}
