// `dbform restore service.KEY --to TIME` (SPEC section 17): a point-in-time fork of the service as
// one reviewed plan. Not a second pipeline: the restore is a shape of the plan (PlanShape.restore),
// which the one planner turns into the config and state the restore wants (planner/restore.ts),
// so it is planned, policed, saved, verified, approved, applied and recorded in history exactly
// as `dbform plan` and `dbform apply` are: `restore --out PLAN` is preparePlan and savePlan
// (plan.ts) of this shape, `restore` alone is applyRestore. This use case says what the restore is.
import { DbformError, kindOf, parseRfc3339, restoreStamp, type PlanShape, type PlanWhere, type RestoreRequest } from '../model/index.js';
import { applyChanges, type ApplyRequest } from './apply.js';
import type { RunHost } from './host.js';

/** What `dbform restore` was asked: the address and `--to`, as typed. */
export interface RestoreAsked {
  address: string;
  to: string;
}

/**
 * The restore as a plan's shape: the address (a service's), `--to` (RFC 3339) and the stamp of
 * now, which names the retired original. Bad input is one line (exit 1) before anything is read.
 */
export function restoreShape(asked: RestoreAsked, now: number = Date.now()): PlanShape {
  if (kindOf(asked.address) !== 'service') {
    throw new DbformError(`restore ${asked.address}: only a service can be restored to a point in time; give its address, service.<key>`);
  }
  if (parseRfc3339(asked.to) === undefined) {
    throw new DbformError(`--to ${asked.to}: not an RFC 3339 time such as 2026-03-01T12:00:00Z (a time zone is required)`);
  }
  const restore: RestoreRequest = { address: asked.address, targetTime: asked.to, stamp: restoreStamp(now) };
  return { replace: [], target: [], allowDataLoss: false, restore };
}

/** Without `--out`: the restore planned, approved (or --auto-approve) and applied, as `dbform apply` runs. */
export function applyRestore(req: Omit<ApplyRequest, 'shape' | 'planFile' | 'confirmAs'> & { asked: RestoreAsked }, host: RunHost): Promise<number> {
  const { address, to } = req.asked;
  const confirmAs = {
    command: `restore ${address} --to ${to}`,
    question: (where: PlanWhere) => `Restore ${address} to ${to} in workspace "${where.workspace}" (state: ${where.state})?`,
  };
  return applyChanges({ ...req, shape: restoreShape(req.asked), confirmAs }, host);
}
