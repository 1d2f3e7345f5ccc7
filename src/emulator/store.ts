// The emulator's world: projects, tokens and the resources inside each project. Records are
// plain JSON-friendly objects (camelCase) held in insertion-ordered Maps, so listing is a walk
// and persistence is one JSON.stringify. Statuses in flux are not stored as such: a record holds
// the deadlines of its transition (timelines.ts) and the status is computed when read.
import { randomInt } from 'node:crypto';
import type { AddonDto, EnvironmentTagDto, ServiceStatusDto } from '../api/dto.js';
import type { DedicatedSize } from '../model/sizes.js';

export type { DedicatedSize };
export type ServiceSize = DedicatedSize | 'shared';
/** What a service's status can be in the emulator: the documented ones, and FAILED (SPEC section 15). */
export type ServiceStatus = ServiceStatusDto | 'FAILED';

export interface HaRecord {
  replicaCount: number;
  syncReplicaCount: number;
}

/** One step of a transition: the status shown until the absolute epoch-ms `until`. */
export interface Step<S extends string> {
  status: S;
  until: number;
}

export interface ServiceTimeline {
  steps: Array<Step<ServiceStatusDto>>;
  /** The status once every step is over; GONE removes the service. */
  then: 'READY' | 'PAUSED' | 'GONE';
  /** Applied when the transition completes (resize, setHA). */
  size?: ServiceSize;
  ha?: HaRecord;
}

export interface VpcAttachment {
  vpcId: string;
  /** A pending attach shows no endpoint until `until`; a pending detach keeps it until then. */
  pending?: 'attach' | 'detach';
  until: number;
}

export interface ReplicaSetTimeline {
  status: 'creating' | 'resizing' | 'deleting';
  until: number;
  then: 'active' | 'GONE';
  size?: DedicatedSize;
}

export interface ReplicaSetRecord {
  id: string;
  name: string;
  cpuMillis: number;
  memoryGbs: number;
  nodes: number;
  pooler: boolean;
  environment: EnvironmentTagDto;
  status: 'active' | 'error';
  timeline?: ReplicaSetTimeline;
}

export interface ServiceRecord {
  id: string;
  name: string;
  regionCode: string;
  serviceType: 'TIMESERIESDB' | 'POSTGRES';
  /** The create body's addons, sorted (a fork has its parent's); absent in a state file from before. */
  addons?: AddonDto[];
  createdAt: number;
  resourceId: string;
  size: ServiceSize;
  ha: HaRecord;
  environment: EnvironmentTagDto;
  pooler: boolean;
  /**
   * The settled status; a running timeline overrides it. FAILED is set only by the test control
   * (`POST /__emulator/services/{id}/fail`) and lasts until the service is deleted.
   */
  status: 'READY' | 'PAUSED' | 'FAILED';
  /** Epoch ms of its first backup (forks and replica sets need one); absent: it has one. */
  backupAt?: number;
  timeline?: ServiceTimeline;
  vpc?: VpcAttachment;
  forkedFrom?: { projectId: string; serviceId: string };
  /** Whose data the storage holds (its ID seeds `metrics.storage_mb`): a fork keeps its parent's. */
  storageOf?: string;
  replicaSets: Map<string, ReplicaSetRecord>;
}

export interface PeeringRecord {
  id: string;
  peerAccountId: string;
  peerRegionCode: string;
  peerVpcId: string;
  /** Pending until this epoch ms, then active or failed. */
  settlesAt: number;
  /** Where a dialect has an acceptance step, the peering shows it from settlesAt until this. */
  approvedUntil?: number;
  fails: boolean;
  provisionedId: string;
  /** Made under manual acceptance and not accepted yet: pending (with provisioned_id) after settlesAt. */
  awaitsAcceptance?: boolean;
  /** Deleted under eventual teardown: listed as deleting until this epoch ms, then gone. */
  deletingUntil?: number;
}

export interface VpcRecord {
  id: string;
  name: string;
  cidr: string;
  regionCode: string;
  /** Where a dialect shows a VPC status, the VPC is being created until this epoch ms. */
  readyAt?: number;
  peerings: Map<string, PeeringRecord>;
  /** Services attached or attaching/detaching (derived; rebuilt on load). */
  attached: Set<string>;
}

export interface ProjectRecord {
  id: string;
  name: string;
  vpcs: Map<string, VpcRecord>;
  services: Map<string, ServiceRecord>;
}

export type TokenRecord =
  | { token: string; kind: 'pat'; projectId: string }
  | { token: string; kind: 'oauth'; projectIds: string[] };

/** A client credential pair (HTTP Basic `public_key:secret_key`), scoped to one project like a PAT. */
export interface KeyPairRecord {
  publicKey: string;
  secretKey: string;
  projectId: string;
}

const ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';

export class World {
  readonly projects = new Map<string, ProjectRecord>();
  readonly tokens = new Map<string, TokenRecord>();
  /** By public key. */
  readonly keyPairs = new Map<string, KeyPairRecord>();
  private readonly usedIds = new Set<string>();

  addProject(id: string, name: string): ProjectRecord {
    const project: ProjectRecord = { id, name, vpcs: new Map(), services: new Map() };
    this.projects.set(id, project);
    this.usedIds.add(id);
    return project;
  }

  /** Marks an ID as taken (IDs loaded from a state file). */
  reserveId(id: string): void {
    this.usedIds.add(id);
  }

  /** A fresh ID: 10 lowercase alphanumerics, or 10 digits (VPCs, peerings). */
  newId(kind: 'alnum' | 'digits'): string {
    for (;;) {
      let id = '';
      if (kind === 'digits') {
        id = String(randomInt(1, 10)) + String(randomInt(0, 1_000_000_000)).padStart(9, '0');
      } else {
        for (let i = 0; i < 10; i++) id += ALNUM[randomInt(0, ALNUM.length)];
      }
      if (!this.usedIds.has(id)) {
        this.usedIds.add(id);
        return id;
      }
    }
  }
}

export function sizeOf(size: ServiceSize): string {
  return size === 'shared' ? 'shared/shared' : `${size.cpuMillis}/${size.memoryGbs}`;
}
