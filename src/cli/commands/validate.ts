import type { Command } from 'commander';
import { formatDiagnostic, type Diagnostic } from '../../model/diagnostics.js';
import { action } from '../errors.js';
import { addConfigOptions, configFiles } from '../options.js';

interface ValidateOptions {
  file?: string[];
  json?: boolean;
  workspace?: string;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What the config holds, by kind (countByCollection of the config layer), and its moved entries. */
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
    .option('--json', 'print the result as JSON on stdout: {valid, errors, warnings, summary}');
  addConfigOptions(cmd).action(
    action(async (opts: ValidateOptions) => {
      // The loader pulls in the YAML parser and the validator: load it only when validating.
      const { countByCollection, fileOf, loadConfig } = await import('../../config/index.js');
      const files = configFiles(opts);
      // No network and no state: the workspace only names what `${workspace}` expands to.
      const { resolveWorkspace } = await import('../../state/workspace.js');
      const result = await loadConfig(files, { env: process.env, workspace: resolveWorkspace(opts.workspace, process.env) });
      const all = result.ok ? result.warnings : result.errors;
      const errors = all.filter((d) => d.severity === 'error');
      const warnings = all.filter((d) => d.severity === 'warning');
      if (opts.json) {
        const summary = result.ok ? { files, ...summaryJson(countByCollection(result.value), result.value.moved.length) } : null;
        const toJson = (d: Diagnostic) => diagnosticJson(d, fileOf);
        const out = { valid: result.ok, errors: errors.map(toJson), warnings: warnings.map(toJson), summary };
        process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
        return result.ok ? 0 : 1;
      }
      const lines = all.map(formatDiagnostic);
      if (!result.ok) {
        const counts = [plural(errors.length, 'error')];
        if (warnings.length > 0) counts.push(plural(warnings.length, 'warning'));
        process.stderr.write(`${[...lines, counts.join(', ')].join('\n')}\n`);
        return 1;
      }
      if (lines.length > 0) process.stderr.write(`${lines.join('\n')}\n`);
      process.stdout.write(`${summaryLine(files, countByCollection(result.value), result.value.moved.length)}\n`);
      return 0;
    }),
  );
}
