// Config files from disk: each read once, with a problem that names the file when it cannot be.
import { readFile, realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Diagnostic } from '../model/diagnostics.js';
import { inDirectory } from '../model/run-directory.js';

/** A config file's content, already read. */
export interface ConfigInput {
  file: string;
  content: string | Uint8Array;
}

/** A problem with a whole file (missing, unreadable, given twice): it names a file but no position. */
export interface FileDiagnostic extends Diagnostic {
  file: string;
}

/** The file a diagnostic is about, positioned or not. */
export const fileOf = (d: Diagnostic): string | undefined => d.source?.file ?? (d as Partial<FileDiagnostic>).file;

const fileProblem = (file: string, message: string, code: string): FileDiagnostic => ({ severity: 'error', message, code, file });

function describeReadError(file: string, err: unknown): FileDiagnostic {
  const code = (err as NodeJS.ErrnoException).code;
  const reason =
    code === 'ENOENT'
      ? 'no such file (pass the config with -f PATH, or run dbform where dbform.yaml is)'
      : code === 'EISDIR'
        ? 'is a directory, not a config file'
        : code === 'EACCES'
          ? 'permission denied'
          : (err as Error).message;
  return fileProblem(file, `${file}: ${reason}`, code === 'ENOENT' ? 'file-not-found' : 'file-unreadable');
}

async function readOne(file: string, cwd: string | undefined): Promise<{ input: ConfigInput; real: string } | FileDiagnostic> {
  if (file.trim() === '') return fileProblem(file, `an empty file name was given (-f ${JSON.stringify(file)}); pass the config with -f PATH`, 'file-not-found');
  const path = inDirectory(cwd, file);
  try {
    const content = await readFile(path);
    // A pipe (-f /dev/stdin, -f <(...)) has no real path to compare: its own name will do.
    const real = await realpath(path).catch(() => resolve(path));
    return { input: { file, content }, real };
  } catch (err) {
    return describeReadError(file, err);
  }
}

/**
 * Reads the files in the order given. A file given twice (by the same name or another path to it)
 * is read once: loading it twice would make each of its keys "defined twice" by itself. Relative
 * names are read from `cwd` when given; messages keep the names as given.
 */
export async function readConfigFiles(files: readonly string[], cwd?: string): Promise<{ inputs: ConfigInput[]; problems: FileDiagnostic[] }> {
  const read = await Promise.all(files.map((file) => readOne(file, cwd)));
  const inputs: ConfigInput[] = [];
  const problems: FileDiagnostic[] = [];
  const seen = new Map<string, string>();
  for (const r of read) {
    if ('severity' in r) {
      problems.push(r);
      continue;
    }
    const first = seen.get(r.real);
    if (first === undefined) {
      seen.set(r.real, r.input.file);
      inputs.push(r.input);
      continue;
    }
    const same = first === r.input.file ? `${first} is given twice` : `${r.input.file} is ${first}, given twice`;
    problems.push(fileProblem(r.input.file, `${same}; give each config file once`, 'file-given-twice'));
  }
  return { inputs, problems };
}
