// A VPC (SPEC section 1): its managed fields (`name` renames in place, `cidr` and `region_code`
// replace it), its wire body, its operations and how it is planned.
import {
  CIDR_SHAPE_REGEX,
  cidrsOverlap,
  createBody,
  del,
  fieldChange,
  fingerprintFields,
  isCidr,
  isWritableName,
  readLiveFields,
  nameSchema,
  parseCidr,
  post,
  PROJECT_ROUTE,
  REGION_CODE_REGEX,
  regionCodeSchema,
  replaceChanges,
  str,
  updateSteps,
  type ActionReason,
  type Cidr,
  type DesiredVpc,
  type FieldChange,
  type FieldDescriptor,
  type FieldSet,
  type LiveVpc,
  type OperationSpec,
  type SourceRef,
} from '../../model/index.js';
import { effectiveProtect, liveKey, refTo, type PlanContext } from '../../planner/context.js';
import { createdAfresh, draft, type Draft } from '../../planner/drafts.js';
import type { ConfigEntry, ConfigKit, ConfigProblem, ExportKit, KindDefinition, KindPlanner } from '../types.js';

// ---- statuses -------------------------------------------------------------------------------

// Not in either document's VPC; the real service reports one (SPEC section 12).
const STATUSES: ReadonlySet<string> = new Set(['CREATING', 'PENDING', 'CREATED', 'READY', 'ACTIVE']);

/** A VPC that carries a status is usable once it is no longer being created (SPEC section 12). */
export function isVpcSettled(status: string | undefined): boolean {
  if (status === undefined) return true;
  const s = status.toUpperCase();
  return s !== 'CREATING' && s !== 'PENDING';
}

// ---- wire -----------------------------------------------------------------------------------

export interface VpcDto {
  id: string;
  name: string;
  cidr: string;
  region_code: string;
  /** Not in either document's VPC; where present (SPEC section 12): CREATING/PENDING, then settled. */
  status?: string;
}

export interface CreateVpcRequestDto {
  cidr: string;
  name: string;
  region_code: string;
}

export interface RenameVpcRequestDto {
  name: string;
}

// ---- fields ---------------------------------------------------------------------------------

type Field = FieldDescriptor<DesiredVpc, LiveVpc, VpcDto>;

const name: Field = {
  id: 'name',
  schema: { name: nameSchema('VPC') },
  desired: (raw, into, key) => void (into.name = (raw.name as string | undefined) ?? key),
  wire: (w, into) => void (into.name = str(w.name) ?? ''),
  live: (l) => l.name,
  record: (d) => d.name,
  fingerprint: 'name',
  update: (d, l) => (d.name === l.name ? undefined : { op: 'renameVPC', changes: [fieldChange('name', l.name, d.name)], request: { name: d.name } }),
  create: (d, body) => {
    body.request.name = d.name;
    body.changes.push(fieldChange('name', null, d.name));
  },
  export: (l, ctx) => (l.name === ctx.key ? undefined : { values: { name: l.name } }),
};

const cidr: Field = {
  id: 'cidr',
  schema: {
    cidr: {
      type: 'string',
      pattern: CIDR_SHAPE_REGEX,
      description: 'IPv4 block of the VPC as a.b.c.d/n with the host bits zero (e.g. 10.10.0.0/16). Must not overlap another VPC of the project. Changing it replaces the VPC.',
    },
  },
  desired: (raw, into) => void (into.cidr = raw.cidr as string),
  wire: (w, into) => void (into.cidr = str(w.cidr) ?? ''),
  live: (l) => l.cidr,
  record: (d) => d.cidr,
  fingerprint: 'cidr',
  replace: (d, l) => (d.cidr === l.cidr ? undefined : [fieldChange('cidr', l.cidr, d.cidr, true)]),
  create: (d, body) => {
    body.request.cidr = d.cidr;
    body.changes.push(fieldChange('cidr', null, d.cidr));
  },
  export: (l) => ({ values: { cidr: l.cidr } }),
};

const regionCode: Field = {
  id: 'region_code',
  schema: { region_code: regionCodeSchema('Cloud region of the VPC, such as us-east-1 or az-eastus2. Changing it replaces the VPC.') },
  desired: (raw, into) => void (into.regionCode = raw.region_code as string),
  wire: (w, into) => void (into.regionCode = str(w.region_code) ?? ''),
  live: (l) => l.regionCode,
  record: (d) => d.regionCode,
  fingerprint: 'region_code',
  replace: (d, l) => (d.regionCode === l.regionCode ? undefined : [fieldChange('region_code', l.regionCode, d.regionCode, true)]),
  create: (d, body) => {
    body.request.region_code = d.regionCode;
    body.changes.push(fieldChange('region_code', null, d.regionCode));
  },
  // Export selects only VPCs with a region code (src/export/build.ts); the check keeps the field honest alone.
  export: (l, ctx) =>
    REGION_CODE_REGEX.test(l.regionCode) ? { values: { region_code: l.regionCode } } : { unmanaged: `region ${ctx.quote(l.regionCode)} is not a region code: region_code left unmanaged` },
};

