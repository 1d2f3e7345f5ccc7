// A real PostgreSQL for the tests, from the Debian server binaries (initdb, pg_ctl under
// /usr/lib/postgresql/<version>/bin). As root it runs as the `postgres` OS user (PostgreSQL
// refuses to run as root). Each server lives in its own temp directory on its own loopback port,
// so a server left behind by a killed run never stands in the way of the next one; the next run
// stops and removes such leftovers (only ours: directories named dbform-test-pg-* whose owning
// test process is gone).
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { chown, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);
export const SERVER_DIR_PREFIX = 'dbform-test-pg-';
const PREFIX = SERVER_DIR_PREFIX;

/** A role that logs in only with a password (scram), for the tests that must never see it printed. */
export const PASSWORD_ROLE = { user: 'dbform_pw', password: 'S3cret-pw-Zq7' } as const;

export interface PostgresServer {
  /** Superuser URL over TCP (trust auth on loopback): postgres://postgres@127.0.0.1:PORT/postgres */
  url: string;
  host: string;
  port: number;
  dir: string;
  /** Stops the server (immediately) and keeps its files, so start() brings the same data back. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server and removes its directory. */
  destroy(): Promise<void>;
}

/** The newest installed server's bin directory, or undefined when PostgreSQL is not installed. */
export function findPostgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')) && existsSync(join(root, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length > 0 ? join(root, versions[0]!, 'bin') : undefined;
}

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** Runs a server binary, as `postgres` when the tests run as root. */
async function runPg(bin: string, args: string[]): Promise<string> {
  const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  try {
    const { stdout } = await run(file, argv, { timeout: 60_000 });
    return stdout;
  } catch (err) {
    const e = err as { stderr?: string; stdout?: string; message: string };
    throw new Error(`${bin.split('/').pop()} ${args.join(' ')} failed: ${e.stderr || e.stdout || e.message}`);
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Servers of earlier runs that were killed before their teardown: stop them and remove their files. */
export async function removeLeftovers(bin: string): Promise<void> {
  const root = serverRoot();
  for (const name of readdirSync(root).filter((n) => n.startsWith(PREFIX))) {
    const dir = join(root, name);
    let owner = 0;
    try {
      owner = Number(JSON.parse(readFileSync(join(dir, 'owner.json'), 'utf8')).pid);
    } catch {
      // No owner file: a directory whose setup never finished; its owner may still be writing it.
      continue;
    }
    if (owner > 0 && isAlive(owner)) continue;
    await removeServerDir(dir, bin);
  }
}

/** Stops the server kept in `dir` (if it runs) and removes the folder. */
export async function removeServerDir(dir: string, bin = findPostgresBin()): Promise<void> {
  if (bin !== undefined && existsSync(join(dir, 'data', 'postmaster.pid'))) {
    await runPg(join(bin, 'pg_ctl'), ['-D', join(dir, 'data'), '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
  }
  await rm(dir, { recursive: true, force: true });
}

const HBA = `# written by test/support/postgres-server.ts
local all all trust
host all ${PASSWORD_ROLE.user} 127.0.0.1/32 scram-sha-256
host all all 127.0.0.1/32 trust
`;

/**
 * Where the servers' folders go: the temp directory, when the `postgres` user can reach it, else
 * /tmp. Not the run's own TMPDIR (test/support/tmpdir-guard.ts), which is private to the user who
 * runs the tests, nor a TMPDIR that `mktemp -d` made (mode 0700, root's alone): initdb, run as
 * `postgres`, could not enter either. A server left by a killed run is found here by the next one.
 */
export function serverRoot(): string {
  const candidates = [process.env.DBFORM_TEST_SYSTEM_TMPDIR ?? tmpdir(), '/tmp'];
  if (!asRoot) return candidates[0]!;
  const [uid, gid] = postgresIds();
  const root = candidates.find((dir) => reachableBy(dir, uid, gid));
  if (root === undefined) throw new Error(`the tests run as root, and the postgres user can reach none of ${candidates.join(', ')} (each folder on the way needs o+x) to keep its test server in`);
  return root;
}

/** Whether user uid (group gid) may enter `dir`: execute permission on it and on every folder above it. */
function reachableBy(dir: string, uid: number, gid: number): boolean {
  for (let d = dir; ; d = join(d, '..')) {
    let st;
    try {
      st = statSync(d);
    } catch {
      return false;
    }
    const bit = st.uid === uid ? 0o100 : st.gid === gid ? 0o010 : 0o001;
    if (!st.isDirectory() || (st.mode & bit) === 0) return false;
    if (d === '/') return true;
  }
}

export interface StartOptions {
  /** The server's folder, made here (its name must start with SERVER_DIR_PREFIX); default a new one under serverRoot(). */
  dir?: string;
  /** The process whose life the server belongs to (owner.json): removeLeftovers keeps it while it lives. */
  ownerPid?: number;
}

/** initdb + start on a free loopback port; the caller destroys it. */
export async function startPostgres(options: StartOptions = {}): Promise<PostgresServer> {
  const bin = findPostgresBin();
  if (bin === undefined) {
    throw new Error(
      'the tests need PostgreSQL server binaries (initdb, pg_ctl under /usr/lib/postgresql/*/bin): apt-get update && apt-get install -y postgresql',
    );
  }
  await removeLeftovers(bin);
  const dir = options.dir ?? (await mkdtemp(join(serverRoot(), PREFIX)));
  if (options.dir !== undefined) await mkdir(dir, { recursive: true });
  if (asRoot) await chown(dir, ...postgresIds());
  await writeFile(join(dir, 'owner.json'), JSON.stringify({ pid: options.ownerPid ?? process.pid }));
  const data = join(dir, 'data');
  await runPg(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-locale', '--no-sync']);
  await writeFile(join(data, 'pg_hba.conf'), HBA);
  if (asRoot) await chown(join(data, 'pg_hba.conf'), ...postgresIds());
  let port = 0;
  const start = async () => {
    const opts = [
      `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir}`,
      '-c fsync=off -c synchronous_commit=off -c full_page_writes=off',
      '-c max_connections=300 -c shared_buffers=32MB',
    ].join(' ');
    await runPg(join(bin, 'pg_ctl'), ['-D', data, '-o', opts, '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start']);
  };
  let lastError: unknown;
  // A free port can be taken between our probe and the server's bind: try another.
  for (let attempt = 0; attempt < 3; attempt++) {
    port = await freePort();
    try {
      await start();
      lastError = undefined;
      break;
    } catch (err) {
      lastError = err;
    }
  }
  if (lastError) {
    // A folder the caller gave is the caller's to remove (it may tell others why it failed there).
    if (options.dir === undefined) await rm(dir, { recursive: true, force: true });
    throw lastError;
  }
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  await createPasswordRole(url);
  const stop = () => runPg(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']).then(() => undefined);
  return {
    url,
    host: '127.0.0.1',
    port,
    dir,
    stop,
    start,
    destroy: async () => {
      if (existsSync(join(data, 'postmaster.pid'))) await stop().catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function createPasswordRole(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`CREATE ROLE ${PASSWORD_ROLE.user} LOGIN PASSWORD '${PASSWORD_ROLE.password}'`);
  } finally {
    await client.end();
  }
}

function postgresIds(): [number, number] {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  if (!line) throw new Error('the tests run as root but there is no `postgres` OS user to run PostgreSQL as (apt-get install -y postgresql creates it)');
  const [, , uid, gid] = line.split(':');
  return [Number(uid), Number(gid)];
}
