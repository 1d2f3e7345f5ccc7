// Services are planned fork parents first, so a fork sees whether its parent is created afresh.
import { serviceAddress, type Address, type DesiredService } from '../model/index.js';

export function forkParentsFirst<M extends { address: Address; desired: DesiredService }>(services: M[]): M[] {
  const byAddress = new Map(services.map((m) => [m.address, m]));
  const done = new Set<Address>();
  const out: M[] = [];
  const visit = (m: M, depth: number) => {
    if (done.has(m.address) || depth > services.length) return;
    const from = m.desired.fork?.from;
    const parent = from && 'key' in from ? byAddress.get(serviceAddress(from.key)) : undefined;
    if (parent) visit(parent, depth + 1);
    if (done.has(m.address)) return;
    done.add(m.address);
    out.push(m);
  };
  for (const m of services) visit(m, 0);
  return out;
}
