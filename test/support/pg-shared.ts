// The run's one PostgreSQL server, started by the first test file that asks for it and shared by
// every worker: a file that needs no database costs no server (initdb and start take about 1.7 s).
// The vitest global setup (pg-global-setup.ts) names the server's folder and removes it at the end
// of the run; it starts nothing itself. The first worker to create that folder starts the server in
// it and writes `server.json` (or `failed.json`); the others wait for either file.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import { startPostgres } from './postgres-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Folder of the run's shared server (not made until a file asks for the server). */
    pgServerDir: string;
    /** The vitest process: the server belongs to it (owner.json), not to the worker that started it. */
    pgOwnerPid: number;
  }
}

/** Long enough for initdb and a start on a loaded machine; only a broken start ever waits it out. */
const START_LIMIT_MS = 120_000;

let url: Promise<string> | undefined;

/** Superuser URL of the run's server (trust auth on loopback), starting it on first use. */
export function sharedServerUrl(): Promise<string> {
  return (url ??= claimOrWait(inject('pgServerDir'), inject('pgOwnerPid')));
}

async function claimOrWait(dir: string, ownerPid: number): Promise<string> {
  if (claim(dir)) {
    try {
      const server = await startPostgres({ dir, ownerPid });
      publish(join(dir, 'server.json'), { url: server.url });
    } catch (err) {
      publish(join(dir, 'failed.json'), { message: (err as Error).message });
    }
  }
  return waitForServer(dir);
}

/** Whether this worker made the folder, and so starts the server (mkdir is atomic). */
function claim(dir: string): boolean {
  try {
    mkdirSync(dir);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

/** Written whole or not at all, so a waiter never reads half a file. */
function publish(file: string, value: object): void {
  writeFileSync(`${file}.tmp`, JSON.stringify(value));
  renameSync(`${file}.tmp`, file);
}

async function waitForServer(dir: string): Promise<string> {
  const end = Date.now() + START_LIMIT_MS;
  for (;;) {
    if (existsSync(join(dir, 'server.json'))) return (JSON.parse(readFileSync(join(dir, 'server.json'), 'utf8')) as { url: string }).url;
    if (existsSync(join(dir, 'failed.json'))) throw new Error((JSON.parse(readFileSync(join(dir, 'failed.json'), 'utf8')) as { message: string }).message);
    if (Date.now() > end) throw new Error(`the shared test PostgreSQL in ${dir} was not up within ${START_LIMIT_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
