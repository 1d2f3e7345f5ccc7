// A project directory for `dbform plan` tests: the config and, when given, its lockfile.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../support/temp-dir.js';

/** A temp directory holding `dbform.yaml` (and `dbform.lock.json` when given). */
export function project(yaml: string, lock?: Record<string, unknown>): string {
  const dir = tempDir('dbform-plan-');
  writeFileSync(join(dir, 'dbform.yaml'), yaml);
  if (lock) writeFileSync(join(dir, 'dbform.lock.json'), `${JSON.stringify({ version: 1, project_id: 'proj-demo', resources: lock }, null, 2)}\n`);
  return dir;
}
