// The actions of one apply or destroy as history keeps them: address, op, outcome and ID only.
import type { ApplyResult } from '../executor/result.js';
import type { HistoryAction } from '../state/index.js';

export function historyActions(result: ApplyResult): HistoryAction[] {
  const out: HistoryAction[] = [];
  for (const d of result.done) out.push({ address: d.action.address, op: d.action.op, outcome: 'done', id: d.resourceId ?? null });
  for (const a of result.abandoned) out.push({ address: a.action.address, op: a.action.op, outcome: 'abandoned', id: a.resourceId ?? null });
  for (const f of result.failed) out.push({ address: f.address, op: f.op, outcome: 'failed', id: null });
  for (const s of result.skipped) out.push({ address: s.action.address, op: s.action.op, outcome: 'skipped', id: null });
  for (const b of result.blocked) out.push({ address: b.address, op: b.op, outcome: 'blocked', id: null });
  return out;
}
