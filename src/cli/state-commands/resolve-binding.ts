// An address resolved to the ID its workspace binds, for commands that act on one resource by
// address (`dbform logs service.db`). Read through the state store, like every other command, so
// the ownership check of section 13 and the configured state (PostgreSQL too) apply here as well.
// Without a loadable config the workspace's lockfile still names the project.
import { readFile } from 'node:fs/promises';
import { loadConfig } from '../../config/index.js';
import { resolveLockfilePath } from '../../lockfile/index.js';
import { DbformError, parseLockfileJson, type DesiredState } from '../../model/index.js';
import { workspaceLockfilePath } from '../../state/index.js';
import { configFiles, type ConfigOptions } from '../options.js';
import { openStateStore, workspaceOf } from '../state-context.js';

export interface BoundId {
  id: string;
  projectId: string;
}

export async function resolveBoundId(address: string, flags: Partial<ConfigOptions> & { project?: string }, env: NodeJS.ProcessEnv): Promise<BoundId> {
  const files = configFiles(flags);
  const workspace = workspaceOf(flags, env);
  const desired = await loadConfig(files, { env, workspace }).then(
    (loaded) => (loaded.ok ? loaded.value : undefined),
    () => undefined,
  );
  const projectId = desired?.projectId ?? (await lockfileProject(address, workspaceLockfilePath(resolveLockfilePath(files, flags.lockfile), workspace)));
  if (flags.project !== undefined && flags.project !== projectId) {
    throw new DbformError(`--project ${flags.project} does not match the project of the state of ${address} (${projectId})`);
  }
  const store = openStateStore({ flags, env, files, projectId, workspace, ...stateOf(desired) });
  try {
    const entry = (await store.read()).lockfile.resources[address];
    if (entry !== undefined) return { id: entry.id, projectId };
    const where = store.kind === 'file' ? `the lockfile ${store.location}` : `workspace "${workspace}" of ${store.location}`;
    throw new DbformError(`${address} is not in ${where} (not applied yet?); give the service ID instead`);
  } finally {
    await store.close();
  }
}

const stateOf = (desired: DesiredState | undefined) => (desired?.state ? { configState: desired.state } : {});

async function lockfileProject(address: string, path: string): Promise<string> {
  let data: unknown;
  try {
    data = JSON.parse(await readFile(path, 'utf8'));
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'it does not exist' : (err as Error).message;
    throw new DbformError(`cannot resolve ${address}: the lockfile ${path} cannot be read (${why}); give the service ID instead, or point --lockfile / -f at the right place`);
  }
  const lock = parseLockfileJson(data);
  if (!lock.ok) throw new DbformError(lock.errors.map((e) => `${path}: ${e}`).join('\n'));
  return lock.value.projectId;
}
