// A VPC peering (SPEC section 1): identified by its peer_vpc_id within its VPC; any other change
// replaces it, and a failed one is replaced too. Its managed fields, its wire body, its operations,
// what its statuses mean, and how it is planned.
import {
  createBody,
  del,
  fieldChange,
  fingerprintFields,
  readLiveFields,
  post,
  PROJECT_ROUTE,
  REGION_CODE_REGEX,
  regionCodeSchema,
  replaceChanges as fieldReplaceChanges,
  str,
  vpcAddress,
  type ActionReason,
  type Address,
  type DesiredPeering,
  type FieldChange,
  type FieldDescriptor,
  type FieldSet,
  type LivePeering,
  type OperationSpec,
} from '../../model/index.js';
import { effectiveProtect, liveKey, refTo, type PlanContext } from '../../planner/context.js';
import { change, createdAfresh, draft, type Draft } from '../../planner/drafts.js';
import type { ConfigEntry, ConfigKit, ConfigProblem, KindDefinition, KindPlanner } from '../types.js';

// ---- statuses (cloud-api.md 3.3: a free string) ---------------------------------------------

/** What a status means for dbform: still on its way, usable, failed for good, or being torn down. */
export type PeeringPhase = 'pending' | 'done' | 'failed' | 'deleting' | 'unknown';

// Compared case-insensitively: the emulator's seed dialect says `active`, the real service `ACTIVE`.
// APPROVED is the real service's acceptance step: the peering is usable from then on. A deleted
// peering is torn down eventually (SPEC section 15): listed as DELETING until it is gone.
const PHASES: ReadonlyMap<string, PeeringPhase> = new Map([
  ['PENDING', 'pending'],
  ['APPROVED', 'done'],
  ['ACTIVE', 'done'],
  ['INVALID', 'failed'],
  ['TIMEOUT', 'failed'],
  ['DISABLED', 'failed'],
  ['FAILED', 'failed'],
  ['ERROR', 'failed'],
  ['DELETING', 'deleting'],
]);

export function peeringPhase(status: string | undefined): PeeringPhase {
  if (status === undefined) return 'unknown';
  return PHASES.get(status.toUpperCase()) ?? 'unknown';
}

export const isPeeringFailed = (status: string | undefined): boolean => peeringPhase(status) === 'failed';
/**
 * PENDING with a provisioned_id: made on the provider's side, waiting for the peer account to accept
 * it (SPEC section 15; Terraform's provider counts it as created). Before the ID appears it is
 * still on its way.
 */
export const awaitsPeer = (l: Pick<LivePeering, 'status' | 'provisionedId'>): boolean => peeringPhase(l.status) === 'pending' && l.provisionedId !== undefined;
/** Deleted, and listed until it is torn down: as good as gone, but its VPC cannot go yet. */
export const isPeeringDeleting = (status: string | undefined): boolean => peeringPhase(status) === 'deleting';
/** The real service spells it PENDING. */
export const isPeeringSettling = (status: string | undefined): boolean => status?.toLowerCase() === 'pending';

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
  createVPCPeering: { kind: 'peering', api: post(`${VPC}/peerings`), rank: 50, risk: 'none', safety: 'create', effect: 'create', readyPoint: false, needsReady: false, wait: 'ready' },
  deleteVPCPeering: { kind: 'peering', api: del(`${VPC}/peerings/{peering_id}`), rank: 10, risk: 'connectivity', safety: 'checked', effect: 'delete', readyPoint: false, needsReady: false, wait: 'gone' },
} satisfies Record<string, OperationSpec>;

/** Wire -> live: tolerant, its managed fields read by their descriptors. */
export function mapPeering(dto: PeeringDto, vpcId: string): LivePeering {
  const live = { id: String(dto.id), vpcId } as LivePeering;
  readLiveFields(PEERING_FIELDS, dto, live);
  const status = str(dto.status);
  if (status !== undefined) live.status = status;
  const errorMessage = str(dto.error_message);
  if (errorMessage !== undefined) live.errorMessage = errorMessage;
  const provisionedId = str(dto.provisioned_id);
  if (provisionedId !== undefined) live.provisionedId = provisionedId;
  return live;
}

