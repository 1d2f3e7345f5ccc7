/**
 * Time for the timelines. Transitions store absolute epoch-ms deadlines computed with `scale`, so
 * a restarted emulator (even with another time scale) continues them where they were.
 */
export interface Clock {
  now(): number;
  /** A nominal duration (at time scale 1) in real milliseconds. */
  scale(ms: number): number;
}

export function createClock(timeScale: number, now: () => number = Date.now): Clock {
  return { now, scale: (ms) => Math.round(ms * timeScale) };
}

/** Nominal durations of SPEC section 6, at time scale 1. */
export const DURATIONS = {
  queued: 1000,
  configuring: 4000,
  upgrading: 3000,
  pausing: 2000,
  resuming: 2000,
  deleting: 2000,
  vpcAttachment: 2000,
  replicaSetCreating: 4000,
  replicaSetResizing: 2000,
  replicaSetDeleting: 2000,
  peeringPending: 2000,
  // Under eventual teardown (switches.ts): how long a deleted peering is listed as deleting.
  peeringDeleting: 2000,
  // Dialects with these steps only (dialect.ts): a peering's acceptance, a VPC's creation.
  peeringApproved: 1000,
  vpcCreating: 2000,
} as const;
