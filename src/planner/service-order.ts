// Services are planned fork parents first, so a fork sees whether its parent is created afresh.
import type { Address, DesiredService, ForkSource } from '../model/index.js';

/** `parentOf` gives the desired address a `fork.from` names, or undefined for an unmanaged parent. */
export function forkParentsFirst<M extends { address: Address; desired: DesiredService }>(services: M[], parentOf: (from: ForkSource) => Address | undefined): M[] {
  const byAddress = new Map(services.map((m) => [m.address, m]));
  const done = new Set<Address>();
  const out: M[] = [];
  const visit = (m: M, depth: number) => {
    if (done.has(m.address) || depth > services.length) return;
    const from = m.desired.fork?.from;
    const parentAddress = from ? parentOf(from) : undefined;
    const parent = parentAddress !== undefined ? byAddress.get(parentAddress) : undefined;
    if (parent) visit(parent, depth + 1);
    if (done.has(m.address)) return;
    done.add(m.address);
    out.push(m);
  };
  for (const m of services) visit(m, 0);
  return out;
}