// ---- planning (SPEC section 3) --------------------------------------------------------------

function createPeering(d: DesiredPeering, reason: ActionReason, protect: boolean, ctx: PlanContext): Draft {
  const owner = vpcAddress(d.vpcKey);
  const { request, changes } = createBody(PEERING_FIELDS, d);
  return draft({
    address: d.address,
    kind: 'peering',
    op: 'createVPCPeering',
    reason,
    changes,
    refs: { target: { address: d.address }, vpc: refTo(ctx, owner) },
    request,
    owner,
    ...(protect ? { protect: true } : {}),
  });
}

function deletePeering(address: Address, owner: Address | undefined, live: LivePeering, reason: ActionReason, changes: FieldChange[]): Draft {
  return draft({
    address,
    kind: 'peering',
    op: 'deleteVPCPeering',
    reason,
    changes,
    refs: { target: { address, id: live.id }, vpc: { id: live.vpcId } },
    frees: liveKey('vpc', live.vpcId),
    ...(owner ? { owner } : {}),
  });
}

// A failed peering never recovers by itself (Terraform would call it tainted): replace it. Its
// statuses are read case-insensitively (`failed` in cloud-api.md, `INVALID`, `TIMEOUT`... live).
function replaceChanges(d: DesiredPeering, l: LivePeering): FieldChange[] {
  const forcing = fieldReplaceChanges(PEERING_FIELDS, d, l);
  if (isPeeringFailed(l.status)) forcing.unshift(change('status', l.status, 'active', true));
  return forcing;
}

function forcedReason(forcing: FieldChange[]): ActionReason {
  if (forcing.length === 0) return 'replace-requested';
  return forcing.every((c) => c.path === 'status') ? 'failed' : 'immutable-field';
}

const planner: KindPlanner<DesiredPeering, LivePeering> = {
  planDesired(m, ctx) {
    const d = m.desired;
    const protect = effectiveProtect(undefined, m.entry);
    if (!m.live) {
      const reason = createdAfresh(ctx, d.address, m.entry !== undefined);
      return [createPeering(d, reason, protect, ctx)];
    }
    // A replaced VPC takes its peerings with it: delete them first (deleteVPC needs that), recreate after.
    const vpcReason = ctx.fresh.get(vpcAddress(d.vpcKey));
    const forcing = replaceChanges(d, m.live);
    const requested = ctx.options.replace.includes(d.address);
    if (vpcReason === undefined && forcing.length === 0 && !requested) return [];
    const reason: ActionReason = vpcReason !== undefined ? 'parent-replaced' : forcedReason(forcing);
    ctx.fresh.set(d.address, reason);
    return [deletePeering(d.address, vpcAddress(d.vpcKey), m.live, reason, forcing), createPeering(d, reason, protect, ctx)];
  },
  planRemoved(r, live) {
    return [deletePeering(r.address, undefined, live, 'removed', [])];
  },
  fingerprint(l) {
    return fingerprintFields(PEERING_FIELDS, l, { id: l.id, vpc_id: l.vpcId, failed: isPeeringFailed(l.status) });
  },
};

// Done once usable, or once it waits only for the peer account: that is for others to do.
const ACTIVE = { what: () => 'to be active', done: (p: LivePeering | undefined) => p !== undefined && (peeringPhase(p.status) === 'done' || awaitsPeer(p)) };

// ---- config rules ---------------------------------------------------------------------------

/**
 * A peering is identified by its peer_vpc_id within its VPC, so one VPC peers a given VPC once. A
 * peer account that is not 12 digits is a warning: the cloud accepts the request, and the peering
 * fails later.
 */
