// V8 sizes its heap for throughput on the machine it finds: on a plan of 10,000 services it let
// the young generation grow to 16 MB semi-spaces and the old one to several times what was live,
// and `dbform plan` peaked at 230 MB where about 110 MB were ever in use (SPEC section 8: 150 MB).
// For a large config the CLI keeps the young generation at its first size, grows the old one by a
// fifth of what is live after each collection, and collects at once after the two phases that
// leave the most garbage (the config's nodes and text; the API bodies), instead of when the next
// allocation happens to need it. The peak stays within the budget at the price of more, smaller
// collections: about half as much CPU again at 10,000 services on one core (BENCHMARKS.md). Small
// configs keep V8's defaults: their collections are few and their peaks far below the budget.
import { statSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Config bytes from which the heap is bounded: about 2,000 services in the generated layout. */
export const LARGE_CONFIG_BYTES = 1 << 20;

const BOUNDED_HEAP_FLAGS = '--semi-space-growth-factor=1 --heap-growing-percent=20';

let collect: (() => void) | undefined;

/** Bounds the heap (once per process) when the config files are large; whether it is bounded. */
export function boundHeapForConfig(files: readonly string[]): boolean {
  if (collect) return true;
  let bytes = 0;
  for (const file of files) {
    try {
      bytes += statSync(file).size;
    } catch {
      // Unreadable: the loader reports it.
    }
  }
  if (bytes < LARGE_CONFIG_BYTES) return false;
  // `gc` is defined in contexts created after --expose-gc is set: a new one hands it over.
  setFlagsFromString(`${BOUNDED_HEAP_FLAGS} --expose-gc`);
  collect = runInNewContext('gc') as () => void;
  return true;
}

/** After a phase that leaves much garbage, in a bounded heap: collect it now (tens of ms at 10,000 services). */
export function collectPhaseGarbage(): void {
  collect?.();
}