export const VPC_FIELDS: FieldSet<DesiredVpc, LiveVpc, VpcDto> = {
  fields: [name, cidr, regionCode],
  create: [name, cidr, regionCode],
  sortedRequest: true,
  replace: [cidr, regionCode],
};

// ---- operations -----------------------------------------------------------------------------

const VPC = `${PROJECT_ROUTE}/vpcs/{vpc_id}`;

// Ranks leave gaps so that a new op slots in between without renumbering; only their order matters.
const OPS = {
  createVPC: { kind: 'vpc', api: post(`${PROJECT_ROUTE}/vpcs`), rank: 40, risk: 'none', safety: 'create', effect: 'create', readyPoint: false, needsReady: false, wait: 'ready' },
  renameVPC: { kind: 'vpc', api: post(`${VPC}/rename`), rank: 100, risk: 'none', safety: 'repeatable', effect: 'update', readyPoint: false, needsReady: false, wait: 'none' },
  deleteVPC: { kind: 'vpc', api: del(VPC), rank: 30, risk: 'connectivity', safety: 'checked', effect: 'delete', readyPoint: false, needsReady: false, wait: 'none' },
} satisfies Record<string, OperationSpec>;

/** Wire -> live: tolerant, its managed fields read by their descriptors. */
export function mapVpc(dto: VpcDto): LiveVpc {
  const live = { id: String(dto.id) } as LiveVpc;
  readLiveFields(VPC_FIELDS, dto, live);
  const status = str(dto.status);
  if (status !== undefined) live.status = status;
  return live;
}

// ---- export ---------------------------------------------------------------------------------

/**
 * The VPCs whose CIDR the loader accepts and that do not overlap a VPC kept before them (in rank
 * order): VPC blocks in a config must not overlap; the others come back with the reason.
 */
function keepDisjoint(vpcs: readonly LiveVpc[], kit: ExportKit): { kept: LiveVpc[]; dropped: Array<{ item: LiveVpc; why: string }> } {
  const kept: Array<{ vpc: LiveVpc; cidr: Cidr }> = [];
  const dropped: Array<{ item: LiveVpc; why: string }> = [];
  for (const vpc of vpcs) {
    const cidr = parseCidr(vpc.cidr);
    if (!isCidr(cidr)) {
      dropped.push({ item: vpc, why: `its CIDR ${kit.quote(vpc.cidr)} ${cidr.message}` });
      continue;
    }
    const clash = kept.find((k) => cidrsOverlap(k.cidr, cidr));
    if (clash) dropped.push({ item: vpc, why: `its CIDR ${vpc.cidr} overlaps ${clash.vpc.cidr} of ${kit.describe('vpc', clash.vpc.name, clash.vpc.id)}, and VPC blocks in a config must not overlap` });
    else kept.push({ vpc, cidr });
  }
  return { kept: kept.map((k) => k.vpc), dropped };
}

// ---- planning (SPEC section 3) --------------------------------------------------------------

function createVpc(d: DesiredVpc, reason: ActionReason, protect: boolean): Draft {
  const { request, changes } = createBody(VPC_FIELDS, d);
  return draft({ address: d.address, kind: 'vpc', op: 'createVPC', reason, changes, refs: { target: { address: d.address } }, request, ...(protect ? { protect: true } : {}) });
}

function deleteVpc(address: string, live: LiveVpc, reason: ActionReason, changes: FieldChange[]): Draft {
  return draft({ address, kind: 'vpc', op: 'deleteVPC', reason, changes, refs: { target: { address, id: live.id } } });
}

/**
 * A created VPC's block against every live VPC this plan keeps (one it deletes first does not
 * count): a VPC over the block of a live one cannot be peered or routed next to it, and usually
 * means a lost binding (the lockfile entry gone, the live VPC renamed by hand) (SPEC section 13).
 */
function overlapCheck(ctx: PlanContext, d: DesiredVpc): void {
  const wanted = parseCidr(d.cidr);
  if (!isCidr(wanted)) return;
  for (const live of ctx.index.vpc.values() as IterableIterator<LiveVpc>) {
    if (ctx.going.has(liveKey('vpc', live.id))) continue;
    const owner = ctx.options.claimedElsewhere?.get(live.id);
    // A twin of the same name is reported as a twin: one error per cause.
    if (owner && live.name === d.name) continue;
    const block = parseCidr(live.cidr);
    if (!isCidr(block) || !cidrsOverlap(wanted, block)) continue;
    const bound = owner ? `, which workspace "${owner.workspace}" binds as ${owner.address}` : '';
    ctx.diagnostics.push({
      severity: 'error',
      code: 'vpc-overlap',
      address: d.address,
      ...at(d.source),
      message:
        `${d.address} would be created with cidr ${d.cidr}, which overlaps the live VPC ${JSON.stringify(live.name)} (${live.id}, ${live.cidr})${bound}. ` +
        `If that is the VPC this config means, bind it with \`dbform import ${d.address} ${live.id}\` (its binding was lost, or it was renamed); ` +
        'otherwise choose a block that does not overlap it',
    });
  }
}

