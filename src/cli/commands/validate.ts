import type { Command } from 'commander';
import { formatDiagnostic, type Diagnostic } from '../../model/diagnostics.js';
import { DbformError } from '../../model/errors.js';
import { action } from '../errors.js';
import { addConfigOptions, configFiles } from '../options.js';
import { cliProcess, runDirectory } from '../process.js';

interface ValidateOptions {
  file?: string[];
  json?: boolean;
  workspace?: string;
  maxErrors: string;
}

/** Diagnostics printed when --max-errors is not given (SPEC section 13): the rest are counted. */
export const DEFAULT_MAX_ERRORS = 1000;

function parseMaxErrors(text: string): number {
  if (!/^\d+$/.test(text.trim())) throw new DbformError(`--max-errors takes a whole number of diagnostics to print, 0 for all (got ${JSON.stringify(text)})`);
  return Number(text);
}

/** The first `max` diagnostics (all with 0), in file order as the loader sorted them, and what is left out. */
function firstOf(all: readonly Diagnostic[], max: number) {
  const shown = max === 0 ? all : all.slice(0, max);
  const left = all.slice(shown.length);
  return { shown, errors: left.filter((d) => d.severity === 'error').length, warnings: left.filter((d) => d.severity === 'warning').length };
}

/** `... and 86000 more errors` (and warnings), or nothing when every diagnostic is shown. */
function moreLine(errors: number, warnings: number): string[] {
  const parts = [...(errors > 0 ? [plural(errors, 'more error')] : []), ...(warnings > 0 ? [plural(warnings, 'more warning')] : [])];
  return parts.length > 0 ? [`... and ${parts.join(', ')}`] : [];
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What the config holds, by kind (countByCollection of the kind registry), and its moved entries. */
type Counts = Array<{ key: string; count: number; one: string; many: string }>;

function summaryJson(counts: Counts, moved: number): Record<string, number> {
  return { ...Object.fromEntries(counts.map((c) => [c.key, c.count])), moved };
}

function summaryLine(files: readonly string[], counts: Counts, moved: number): string {
  const parts = counts.map((c) => plural(c.count, c.one, c.many));
  if (moved > 0) parts.push(`${moved} moved`);
  return `${files.join(', ')}: valid (${parts.join(', ')})`;
}

/** `fileOf`: the file of a diagnostic, also when it has no position (a missing file). */
const diagnosticJson = (d: Diagnostic, fileOf: (d: Diagnostic) => string | undefined) => ({
  file: fileOf(d) ?? null,
  line: d.source?.line ?? null,
  col: d.source?.col ?? null,
  message: d.message,
  path: d.path ?? null,
  code: d.code ?? null,
});

export function registerValidate(program: Command): void {
  const cmd = program
    .command('validate')
    .description('check the config files without touching the network; exit 0 when valid, 1 when not')
    .option('--json', 'print the result as JSON on stdout: {valid, errors, warnings, error_count, warning_count, omitted, summary}')
    .option('--max-errors <n>', 'print at most the first N diagnostics, in file order, then how many more (0: all)', String(DEFAULT_MAX_ERRORS));
  addConfigOptions(cmd).action(
    action(async (opts: ValidateOptions) => {
      // The loader pulls in the YAML parser and the validator: load it only when validating.
      const { fileOf, loadConfig } = await import('../../config/index.js');
      const { countByCollection } = await import('../../kinds/index.js');
      const files = configFiles(opts);
      const max = parseMaxErrors(opts.maxErrors);
      // No network and no state: the workspace only names what `${workspace}` expands to.
      const { resolveWorkspace } = await import('../../state/workspace.js');
      const proc = cliProcess();
      const cwd = runDirectory();
      const result = await loadConfig(files, { env: proc.env, workspace: resolveWorkspace(opts.workspace, proc.env), ...(cwd !== undefined ? { cwd } : {}) });
      const all = result.ok ? result.warnings : result.errors;
      const errors = all.filter((d) => d.severity === 'error');
      const warnings = all.filter((d) => d.severity === 'warning');
      const first = firstOf(all, max);
      if (opts.json) {
        const summary = result.ok ? { files, ...summaryJson(countByCollection(result.value), result.value.moved.length) } : null;
        const listed = (severity: Diagnostic['severity']) => first.shown.filter((d) => d.severity === severity).map((d) => diagnosticJson(d, fileOf));
        const out = {
          valid: result.ok,
          errors: listed('error'),
          warnings: listed('warning'),
          error_count: errors.length,
          warning_count: warnings.length,
          omitted: first.errors + first.warnings,
          summary,
        };
        cliProcess().stdout.write(`${JSON.stringify(out, null, 2)}\n`);
        return result.ok ? 0 : 1;
      }
      const lines = [...first.shown.map(formatDiagnostic), ...moreLine(first.errors, first.warnings)];
      if (!result.ok) {
        const counts = [plural(errors.length, 'error')];
        if (warnings.length > 0) counts.push(plural(warnings.length, 'warning'));
        cliProcess().stderr.write(`${[...lines, counts.join(', ')].join('\n')}\n`);
        return 1;
      }
      if (lines.length > 0) cliProcess().stderr.write(`${lines.join('\n')}\n`);
      cliProcess().stdout.write(`${summaryLine(files, countByCollection(result.value), result.value.moved.length)}\n`);
      return 0;
    }),
  );
}
