// `dbform fmt [--check] [--diff] [FILE]...` (SPEC section 14): rewrites config files in canonical
// form (src/fmt/format-config.ts). Exit 0 when every file is (now) canonical; with --check
// nothing is written and the exit is 2 when a file would change; 1 when a file cannot be read
// or is not YAML (FILE:LINE:COL: message).
import { readFile, stat } from 'node:fs/promises';
import type { Command } from 'commander';
import { describeFileError, realFilePath, writeFileAtomic } from '../../lockfile/index.js';
import { action } from '../errors.js';
import { atCwd, cliProcess } from '../process.js';

interface FmtFlags {
  file?: string[];
  check?: boolean;
  diff?: boolean;
}

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

export function registerFmt(program: Command): void {
  program
    .command('fmt')
    .description('rewrite config files in canonical form: keys in the schema\'s order, two-space indent, comments kept (exit 2 with --check when a file would change)')
    .argument('[files...]', 'config files (default: the -f files, else dbform.yaml)')
    .option('-f, --file <path>', 'config file (repeatable)', collect)
    .option('--check', 'write nothing; list the files that are not canonical and exit 2 if any')
    .option('--diff', 'print a unified diff of each change')
    .action(action(async (args: string[], flags: FmtFlags) => runFmt(args, flags)));
}

async function runFmt(args: string[], flags: FmtFlags): Promise<number> {
  const { formatConfigText } = await import('../../fmt/format-config.js');
  const files = args.length > 0 ? args : flags.file && flags.file.length > 0 ? flags.file : ['dbform.yaml'];
  let failed = false;
  let changed = 0;
  for (const file of files) {
    let text: string;
    try {
      text = await readFile(atCwd(file), 'utf8');
    } catch (err) {
      cliProcess().stderr.write(`error: cannot read ${file}: ${describeFileError(err)}\n`);
      failed = true;
      continue;
    }
    const result = formatConfigText(text);
    if (!result.ok) {
      cliProcess().stderr.write(`${file}:${result.line}:${result.col}: ${result.message}\n`);
      failed = true;
      continue;
    }
    if (result.text === text) continue;
    changed += 1;
    if (flags.diff) {
      const { createTwoFilesPatch } = await import('diff');
      cliProcess().stdout.write(createTwoFilesPatch(file, file, text, result.text, 'as written', 'canonical'));
    }
    if (flags.check) {
      if (!flags.diff) cliProcess().stdout.write(`${file}\n`);
      continue;
    }
    // The file itself (a symlink stays one), with its permissions.
    const real = await realFilePath(atCwd(file));
    await writeFileAtomic(real, result.text, (await stat(real)).mode & 0o777);
    if (!flags.diff) cliProcess().stdout.write(`${file}\n`);
  }
  if (failed) return 1;
  return flags.check && changed > 0 ? 2 : 0;
}
