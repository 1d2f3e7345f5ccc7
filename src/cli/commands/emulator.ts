import { InvalidArgumentError, Option, type Command } from 'commander';
import { action } from '../errors.js';
import { cliProcess } from '../process.js';

interface EmulatorFlags {
  host: string;
  port: number;
  state?: string;
  seed?: string;
  timeScale: number;
  latencyMs: number;
  faultRate: number;
  throttleRate: number;
  lostResponseRate: number;
  faultSeed?: number;
  dialect: string;
  peeringAcceptance?: string;
  backupDelay?: number;
  teardown?: string;
  endpoints?: string;
}

function number(flag: string, check: (n: number) => boolean, want: string): (value: string) => number {
  return (value) => {
    const n = value.trim() === '' ? Number.NaN : Number(value);
    if (!Number.isFinite(n) || !check(n)) throw new InvalidArgumentError(`${flag} must be ${want} (got "${value}").`);
    return n;
  };
}

const rate = (flag: string) => number(flag, (n) => n >= 0 && n <= 1, 'a number from 0 to 1');
const nonNegative = (flag: string) => number(flag, (n) => n >= 0, 'a number >= 0');
const integer = (flag: string, min: number, max: number) =>
  number(flag, (n) => Number.isInteger(n) && n >= min && n <= max, `an integer from ${min} to ${max}`);

export function registerEmulator(program: Command): void {
  program
    .command('emulator')
    .description('run the local emulator of the cloud API (for the quickstart, tests and benchmarks)')
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0 picks a free one)', integer('--port', 0, 65535), 4010)
    .option('--state <file>', 'persist the world in this file after every change, and reload it at start')
    .option('--seed <file>', 'projects and tokens (YAML or JSON) instead of the default world')
    .option('--time-scale <factor>', 'multiply every timeline duration (0: transitions end at the next read)', nonNegative('--time-scale'), 1)
    .option('--latency-ms <ms>', 'delay every API answer', integer('--latency-ms', 0, 3_600_000), 0)
    .option('--fault-rate <rate>', 'share of API requests answered 500/503', rate('--fault-rate'), 0)
    .option('--throttle-rate <rate>', 'share of API requests answered 429 (Retry-After: 1 s, times the time scale)', rate('--throttle-rate'), 0)
    .option('--lost-response-rate <rate>', 'share of API requests performed but never answered', rate('--lost-response-rate'), 0)
    .option('--fault-seed <n>', 'seed of the fault generator, for reproducible chaos', integer('--fault-seed', 0, 2 ** 31 - 1))
    .addOption(
      new Option('--dialect <dialect>', 'seed: exactly cloud-api.md; tiger: as the real service\'s OpenAPI document (Basic auth, TIMESCALEDB, ...)')
        .choices(['seed', 'tiger'])
        .default('seed'),
    )
    .addOption(
      new Option('--peering-acceptance <mode>', 'auto: the peer accepts new peerings by itself; manual: they stay pending until POST /__emulator/peerings/ID/accept').choices(['auto', 'manual']),
    )
    .option(
      '--backup-delay <seconds>',
      'after a service becomes READY, how long it has no backup (a fork or replica set of it is refused); default 30 with --dialect tiger, else 0',
      number('--backup-delay', (n) => n >= 0 && n <= 86_400, 'a number of seconds from 0 to 86400'),
    )
    .addOption(
      new Option('--teardown <mode>', 'eventual: deleted peerings stay DELETING for 2 s and their VPC refuses deletion meanwhile (default with --dialect tiger); immediate: gone at once').choices(['immediate', 'eventual']),
    )
    .addOption(
      new Option('--endpoints <mode>', 'moving: an attached service answers on a private host (default with --dialect tiger); fixed: always its public host').choices(['fixed', 'moving']),
    )
    .addHelpText(
      'after',
      '\nDefault world: project proj-demo ("Demo") with PAT demo-pat; OAuth token demo-oauth sees proj-demo and proj-other;\n' +
        'with --dialect tiger also the key pair demo-access:demo-secret (HTTP Basic) for proj-demo.\n' +
        'It prints the export line a second terminal needs (URL and credentials of the world).\n' +
        'GET /__emulator/stats reports request counts per route; POST /__emulator/reset clears them.\n' +
        'POST /__emulator/services/ID/fail puts a service in FAILED; POST /__emulator/peerings/ID/accept accepts a peering.',
    )
    .action(action(runEmulator));
}

/**
 * What a second terminal pastes to use this emulator: dbform's settings and, for the tiger
 * dialect, those of Timescale's tiger CLI (it reads the key pair and asks GET /auth/info for the
 * project). Emulator credentials only, never a real one.
 */
function pasteLines(url: string, flags: EmulatorFlags, creds: { token?: string; keyPair?: { publicKey: string; secretKey: string } }): string {
  const pair = flags.dialect === 'tiger' ? creds.keyPair : undefined;
  const auth = pair
    ? `DBFORM_ACCESS_KEY=${shellWord(pair.publicKey)} DBFORM_SECRET_KEY=${shellWord(pair.secretKey)}`
    : creds.token !== undefined
      ? `DBFORM_API_KEY=${shellWord(creds.token)}`
      : undefined;
  if (auth === undefined) return '# the seed holds no credential to use it with\n';
  // The client's retry backoff follows the emulator's time scale only when told it (api-behaviour.md).
  const scale = flags.timeScale === 1 ? '' : ` DBFORM_EMULATOR_TIME_SCALE=${flags.timeScale}`;
  let out = `# dbform in another terminal:\nexport DBFORM_API_URL=${shellWord(url)} ${auth}${scale}\n`;
  if (pair) {
    out += `# Timescale's tiger CLI:\nexport TIGER_API_URL=${shellWord(url)} TIGER_PUBLIC_KEY=${shellWord(pair.publicKey)} TIGER_SECRET_KEY=${shellWord(pair.secretKey)}\n`;
  }
  return out;
}

/** A value as one shell word: as is when plain, else single-quoted. */
function shellWord(value: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

async function runEmulator(flags: EmulatorFlags): Promise<number> {
  const { startEmulator } = await import('../../emulator/index.js');
  const emulator = await startEmulator({
    host: flags.host,
    port: flags.port,
    stateFile: flags.state,
    seed: flags.seed,
    timeScale: flags.timeScale,
    latencyMs: flags.latencyMs,
    faultRate: flags.faultRate,
    throttleRate: flags.throttleRate,
    lostResponseRate: flags.lostResponseRate,
    faultSeed: flags.faultSeed,
    dialect: flags.dialect,
    peeringAcceptance: flags.peeringAcceptance,
    backupDelay: flags.backupDelay,
    teardown: flags.teardown,
    endpoints: flags.endpoints,
  });
  const proc = cliProcess();
  proc.stdout.write(`emulator listening on ${emulator.url}\n${pasteLines(emulator.url, flags, emulator.sampleCredentials())}`);
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    proc.once('SIGINT', () => resolve('SIGINT'));
    proc.once('SIGTERM', () => resolve('SIGTERM'));
  });
  proc.stderr.write(`emulator: ${signal} received, shutting down\n`);
  await emulator.close();
  return 0;
}
