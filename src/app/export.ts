// `dbform export`: today's live infrastructure as YAML and its bindings, planning to zero changes
// (src/export/run-export.ts), with the live state read, and the round trip planned, as every other
// command reads and plans (pipeline.ts). No config is read: the export writes one.
import { runExport, type ExportRequest } from '../export/run-export.js';
import { describeHolder } from '../state/index.js';
import type { AppHost } from './host.js';
import { planExported, readLive } from './pipeline.js';
import { openStateStore } from './state-choice.js';

export interface ExportCommand extends Omit<ExportRequest, 'client' | 'readLive' | 'planExported' | 'openState' | 'holder' | 'report' | 'cwd'> {
  /** --state or DBFORM_STATE: the bindings go to that store instead of a lockfile file. */
  stateUrl?: string;
  workspace: string;
}

export async function exportLive(req: ExportCommand, host: AppHost): Promise<number> {
  const { stateUrl, workspace, ...rest } = req;
  const openState =
    stateUrl === undefined
      ? undefined
      : (projectId: string) =>
          openStateStore({ flags: { state: stateUrl }, env: host.env, cwd: host.cwd, owner: host.owner, files: req.output ? [req.output] : [], projectId, workspace });
  const api = await host.connect();
  try {
    return await runExport({
      ...rest,
      client: api.client,
      readLive: (projectId) => readLive(api.client, projectId),
      planExported,
      cwd: host.cwd,
      ...(openState ? { openState } : {}),
      holder: describeHolder(host.owner, host.env, 'dbform export'),
      report: host.note,
    });
  } finally {
    await api.close();
  }
}
