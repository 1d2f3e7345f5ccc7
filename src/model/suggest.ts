// "Did you mean ...?" for misspelt keys and values (config) and addresses (import).

/** Edit distance (insertions, deletions, substitutions, and swaps of two neighbours), in three rows. */
export function editDistance(a: string, b: string): number {
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  let current = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, before[j - 2]! + 1);
      current[j] = best;
    }
    [before, previous, current] = [previous, current, before];
  }
  return previous[b.length]!;
}

const normal = (s: string): string => s.toLowerCase().replace(/_/g, '-');

/** The closest candidate when it is close enough to be a likely typo (case is ignored). */
export function closestMatch(input: string, candidates: readonly string[]): string | undefined {
  const needle = normal(input);
  const allowed = Math.max(1, Math.floor(input.length / 3));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const other = normal(candidate);
    // Never closer than their difference in length: not worth comparing.
    if (Math.abs(other.length - needle.length) > allowed) continue;
    const distance = editDistance(needle, other);
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best !== undefined && bestDistance <= allowed ? best : undefined;
}

/** `s` and each way to write it with one character left out. */
function deletions(s: string): string[] {
  const out = [s];
  for (let i = 0; i < s.length; i++) out.push(s.slice(0, i) + s.slice(i + 1));
  return out;
}

/** Lists this long are indexed (suggester) rather than compared with each input. */
const INDEXED_FROM = 200;

/**
 * closestMatch for one list of candidates asked many times (every unresolved reference to one
 * of 10,000 services). A long list is indexed by each candidate's one-character deletions, and
 * an input is compared only with the candidates that share one with it: those one typo away (and
 * some two), so that N questions cost O(N), not O(N x candidates).
 */
export function suggester(candidates: readonly string[]): (input: string) => string | undefined {
  if (candidates.length < INDEXED_FROM) return (input) => closestMatch(input, candidates);
  let index: Map<string, number[]> | undefined;
  const build = () => {
    const built = new Map<string, number[]>();
    candidates.forEach((candidate, at) => {
      for (const d of new Set(deletions(normal(candidate)))) {
        const list = built.get(d);
        if (list) list.push(at);
        else built.set(d, [at]);
      }
    });
    return built;
  };
  return (input) => {
    index ??= build();
    const near = new Set<number>();
    for (const d of deletions(normal(input))) for (const at of index.get(d) ?? []) near.add(at);
    // In the list's order, so that a tie goes to the same candidate as closestMatch's.
    return closestMatch(input, [...near].sort((x, y) => x - y).map((at) => candidates[at]!));
  };
}
