// A VPC peering (SPEC section 1): identified by its peer_vpc_id within its VPC; any other change
// replaces it. Its managed fields, its wire body and its operations.
import {
  del,
  fieldChange,
  post,
  PROJECT_ROUTE,
  regionCodeSchema,
  str,
  type DesiredPeering,
  type FieldDescriptor,
  type FieldSet,
  type LivePeering,
  type OperationSpec,
} from '../../model/index.js';
import type { KindDefinition } from '../types.js';

// ---- wire -----------------------------------------------------------------------------------

export interface PeeringDto {
  id: string;
  peer_account_id: string;
  peer_region_code: string;
  peer_vpc_id: string;
  error_message?: string;
  provisioned_id?: string;
  /** Free string: pending | active | failed (seed), PENDING | APPROVED | ACTIVE | INVALID... (real). */
  status?: string;
}

export interface CreatePeeringRequestDto {
  peer_account_id: string;
  peer_region_code: string;
  peer_vpc_id: string;
}

// ---- fields ---------------------------------------------------------------------------------

type Field = FieldDescriptor<DesiredPeering, LivePeering, PeeringDto>;

const peerAccountId: Field = {
  id: 'peer_account_id',
  schema: {
    peer_account_id: {
      type: 'string',
      minLength: 1,
      description: 'Cloud account ID that owns the peer VPC: 12 digits, quoted so YAML keeps it a string ("123456789012").',
    },
  },
  desired: (raw, into) => void (into.peerAccountId = raw.peer_account_id as string),
  wire: (w, into) => void (into.peerAccountId = str(w.peer_account_id) ?? ''),
  live: (l) => l.peerAccountId,
  record: (d) => d.peerAccountId,
  fingerprint: 'peer_account_id',
  replace: (d, l) => (d.peerAccountId === l.peerAccountId ? undefined : [fieldChange('peer_account_id', l.peerAccountId, d.peerAccountId, true)]),
  create: (d, body) => {
    body.request.peer_account_id = d.peerAccountId;
    body.changes.push(fieldChange('peer_account_id', null, d.peerAccountId));
  },
  // Account IDs are digits: always quoted so that YAML keeps them strings.
  export: (l) => ({ values: { peer_account_id: { quoted: l.peerAccountId } } }),
};

const peerRegionCode: Field = {
  id: 'peer_region_code',
  schema: { peer_region_code: regionCodeSchema('Cloud region of the peer VPC, such as us-east-1 or az-eastus2.') },
  desired: (raw, into) => void (into.peerRegionCode = raw.peer_region_code as string),
  wire: (w, into) => void (into.peerRegionCode = str(w.peer_region_code) ?? ''),
  live: (l) => l.peerRegionCode,
  record: (d) => d.peerRegionCode,
  fingerprint: 'peer_region_code',
  replace: (d, l) => (d.peerRegionCode === l.peerRegionCode ? undefined : [fieldChange('peer_region_code', l.peerRegionCode, d.peerRegionCode, true)]),
  create: (d, body) => {
    body.request.peer_region_code = d.peerRegionCode;
    body.changes.push(fieldChange('peer_region_code', null, d.peerRegionCode));
  },
  export: (l) => ({ values: { peer_region_code: l.peerRegionCode } }),
};

// The identity: a peering is found by it, so a matched one never differs in it.
const peerVpcId: Field = {
  id: 'peer_vpc_id',
  schema: {
    peer_vpc_id: {
      type: 'string',
      minLength: 1,
      description: 'ID of the peer VPC in the other account (e.g. vpc-0a1b2c3d). Unique among the peerings of this VPC.',
    },
  },
  desired: (raw, into) => void (into.peerVpcId = raw.peer_vpc_id as string),
  wire: (w, into) => void (into.peerVpcId = str(w.peer_vpc_id) ?? ''),
  live: (l) => l.peerVpcId,
  record: (d) => d.peerVpcId,
  fingerprint: 'peer_vpc_id',
  create: (d, body) => {
    body.request.peer_vpc_id = d.peerVpcId;
    body.changes.push(fieldChange('peer_vpc_id', null, d.peerVpcId));
  },
  export: (l) => ({ values: { peer_vpc_id: l.peerVpcId } }),
};

export const PEERING_FIELDS: FieldSet<DesiredPeering, LivePeering, PeeringDto> = {
  fields: [peerAccountId, peerRegionCode, peerVpcId],
  create: [peerAccountId, peerRegionCode, peerVpcId],
  sortedRequest: true,
  replace: [peerAccountId, peerRegionCode],
};

// ---- operations -----------------------------------------------------------------------------

const VPC = `${PROJECT_ROUTE}/vpcs/{vpc_id}`;

const OPS = {
  createVPCPeering: { kind: 'peering', api: post(`${VPC}/peerings`), rank: 50, risk: 'none', safety: 'create', effect: 'create', readyPoint: false, needsReady: false, wait: 'peering-settled' },
  deleteVPCPeering: { kind: 'peering', api: del(`${VPC}/peerings/{peering_id}`), rank: 10, risk: 'connectivity', safety: 'checked', effect: 'delete', readyPoint: false, needsReady: false, wait: 'peering-gone' },
} satisfies Record<string, OperationSpec>;

// ---- the kind -------------------------------------------------------------------------------

export const peeringKind = {
  kind: 'peering',
  noun: 'peering',
  nouns: 'peerings',
  parent: 'vpc',
  fields: PEERING_FIELDS,
  ops: OPS,
} satisfies KindDefinition<DesiredPeering, LivePeering, PeeringDto>;
