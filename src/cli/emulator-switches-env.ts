// The SPEC section 15 switches of the in-process emulator that `--emulator` starts, read from the
// environment (like DBFORM_EMULATOR_DIALECT): tests use them to hold back a behaviour the client
// does not handle yet. Unset: the dialect's default.
import { DbformError } from '../model/errors.js';

export interface EmulatorSwitchesInput {
  backupDelay?: number;
  peeringAcceptance?: string;
  teardown?: string;
  endpoints?: string;
}

const CHOICES = {
  DBFORM_EMULATOR_PEERING_ACCEPTANCE: ['auto', 'manual'],
  DBFORM_EMULATOR_TEARDOWN: ['immediate', 'eventual'],
  DBFORM_EMULATOR_ENDPOINTS: ['fixed', 'moving'],
} as const;

export function emulatorSwitchesFromEnv(env: NodeJS.ProcessEnv): EmulatorSwitchesInput {
  const out: EmulatorSwitchesInput = {};
  const delay = env.DBFORM_EMULATOR_BACKUP_DELAY?.trim();
  if (delay !== undefined && delay !== '') {
    const seconds = Number(delay);
    if (!Number.isFinite(seconds) || seconds < 0 || seconds > 86_400) {
      throw new DbformError(`DBFORM_EMULATOR_BACKUP_DELAY must be a number of seconds from 0 to 86400 (found "${delay}")`);
    }
    out.backupDelay = seconds;
  }
  const peeringAcceptance = choice(env, 'DBFORM_EMULATOR_PEERING_ACCEPTANCE');
  if (peeringAcceptance !== undefined) out.peeringAcceptance = peeringAcceptance;
  const teardown = choice(env, 'DBFORM_EMULATOR_TEARDOWN');
  if (teardown !== undefined) out.teardown = teardown;
  const endpoints = choice(env, 'DBFORM_EMULATOR_ENDPOINTS');
  if (endpoints !== undefined) out.endpoints = endpoints;
  return out;
}

function choice(env: NodeJS.ProcessEnv, name: keyof typeof CHOICES): string | undefined {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return undefined;
  const allowed: readonly string[] = CHOICES[name];
  if (!allowed.includes(raw)) throw new DbformError(`${name} must be ${allowed.join(' or ')} (found "${raw}")`);
  return raw;
}
