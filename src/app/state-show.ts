// `dbform state show ADDR`: one binding of the state, beside the live resource it names (the CLI
// prints them). Read through the same context and live read as every command.
import { childKinds, indexLive } from '../kinds/index.js';
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
  /** The live resource's own fields (without its children's lists); undefined when it is gone. */
  live: Record<string, unknown> | undefined;
}

/** The live resource of `kind` with this ID (children are read from their parents), or undefined. */
function findLive(live: LiveState, kind: Kind | undefined, id: string): unknown {
  return kind === undefined ? undefined : indexLive(live)[kind].get(id);
}

/** Without a live resource's lists of the kinds that belong to it: `state show` is about one resource. */
function ownFields(kind: Kind, resource: unknown): Record<string, unknown> {
  const rest = { ...(resource as Record<string, unknown>) };
  for (const child of childKinds(kind)) delete rest[child.listKey];
  return rest;
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
        const kind = kindOf(req.address);
        const found = findLive(await readLive(api.client, desired.projectId), kind, entry.id);
        const live = found === undefined ? undefined : ownFields(kind!, found);
        return { address: req.address, kind: kind ?? 'unknown', entry, projectId: desired.projectId, workspace: store.workspace, location: store.location, live };
      } finally {
        await api.close();
      }
    },
    { quiet: true },
  );
}
