// `dbform output [ADDR]...` (SPEC section 11): config -> state -> one live read (2 + V requests)
// -> the connection of each address. Nothing comes back unless every address resolves: a CI step
// never gets half of its variables, or another resource's.
import { DbformError } from '../model/index.js';
import { readWithJournal } from '../state/journal-push.js';
import { chooseTargets, resolveConnections, type Connection } from './connections.js';
import { withContext, type Selection } from './context.js';
import type { AppHost } from './host.js';
import { withPasswords } from './passwords.js';
import { readLive } from './pipeline.js';

export interface OutputRequest extends Selection {
  addresses: string[];
  /** `--with-password`: from password.from_env, else the pgpass file (`--pgpass`). */
  withPassword: boolean;
  pgpass?: string;
}

export type OutputResult = { kind: 'nothing'; files: string[] } | { kind: 'connections'; connections: Connection[] };

/** Several problems: one `error:` line each (the CLI prefixes the first). */
const problemsError = (problems: string[]) => new DbformError(problems.join('\nerror: '));

export async function readOutputs(req: OutputRequest, host: AppHost): Promise<OutputResult> {
  return withContext(req, host, async ({ desired, store, journal, env }) => {
    const chosen = chooseTargets(desired, req.addresses);
    if (!chosen.ok) throw problemsError(chosen.problems);
    if (chosen.targets.length === 0) return { kind: 'nothing', files: desired.files };
    const { snapshot } = await readWithJournal(store, journal);
    const api = await host.connect();
    let live;
    try {
      live = await readLive(api.client, desired.projectId, { managed: { desired, lock: snapshot.lockfile } });
    } finally {
      await api.close();
    }
    const resolved = resolveConnections(chosen.targets, snapshot.lockfile, live, { workspace: store.workspace, location: store.location, projectId: desired.projectId });
    if (!resolved.ok) throw problemsError(resolved.problems);
    return { kind: 'connections', connections: req.withPassword ? withPasswords(resolved.connections, env, req.pgpass, host.cwd) : resolved.connections };
  });
}
