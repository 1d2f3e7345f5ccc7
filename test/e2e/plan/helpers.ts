// Spawns the built CLI (`npx tsc -p tsconfig.json` first) against a real emulator.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BIN = join(import.meta.dirname, '..', '..', '..', 'bin', 'dbform.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], options: { env?: Record<string, string>; cwd?: string } = {}): Promise<CliResult> {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('DBFORM_') && k !== 'NO_COLOR' && k !== 'FORCE_COLOR') env[k] = v;
  Object.assign(env, options.env);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env, cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A temp directory holding `dbform.yaml` (and `dbform.lock.json` when given). */
export function project(yaml: string, lock?: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'dbform-plan-'));
  writeFileSync(join(dir, 'dbform.yaml'), yaml);
  if (lock) writeFileSync(join(dir, 'dbform.lock.json'), `${JSON.stringify({ version: 1, project_id: 'proj-demo', resources: lock }, null, 2)}\n`);
  return dir;
}
