import { InvalidArgumentError, Option, type Command } from 'commander';
import { action } from '../errors.js';

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
    .addHelpText(
      'after',
      '\nDefault world: project proj-demo ("Demo") with PAT demo-pat; OAuth token demo-oauth sees proj-demo and proj-other;\n' +
        'with --dialect tiger also the key pair demo-access:demo-secret (HTTP Basic) for proj-demo.\n' +
        'GET /__emulator/stats reports request counts per route; POST /__emulator/reset clears them.',
    )
    .action(action(runEmulator));
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
  });
  process.stdout.write(`emulator listening on ${emulator.url}\n`);
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  process.stderr.write(`emulator: ${signal} received, shutting down\n`);
  await emulator.close();
  return 0;
}