function checkPeerings(entries: readonly ConfigEntry[], kit: ConfigKit): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const seen = new Map<string, ConfigEntry>();
  for (const entry of entries) {
    const account = entry.value.peer_account_id;
    if (typeof account === 'string' && !/^\d{12}$/.test(account)) {
      const message = `${kit.where(entry)}.peer_account_id: ${JSON.stringify(account)} is not a 12-digit account ID; the peering will fail`;
      problems.push({ entry, path: ['peer_account_id'], message, code: 'peer-account-id', severity: 'warning' });
    }
    const peerVpcId = entry.value.peer_vpc_id;
    if (typeof peerVpcId !== 'string') continue;
    const first = seen.get(peerVpcId);
    if (first) {
      const message = `${kit.where(entry)}.peer_vpc_id: ${peerVpcId} is already peered by peerings[${first.key}] of this VPC; a VPC peers each peer VPC once`;
      problems.push({ entry, path: ['peer_vpc_id'], message, code: 'duplicate-peering' });
    } else seen.set(peerVpcId, entry);
  }
  return problems;
}

// ---- the kind -------------------------------------------------------------------------------

export const peeringKind = {
  kind: 'peering',
  parent: 'vpc',
  listKey: 'peerings',
  naming: { key: 'peer_vpc_id', desired: (d) => d.peerVpcId, live: (l) => l.peerVpcId },
  blocksParentDelete: true,
  fields: PEERING_FIELDS,
  ops: OPS,
  config: {
    shape: 'list',
    collection: { description: 'Peering connections of this VPC, each identified by its peer_vpc_id (address peering.<vpcKey>.<peer_vpc_id>).' },
    entry: {
      description: 'A VPC peering connection to a VPC of another cloud account. Its identity is peer_vpc_id; changing any field replaces it.',
      required: ['peer_account_id', 'peer_region_code', 'peer_vpc_id'],
    },
    check: checkPeerings,
  },
  export: {
    unwritable: (p, kit, kept) => {
      if (isPeeringDeleting(p.status)) return `it is being deleted (${p.status})`;
      if (p.peerAccountId === '') return 'it has no peer_account_id';
      if (p.peerVpcId === '') return 'it has no peer_vpc_id';
      if (!REGION_CODE_REGEX.test(p.peerRegionCode)) return `its peer region ${kit.quote(p.peerRegionCode)} is not a region code`;
      if (kept.has(p.peerVpcId)) return 'another peering of the VPC has the same peer_vpc_id';
      return undefined;
    },
    comments: (p, _scope, kit) =>
      isPeeringFailed(p.status) ? [`status ${p.status}${p.errorMessage === undefined ? '' : `: ${kit.comment(p.errorMessage)}`}; a plan replaces this peering (delete + create)`] : [],
    describe: (p, kit, vpc) => `peering ${p.id} of ${vpc} to ${kit.quote(p.peerVpcId)}`,
  },
  described: 'a VPC peering',
  import: {
    label: (p) => `peering ${p.id} to "${p.peerVpcId}"`,
    misaddressed: (id, p, address, named, right) => `peering ${id} connects to peer VPC "${p.peerVpcId}", but ${address} names "${named}"; its address is ${right}`,
  },
  live: {
    gone: (l) => isPeeringDeleting(l.status),
    parentId: (l) => l.vpcId,
    settling: (l) => isPeeringSettling(l.status) && !awaitsPeer(l),
    failed: (l) => isPeeringFailed(l.status),
    awaiting: (l) => (awaitsPeer(l) ? `acceptance by account ${l.peerAccountId}` : undefined),
    describe: (l) => `to ${l.peerVpcId} (${l.id})`,
    known: (status) => peeringPhase(status) !== 'unknown',
  },
  // A VPC's peerings are read for the VPCs asked for: one list each, never embedded (SPEC section 8: 2 + V).
  read: { list: 'listVPCPeerings', map: mapPeering, unread: 'absent' },
  waits: {
    // APPROVED and ACTIVE (any case) are done, and so is PENDING with a provisioned_id (awaiting the
    // peer); a failed status fails the wait with the peering's own error message (terminal); anything
    // else is waited out.
    goals: { ready: ACTIVE, settled: ACTIVE },
    terminal: (p) =>
      isPeeringFailed(p.status)
        ? `failed: ${p.errorMessage ?? `status ${p.status}, no error message`}`
        : isPeeringDeleting(p.status)
          ? `is being deleted (status ${p.status}) while waiting for it`
          : undefined,
  },
  plan: planner,
} satisfies KindDefinition<DesiredPeering, LivePeering, PeeringDto>;
