// A throwaway PostgreSQL for `npm run bench` (the state store rows): the Debian server binaries,
// run as the `postgres` user when the bench runs as root, in a temp directory on a free loopback
// port, stopped and removed afterwards. The tests have their own (test/support/postgres-server.ts).
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function findPostgresBin() {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const v = readdirSync(root).filter((x) => existsSync(join(root, x, 'bin', 'pg_ctl'))).sort((a, b) => Number(b) - Number(a))[0];
  return v === undefined ? undefined : join(root, v, 'bin');
}

const asRoot = process.getuid?.() === 0;
const pgRun = (bin, args) => (asRoot ? execFileSync('runuser', ['-u', 'postgres', '--', bin, ...args], { stdio: 'pipe' }) : execFileSync(bin, args, { stdio: 'pipe' }));

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Starts a server; returns { url, stop } or undefined when PostgreSQL is not installed. */
export async function startBenchPostgres() {
  const bin = findPostgresBin();
  if (bin === undefined) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'dbform-bench-pg-'));
  if (asRoot) {
    const [, , uid, gid] = readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.startsWith('postgres:')).split(':');
    chownSync(dir, Number(uid), Number(gid));
  }
  const data = join(dir, 'data');
  pgRun(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-locale', '--no-sync']);
  writeFileSync(join(dir, 'owner'), String(process.pid));
  const port = await freePort();
  // Durable as a real server is (fsync on): the rows compare with a file store that fsyncs too.
  pgRun(join(bin, 'pg_ctl'), ['-D', data, '-o', `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir}`, '-l', join(dir, 'log'), '-w', 'start']);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => {
      try {
        pgRun(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