const at = (source: SourceRef | undefined) => (source ? { source } : {});

const planner: KindPlanner<DesiredVpc, LiveVpc> = {
  planDesired(m, ctx: PlanContext) {
    const d = m.desired;
    const protect = effectiveProtect(d, m.entry);
    if (!m.live) {
      const reason = createdAfresh(ctx, d.address, m.entry !== undefined);
      return [createVpc(d, reason, protect)];
    }
    const forcing = replaceChanges(VPC_FIELDS, d, m.live);
    if (forcing.length > 0 || ctx.options.replace.includes(d.address)) {
      const reason: ActionReason = forcing.length > 0 ? 'immutable-field' : 'replace-requested';
      ctx.fresh.set(d.address, reason);
      ctx.going.set(liveKey('vpc', m.live.id), { address: d.address, replaced: true });
      return [deleteVpc(d.address, m.live, reason, forcing), createVpc(d, reason, protect)];
    }
    return updateSteps(VPC_FIELDS, d, m.live, undefined).map((step) => draft({ address: d.address, kind: 'vpc', reason: 'changed', refs: { target: refTo(ctx, d.address) }, ...step }));
  },
  planRemoved(r, live) {
    return [deleteVpc(r.address, live, 'removed', [])];
  },
  check(ctx) {
    for (const v of ctx.desired.vpcs) if (ctx.fresh.has(v.address)) overlapCheck(ctx, v);
  },
  fingerprint(l) {
    return fingerprintFields(VPC_FIELDS, l, { id: l.id });
  },
};

// ---- config rules ---------------------------------------------------------------------------

const CIDR_SHAPE = new RegExp(CIDR_SHAPE_REGEX);

/**
 * A VPC's block is a valid IPv4 `a.b.c.d/n` with the host bits zero, and no two VPCs of the
 * project overlap (routes between VPCs need disjoint blocks).
 */
function checkVpcs(entries: readonly ConfigEntry[], kit: ConfigKit): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const valid: Array<{ entry: ConfigEntry; text: string; cidr: Cidr }> = [];
  for (const entry of entries) {
    const text = entry.value.cidr;
    // A string without the a.b.c.d/n shape is reported by the schema.
    if (typeof text !== 'string' || !CIDR_SHAPE.test(text)) continue;
    const parsed = parseCidr(text);
    if (!isCidr(parsed)) {
      problems.push({ entry, path: ['cidr'], message: `${kit.where(entry)}.cidr: ${JSON.stringify(text)} ${parsed.message}`, code: 'cidr' });
      continue;
    }
    const clash = valid.find((o) => cidrsOverlap(o.cidr, parsed));
    if (clash) {
      const message = `${kit.where(entry)}.cidr: ${text} overlaps ${clash.text} of ${kit.where(clash.entry)} (${kit.place(clash.entry, ['cidr'])}); VPC blocks of a project must not overlap`;
      problems.push({ entry, path: ['cidr'], message, code: 'cidr-overlap' });
    }
    valid.push({ entry, text, cidr: parsed });
  }
  return problems;
}

// ---- the kind -------------------------------------------------------------------------------

export const vpcKind = {
  kind: 'vpc',
  listKey: 'vpcs',
  naming: { key: 'name', desired: (d) => d.name, live: (l) => l.name },
  fields: VPC_FIELDS,
  ops: OPS,
  config: {
    shape: 'map',
    collection: { description: 'VPCs managed by dbform, by key (address vpc.<key>).', keyNoun: 'a VPC' },
    entry: { description: 'A VPC managed by dbform (address vpc.<key>).', required: ['cidr', 'region_code'] },
    protect: true,
    needs: 'a VPC needs at least cidr and region_code',
    check: checkVpcs,
  },
  export: {
    keyPrefix: 'vpc',
    unwritable: (v, kit) =>
      !isWritableName(v.name) ? 'its name is not 1-128 characters' : !REGION_CODE_REGEX.test(v.regionCode) ? `its region ${kit.quote(v.regionCode)} is not a region code` : undefined,
    rank: (v) => v.name,
    together: keepDisjoint,
  },
  import: { renamed: 'the next plan renames the VPC' },
  live: { gone: () => false, known: (status) => STATUSES.has(status.toUpperCase()) },
  read: { list: 'listVPCs', map: mapVpc },
  // Where VPCs carry a status (the real service), nothing may be attached to or peered with one still being created.
  waits: { goals: { ready: { what: () => 'to be created', done: (v) => v !== undefined && isVpcSettled(v.status) } } },
  plan: planner,
} satisfies KindDefinition<DesiredVpc, LiveVpc, VpcDto>;
