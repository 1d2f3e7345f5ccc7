// The file store's history: one JSON line per apply or destroy in .dbform/history.jsonl beside
// the config, shared by the workspaces (each record names its own).
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { describeFileError } from '../../lockfile/index.js';
import { DbformError, inDirectory } from '../../model/index.js';
import { historyFromJson, historyToJson, type HistoryRecord } from '../history.js';

/**
 * One write of one line: appends of concurrent runs (other workspaces) never interleave. `path` is
 * read from `cwd` when given (model/run-directory.ts); messages name it as given.
 */
export async function appendHistoryLine(path: string, record: HistoryRecord, cwd?: string): Promise<void> {
  const file = inDirectory(cwd, path);
  try {
    await mkdir(dirname(file), { recursive: true });
    const present = await readHistoryFile(path, cwd);
    if (present.some((r) => r.id === record.id)) return;
    await appendFile(file, `${JSON.stringify(historyToJson(record))}\n`, { encoding: 'utf8', mode: 0o644 });
  } catch (err) {
    if (err instanceof DbformError) throw err;
    throw new DbformError(`cannot append to the history file ${path}: ${describeFileError(err)}`, { cause: err });
  }
}

/** Newest first (the file is in the order written). A torn or foreign line is skipped, not fatal. */
export async function readHistoryFile(path: string, cwd?: string): Promise<HistoryRecord[]> {
  let text: string;
  try {
    text = await readFile(inDirectory(cwd, path), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new DbformError(`cannot read the history file ${path}: ${describeFileError(err)}`, { cause: err });
  }
  const records: HistoryRecord[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const r = historyFromJson(JSON.parse(line));
      if (r) records.push(r);
    } catch {
      // A line cut by a crash mid-append.
    }
  }
  return records.reverse();
}
