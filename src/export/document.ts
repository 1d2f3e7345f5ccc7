// The export as plain data, between the live state and the YAML text: what each config entry
// holds, and the comments that go with it. Fields left undefined are not written (unmanaged).
import type { Addon, EnvironmentTag, HaConfig, ServiceSize } from '../model/index.js';

export interface ExportedPeering {
  id: string;
  peerAccountId: string;
  peerRegionCode: string;
  peerVpcId: string;
  comments: string[];
}

export interface ExportedVpc {
  key: string;
  id: string;
  name: string;
  cidr: string;
  regionCode: string;
  peerings: ExportedPeering[];
}

export interface ExportedReplicaSet {
  key: string;
  id: string;
  name: string;
  cpuMillis: number;
  memoryGbs: number;
  nodes: number;
  pooler: boolean;
  environment?: EnvironmentTag;
  comments: string[];
}

/** `vpc:` as written: a key under vpcs:, the ID of a VPC not in the export, or null (detached). */
export type ExportedVpcRef = { key: string } | { id: string } | null;

export interface ExportedService {
  key: string;
  id: string;
  name: string;
  addons?: Addon[];
  regionCode?: string;
  size?: ServiceSize;
  environment?: EnvironmentTag;
  ha?: HaConfig;
  pooler: boolean;
  vpc: ExportedVpcRef;
  paused: boolean;
  /** Comments written first inside the entry (lineage, fields left unmanaged and why). */
  comments: string[];
  replicaSets: ExportedReplicaSet[];
}

export interface ExportDocument {
  projectId: string;
  vpcs: ExportedVpc[];
  services: ExportedService[];
  /** Live resources not exported, and why: written in the header and reported on stderr. */
  skipped: string[];
}

export function countResources(doc: ExportDocument): { vpcs: number; peerings: number; services: number; replicaSets: number } {
  return {
    vpcs: doc.vpcs.length,
    peerings: doc.vpcs.reduce((n, v) => n + v.peerings.length, 0),
    services: doc.services.length,
    replicaSets: doc.services.reduce((n, s) => n + s.replicaSets.length, 0),
  };
}
