// A count of the steps whose number grows with the file or its errors when diagnostics are placed
// (events read for positions, lookups, comparisons between errors): a test reads it to hold that
// placing N errors costs O(file + N) without a clock. Counting is one addition; nothing reads it
// in the CLI.
let steps = 0;

export function countWork(n: number): void {
  steps += n;
}

/** Steps counted since the last reset (tests only). */
export function workCounted(): number {
  return steps;
}

export function resetWorkCount(): void {
  steps = 0;
}
