// Creates that would duplicate what already exists (SPEC section 13). A service or VPC created
// under the name of a live one that another workspace binds is a twin, and almost always means the
// wrong workspace (a DBFORM_WORKSPACE left over in the shell); a VPC created over the block of a
// live VPC cannot be peered or routed next to it, and usually means a lost binding (the lockfile
// entry gone, the live VPC renamed by hand). Both are plan errors: nothing is created.
import { cidrsOverlap, isCidr, parseCidr, type Address, type Diagnostic, type SourceRef } from '../model/index.js';
import type { PlanContext } from './context.js';

interface Created {
  kind: 'service' | 'vpc';
  address: Address;
  name: string;
  source?: SourceRef;
}

/** Adds an error for every create of this plan that would make a twin or overlap a live VPC. */
export function twinChecks(ctx: PlanContext): void {
  const created: Created[] = [
    ...ctx.desired.vpcs.filter((v) => ctx.fresh.has(v.address)).map((v) => ({ kind: 'vpc' as const, address: v.address, name: v.name, ...at(v.source) })),
    ...ctx.desired.services.filter((s) => ctx.fresh.has(s.address)).map((s) => ({ kind: 'service' as const, address: s.address, name: s.name, ...at(s.source) })),
  ];
  if (created.length === 0) return;
  const live = [...ctx.index.vpcs.values(), ...ctx.index.services.values()];
  for (const c of created) {
    const twin = live.find((l) => kindOfLive(ctx, l.id) === c.kind && l.name === c.name && ctx.options.claimedElsewhere?.has(l.id));
    if (twin) ctx.diagnostics.push(twinError(ctx, c, twin));
  }
  for (const v of ctx.desired.vpcs) if (ctx.fresh.has(v.address)) overlapCheck(ctx, v.address, v.cidr, v.source);
}

const at = (source: SourceRef | undefined) => (source ? { source } : {});

function kindOfLive(ctx: PlanContext, id: string): 'service' | 'vpc' {
  return ctx.index.vpcs.has(id) ? 'vpc' : 'service';
}

function twinError(ctx: PlanContext, c: Created, twin: { id: string; name: string }): Diagnostic {
  const owner = ctx.options.claimedElsewhere!.get(twin.id)!;
  const noun = c.kind === 'vpc' ? 'VPC' : 'service';
  return {
    severity: 'error',
    code: 'twin',
    address: c.address,
    ...at(c.source),
    message:
      `${c.address} would be created with the name ${JSON.stringify(c.name)}, which is the name of the live ${noun} ${twin.id} that workspace "${owner.workspace}" binds as ${owner.address}: ` +
      `that would make a twin of it. To work on workspace "${owner.workspace}", run with --workspace ${owner.workspace} ` +
      '(a DBFORM_WORKSPACE left over in the shell is the usual cause); otherwise give it a name of its own, such as one with ${workspace} in it',
  };
}

/** A created VPC's block against every live VPC this plan keeps (one it deletes first does not count). */
function overlapCheck(ctx: PlanContext, address: Address, cidr: string, source: SourceRef | undefined): void {
  const wanted = parseCidr(cidr);
  if (!isCidr(wanted)) return;
  for (const live of ctx.index.vpcs.values()) {
    if (ctx.vpcsGoing.has(live.id)) continue;
    const owner = ctx.options.claimedElsewhere?.get(live.id);
    // A twin of the same name is reported as a twin: one error per cause.
    if (owner && live.name === ctx.desired.vpcs.find((v) => v.address === address)?.name) continue;
    const block = parseCidr(live.cidr);
    if (!isCidr(block) || !cidrsOverlap(wanted, block)) continue;
    const bound = owner ? `, which workspace "${owner.workspace}" binds as ${owner.address}` : '';
    ctx.diagnostics.push({
      severity: 'error',
      code: 'vpc-overlap',
      address,
      ...at(source),
      message:
        `${address} would be created with cidr ${cidr}, which overlaps the live VPC ${JSON.stringify(live.name)} (${live.id}, ${live.cidr})${bound}. ` +
        `If that is the VPC this config means, bind it with \`dbform import ${address} ${live.id}\` (its binding was lost, or it was renamed); ` +
        'otherwise choose a block that does not overlap it',
    });
  }
}
