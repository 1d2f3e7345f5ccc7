// `dbform state show ADDR`: one binding of the state, beside the live state it names (the CLI
// finds and prints the resource). Read through the same context and live read as every command.
import { DbformError, kindOf, type Kind, type LiveState, type LockEntry } from '../model/index.js';
import { withContext, type Selection } from './context.js';
import type { AppHost } from './host.js';
import { readLive } from './pipeline.js';

export interface ShownBinding {
  address: string;
  kind: Kind | 'unknown';
  entry: LockEntry;
  projectId: string;
  workspace: string;
  location: string;
  live: LiveState;
}

export async function showBinding(req: Selection & { address: string }, host: AppHost): Promise<ShownBinding> {
  return withContext(
    req,
    host,
    async ({ store, desired }) => {
      const { lockfile } = await store.read();
      const entry = lockfile.resources[req.address];
      if (!entry) throw new DbformError(`${req.address} is not bound in workspace "${store.workspace}" of ${store.location}; \`dbform state list\` shows what is`);
      const api = await host.connect();
      try {
        const live = await readLive(api.client, desired.projectId);
        return { address: req.address, kind: kindOf(req.address) ?? 'unknown', entry, projectId: desired.projectId, workspace: store.workspace, location: store.location, live };
      } finally {
        await api.close();
      }
    },
    { quiet: true },
  );
}
