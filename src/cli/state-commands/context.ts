// What the state, workspace and history commands share: the config (for the project, its
// `state:` and `${workspace}`), the workspace, and the store it selects.
import { loadConfig } from '../../config/index.js';
import { DiagnosticsError, terminalJson, type DesiredState } from '../../model/index.js';
import type { StateStore } from '../../state/index.js';
import { configFiles, type ConfigOptions } from '../options.js';
import { openStateStore, workspaceOf } from '../state-context.js';

export interface StateCommandFlags extends Partial<ConfigOptions> {
  json?: boolean;
}

export interface StateCommandContext {
  files: string[];
  workspace: string;
  desired: DesiredState;
  store: StateStore;
  env: NodeJS.ProcessEnv;
}

export async function openStateCommand(flags: StateCommandFlags, env: NodeJS.ProcessEnv = process.env): Promise<StateCommandContext> {
  const files = configFiles(flags);
  const workspace = workspaceOf(flags, env);
  const loaded = await loadConfig(files, { env, workspace });
  if (!loaded.ok) throw new DiagnosticsError(loaded.errors.filter((d) => d.severity === 'error'));
  const desired = loaded.value;
  const store = openStateStore({ flags, env, files, projectId: desired.projectId, workspace, ...(desired.state ? { configState: desired.state } : {}) });
  return { files, workspace, desired, store, env };
}

/** Runs `fn` with the store open, and closes it whatever happens. */
export async function withStateCommand<T>(flags: StateCommandFlags, fn: (ctx: StateCommandContext) => Promise<T>): Promise<T> {
  const ctx = await openStateCommand(flags);
  try {
    return await fn(ctx);
  } finally {
    await ctx.store.close();
  }
}

/** Columns padded to their widest cell; the last column is not padded. */
export function renderTable(header: string[], rows: string[][]): string {
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((r) => r[i]!.length)));
  return all.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ').trimEnd()).join('\n') + '\n';
}

export function printJson(value: unknown): void {
  process.stdout.write(`${terminalJson(value, 2)}\n`);
}
