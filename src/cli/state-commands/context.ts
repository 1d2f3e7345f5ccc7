// What the state, workspace and history commands share: the config (for the project, its
// `state:` and `${workspace}`), the workspace, and the store it selects.
import type { AppContext } from '../../app/context.js';
import { terminalJson } from '../../model/index.js';
import { appHost } from '../host.js';
import { configFiles, type ApiOptions, type ConfigOptions } from '../options.js';
import { cliProcess } from '../process.js';

export interface StateCommandFlags extends Partial<ConfigOptions> {
  json?: boolean;
}

export type StateCommandContext = AppContext;

/**
 * Runs `fn` with the command's config and store (src/app/context.ts), and closes the store
 * whatever happens. The config's warnings are not repeated here: these commands are about the state.
 */
export async function withStateCommand<T>(flags: StateCommandFlags & ApiOptions, fn: (ctx: StateCommandContext) => Promise<T>, env: NodeJS.ProcessEnv = cliProcess().env): Promise<T> {
  const { withContext } = await import('../../app/context.js');
  const files = configFiles(flags);
  return withContext({ files, state: flags }, appHost(flags, files, env), fn, { quiet: true });
}

/** Columns padded to their widest cell; the last column is not padded. */
export function renderTable(header: string[], rows: string[][]): string {
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((r) => r[i]!.length)));
  return all.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ').trimEnd()).join('\n') + '\n';
}

export function printJson(value: unknown): void {
  cliProcess().stdout.write(`${terminalJson(value, 2)}\n`);
}
