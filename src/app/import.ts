// `dbform import ADDR ID`: bind a live resource to a config address in the state the flags, env or
// `state:` select, under its lock (the checks and the lookups: src/export/run-import.ts).
import { runImport } from '../export/run-import.js';
import { DiagnosticsError } from '../model/index.js';
import { describeHolder } from '../state/index.js';
import { openStore, readConfig, workspaceOf, type Selection } from './context.js';
import type { AppHost, ApiSession } from './host.js';

export interface ImportRequest extends Selection {
  address: string;
  id: string;
  force: boolean;
  lockTimeoutMs: number;
  /** The line that says what was bound (stdout). */
  print: (line: string) => void;
}

export async function importResource(req: ImportRequest, host: AppHost): Promise<void> {
  const workspace = workspaceOf(req.state, host.env);
  let api: ApiSession | undefined;
  try {
    await runImport({
      connect: async () => (api = await host.connect()).client,
      loadDesired: async () => {
        const loaded = await readConfig(req.files, host, workspace);
        // One `error: ` line per problem, as `plan` and `validate` print them.
        if (!loaded.ok) throw new DiagnosticsError(loaded.errors.filter((d) => d.severity === 'error'));
        return loaded.value;
      },
      openState: (desired) => openStore(req, host, desired, workspace),
      lockTimeoutMs: req.lockTimeoutMs,
      holder: describeHolder(host.owner, host.env, 'dbform import'),
      address: req.address,
      id: req.id,
      force: req.force,
      report: host.note,
      print: req.print,
    });
  } finally {
    await api?.close();
  }
}
