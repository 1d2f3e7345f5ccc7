// The export as plain data, between the live state and the YAML text: what each config entry
// holds, and the comments that go with it. Fields left undefined are not written (unmanaged).
import type { ExportedField } from '../model/index.js';

export type { ExportedField };

export interface ExportedPeering {
  id: string;
  /** Its identity within the VPC, as a key is for the other kinds. */
  peerVpcId: string;
  /** Its managed fields as written, in the order of SPEC section 1 (src/model/fields). */
  fields: ExportedField[];
  comments: string[];
}

export interface ExportedVpc {
  key: string;
  id: string;
  /** Its managed fields as written, in the order of SPEC section 1 (src/model/fields). */
  fields: ExportedField[];
  comments: string[];
  peerings: ExportedPeering[];
}

export interface ExportedReplicaSet {
  key: string;
  id: string;
  /** Its managed fields as written, in the order of SPEC section 1 (src/model/fields). */
  fields: ExportedField[];
  comments: string[];
}

export interface ExportedService {
  key: string;
  id: string;
  /** Its managed fields as written, in the order of SPEC section 1 (src/model/fields). */
  fields: ExportedField[];
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
