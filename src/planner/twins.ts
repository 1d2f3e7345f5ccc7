// Creates that would duplicate what already exists (SPEC section 13). A resource of a top kind
// created under the name of a live one that another workspace binds is a twin, and almost always
// means the wrong workspace (a DBFORM_WORKSPACE left over in the shell). What else a kind refuses
// to create next to what is live (a VPC over the block of a live VPC) its plan part checks
// (`plan.check`). All are plan errors: nothing is created.
import { desiredIn, KINDS, TOP_KINDS } from '../kinds/index.js';
import { nounOf, type Address, type Diagnostic, type Kind, type SourceRef } from '../model/index.js';
import type { LiveResource, PlanContext } from './context.js';

/** Adds an error for every create of this plan that would make a twin, then each kind's own checks. */
export function twinChecks(ctx: PlanContext): void {
  // A twin is of a resource another workspace binds: with none (one workspace, or no create), no walk.
  const twinsPossible = ctx.fresh.size > 0 && (ctx.options.claimedElsewhere?.size ?? 0) > 0;
  for (const def of twinsPossible ? TOP_KINDS : []) {
    if (def.naming.key !== 'name') continue;
    const created = desiredIn(def, ctx.desired).filter((d) => ctx.fresh.has(d.address!));
    if (created.length === 0) continue;
    const live = [...ctx.index[def.kind].values()];
    for (const d of created) {
      const name = def.naming.desired(d);
      const twin = live.find((l) => def.naming.live(l) === name && ctx.options.claimedElsewhere?.has(l.id));
      if (twin) ctx.diagnostics.push(twinError(ctx, def.kind, d.address!, name, d.source, twin));
    }
  }
  for (const def of KINDS) def.plan.check?.(ctx);
}

function twinError(ctx: PlanContext, kind: Kind, address: Address, name: string, source: SourceRef | undefined, twin: LiveResource): Diagnostic {
  const owner = ctx.options.claimedElsewhere!.get(twin.id)!;
  return {
    severity: 'error',
    code: 'twin',
    address,
    ...(source ? { source } : {}),
    message:
      `${address} would be created with the name ${JSON.stringify(name)}, which is the name of the live ${nounOf(kind)} ${twin.id} that workspace "${owner.workspace}" binds as ${owner.address}: ` +
      `that would make a twin of it. To work on workspace "${owner.workspace}", run with --workspace ${owner.workspace} ` +
      '(a DBFORM_WORKSPACE left over in the shell is the usual cause); otherwise give it a name of its own, such as one with ${workspace} in it',
  };
}
