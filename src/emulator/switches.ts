// The behaviours of SPEC section 15 that a client must be written for (backups before forks,
// teardown that takes its time, endpoints that move, peerings that await the peer). Each dialect
// has its defaults (dialect.ts); `startEmulator` options and `dbform emulator` flags override them,
// so a harness can hold back what the client it tests does not handle yet.
import { EmulatorConfigError } from './errors.js';

export type PeeringAcceptance = 'auto' | 'manual';
export type Teardown = 'immediate' | 'eventual';
export type EndpointPlacement = 'fixed' | 'moving';

export const PEERING_ACCEPTANCES: readonly PeeringAcceptance[] = ['auto', 'manual'];
export const TEARDOWNS: readonly Teardown[] = ['immediate', 'eventual'];
export const ENDPOINT_PLACEMENTS: readonly EndpointPlacement[] = ['fixed', 'moving'];

/** A day: a longer backup delay is a typo, not a test. */
export const MAX_BACKUP_DELAY_SECONDS = 86_400;

export interface Switches {
  /** Seconds (at time scale 1) after a service becomes READY during which it has no backup. */
  backupDelay: number;
  /** manual: a new peering stays pending (with its provisioned_id) until accepted by hand. */
  peeringAcceptance: PeeringAcceptance;
  /** eventual: deleted peerings and attachments linger a while, and their VPC refuses deletion meanwhile. */
  teardown: Teardown;
  /** moving: an attached service's endpoint (and pooler endpoint) is a private host. */
  endpoints: EndpointPlacement;
}

/** The dialect's defaults with the given overrides, each checked; a bad one names itself. */
export function resolveSwitches(defaults: Switches, given: Partial<Switches>): Switches {
  const out: Switches = { ...defaults };
  if (given.backupDelay !== undefined) {
    const d = given.backupDelay;
    if (typeof d !== 'number' || !Number.isFinite(d) || d < 0 || d > MAX_BACKUP_DELAY_SECONDS) {
      throw new EmulatorConfigError(`backupDelay must be a number of seconds from 0 to ${MAX_BACKUP_DELAY_SECONDS} (got ${String(d)})`);
    }
    out.backupDelay = d;
  }
  out.peeringAcceptance = oneOf('peeringAcceptance', given.peeringAcceptance, PEERING_ACCEPTANCES) ?? out.peeringAcceptance;
  out.teardown = oneOf('teardown', given.teardown, TEARDOWNS) ?? out.teardown;
  out.endpoints = oneOf('endpoints', given.endpoints, ENDPOINT_PLACEMENTS) ?? out.endpoints;
  return out;
}

function oneOf<T extends string>(name: string, value: unknown, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  throw new EmulatorConfigError(`${name} must be one of ${allowed.join(', ')} (got ${JSON.stringify(value)})`);
}
