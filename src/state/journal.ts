// The local state journal (SPEC section 10): when the state database cannot be written during an
// apply, what the apply bound since its last successful write is kept in
// .dbform/state-journal.json beside the config, and the next run pushes it before it plans, so no
// created ID is ever lost. An entry holds the state as last written (`base`) and as the apply
// left it (`resources`): pushing replays the difference onto whatever the state holds by then.
import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, stat, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../lockfile/index.js';
import { describeFileError } from '../lockfile/file-errors.js';
import { DbformError, inDirectory, parseLockfileJson, type LockEntry, type Lockfile } from '../model/index.js';
import { lockfileToJson } from './document.js';

export interface JournalEntry {
  /** The store (`location`: path or URL without password), project and workspace it belongs to. */
  state: string;
  projectId: string;
  workspace: string;
  /** The state as last written by the run, and as the run left it. */
  base: Lockfile;
  resources: Lockfile;
  savedAt: string;
}

interface JournalFileDto {
  version: 1;
  entries: Array<{ state: string; project_id: string; workspace: string; saved_at: string; base: unknown; resources: unknown }>;
}

const sameTarget = (e: { state: string; projectId: string; workspace: string }, k: { state: string; projectId: string; workspace: string }) =>
  e.state === k.state && e.projectId === k.projectId && e.workspace === k.workspace;

export class StateJournal {
  /** As messages name it (relative to the run's directory, as the config's path is). */
  readonly path: string;
  /** Where the file system finds it: `path` read from `cwd` when given (model/run-directory.ts). */
  private readonly file: string;
  constructor(path: string, cwd?: string) {
    this.path = path;
    this.file = inDirectory(cwd, path);
  }

  async read(): Promise<JournalEntry[]> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw new DbformError(`cannot read the state journal ${this.path}: ${describeFileError(err)}`);
    }
    try {
      const dto = JSON.parse(text) as JournalFileDto;
      return dto.entries.map((e) => ({
        state: e.state,
        projectId: e.project_id,
        workspace: e.workspace,
        savedAt: e.saved_at,
        base: parseOrThrow(e.base),
        resources: parseOrThrow(e.resources),
      }));
    } catch (err) {
      throw new DbformError(`the state journal ${this.path} cannot be read (${(err as Error).message}); it holds IDs not yet in the state: fix it by hand, do not delete it`);
    }
  }

  async find(key: { state: string; projectId: string; workspace: string }): Promise<JournalEntry | undefined> {
    return (await this.read()).find((e) => sameTarget(e, key));
  }

  /** Replaces this target's entry (a later save of one apply holds everything the earlier did). */
  save(entry: JournalEntry): Promise<void> {
    return this.update((entries) => [...entries.filter((e) => !sameTarget(e, entry)), entry]);
  }

  remove(key: { state: string; projectId: string; workspace: string }): Promise<void> {
    return this.update((entries) => entries.filter((e) => !sameTarget(e, key)));
  }

  /** Read-modify-write under a short-lived lock file: runs of other workspaces share the journal. */
  private async update(change: (entries: JournalEntry[]) => JournalEntry[]): Promise<void> {
    await mkdir(dirname(this.file), { recursive: true });
    const release = await takeMutex(`${this.file}.lock`);
    try {
      const next = change(await this.read());
      if (next.length === 0) await unlink(this.file).catch(() => undefined);
      else await writeFileAtomic(this.file, serializeJournal(next));
    } finally {
      await release();
    }
  }
}

function parseOrThrow(data: unknown): Lockfile {
  const parsed = parseLockfileJson(data);
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.value;
}

function serializeJournal(entries: JournalEntry[]): string {
  const dto: JournalFileDto = {
    version: 1,
    entries: entries.map((e) => ({
      state: e.state,
      project_id: e.projectId,
      workspace: e.workspace,
      saved_at: e.savedAt,
      base: lockfileToJson(e.base),
      resources: lockfileToJson(e.resources),
    })),
  };
  return `${JSON.stringify(dto, null, 2)}\n`;
}

/** An exclusive-create lock file; one older than 30 s is a crashed writer's and is taken over. */
async function takeMutex(path: string): Promise<() => Promise<void>> {
  const token = randomBytes(8).toString('hex');
  for (let i = 0; ; i++) {
    try {
      const h = await open(path, 'wx');
      await h.writeFile(token);
      await h.close();
      return () => unlink(path).catch(() => undefined);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw new DbformError(`cannot write the state journal lock ${path}: ${describeFileError(err)}`);
      const age = await stat(path).then((s) => Date.now() - s.mtimeMs, () => 0);
      if (age > 30_000 || i > 600) await unlink(path).catch(() => undefined);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

const same = (a: LockEntry | undefined, b: LockEntry | undefined) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * `current` with the journal's changes (base -> resources) replayed on it. An address that
 * changed both here and in the state since, in different ways, cannot be merged: that is an
 * error naming it (and the journal is kept).
 */
export function mergeJournal(current: Lockfile, entry: JournalEntry): { merged: Lockfile; changed: number; conflicts: string[] } {
  const resources: Record<string, LockEntry> = { ...current.resources };
  const conflicts: string[] = [];
  let changed = 0;
  const addresses = new Set([...Object.keys(entry.base.resources), ...Object.keys(entry.resources.resources)]);
  for (const address of [...addresses].sort()) {
    const b = entry.base.resources[address];
    const d = entry.resources.resources[address];
    const c = current.resources[address];
    if (same(b, d) || same(c, d)) continue;
    if (!same(c, b)) {
      conflicts.push(`${address}: the journal has ${d ? d.id : 'no binding'}, the state now has ${c ? c.id : 'no binding'}`);
      continue;
    }
    if (d) resources[address] = { ...d };
    else delete resources[address];
    changed++;
  }
  return { merged: { ...current, resources }, changed, conflicts };
}
