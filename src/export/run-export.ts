// `dbform export` without the terminal: choose the project(s), read each live state (2 + V
// requests), build YAML and lockfile, refuse to overwrite what that would lose or to add live
// resources to an existing lockfile, check that a plan of the result is empty, then write (YAML
// first: a lockfile without its config would plan deletions). Lines for people go to `report`;
// the YAML for stdout goes to `print`.
import { mkdir, readFile } from 'node:fs/promises';
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import { dirname, join, resolve } from 'node:path';
import type { ApiClient, LiveReader } from '../api/index.js';
import { loadConfigText } from '../config/index.js';
import { KINDS } from '../kinds/index.js';
import { resolveLockfilePath, writeFileAtomic, writeLockfile } from '../lockfile/index.js';
import { DbformError, formatDiagnostic, inDirectory, KIND_NOUNS, nextRevision, parseLockfileJson, type DesiredState, type LiveState, type Lockfile, type Plan } from '../model/index.js';
import { newLineage, versionOf, type LockHolderInfo, type StateStore } from '../state/index.js';
import { countResources, describeLostBinding, exportLiveState, lostBindings, sameBindings, type ExportResult } from './index.js';
import { schemaRefFor } from './schema-ref.js';

/** The client, or any object with the project list and the list methods the kinds name. */
export type ExportClient = LiveReader & Pick<ApiClient, 'listProjects'>;

export interface ExportRequest {
  client: ExportClient;
  /** The live state of a project (src/app/pipeline.ts: the one live read of every command). */
  readLive: (projectId: string) => Promise<LiveState>;
  /** The plan the next `dbform plan` would make of an exported config (it must be empty). */
  planExported: (desired: DesiredState, live: LiveState, lock: Lockfile) => Plan;
  project?: string;
  allProjects: boolean;
  /** `-o`: the YAML file; with `allProjects` the directory. */
  output?: string;
  lockfile?: string;
  force: boolean;
  /**
   * The run's directory when it is not the process's own (model/run-directory.ts): relative paths
   * are read and written there; messages name them as given.
   */
  cwd?: string;
  /**
   * When the state lives in a store (--state, DBFORM_STATE): the store of a project, which the
   * bindings go to instead of a lockfile file.
   */
  openState?: (projectId: string) => StateStore;
  /** `--check`: print a unified diff of the YAML against `output` and write nothing (exit 0 same, 2 different). */
  check?: boolean;
  /** Who holds a store's lock while the bindings are written to it. */
  holder: LockHolderInfo;
  report: (line: string) => void;
  print: (text: string) => void;
}

interface Job {
  projectId: string;
  yamlPath?: string;
  lockPath: string;
  result: ExportResult;
  /** False when the YAML file already holds exactly this text. */
  writeYaml: boolean;
  /** False when the lockfile already binds exactly this (a write would only raise its serial). */
  writeLock: boolean;
  /** The state store the bindings go to (instead of lockPath), and the state it held. */
  store?: StateStore;
  previous?: Lockfile;
}

/** The exit code: 0, or with `check` 2 when the file differs from what export would write. */
export async function runExport(req: ExportRequest): Promise<number> {
  const projects = await chooseProjects(req);
  if (req.check) return checkExport(req, projects[0]!);
  if (req.allProjects) await makeDirectory(req.output!, req.cwd);
  const jobs: Job[] = [];
  try {
    await prepareJobs(req, projects, jobs);
    for (const job of jobs) await writeJob(req, job);
  } finally {
    for (const job of jobs) await job.store?.close();
  }
  return 0;
}

/**
 * `export -o FILE --check`: the YAML export would write (keys kept from the lockfile or state, as a
 * write would keep them), as a unified diff against FILE. Nothing is written, so nothing is guarded.
 */
async function checkExport(req: ExportRequest, projectId: string): Promise<number> {
  const path = req.output!;
  const store = req.openState?.(projectId);
  let result: ExportResult;
  try {
    const live = await req.readLive(projectId);
    const previous = store ? await readStoredState(store) : await readLockfileQuietly(inDirectory(req.cwd, resolveLockfilePath([path], req.lockfile)), projectId);
    result = exportLiveState(live, { schemaRef: schemaRefFor(path, req.cwd), ...(previous ? { previous } : {}) });
  } finally {
    await store?.close();
  }
  let current = '';
  try {
    current = await readFile(inDirectory(req.cwd, path), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new DbformError(`${path}: cannot read it to compare: ${(err as Error).message}`);
    req.report(`note: ${path} does not exist; the whole export is new`);
  }
  if (current === result.yaml) {
    req.report(`${path} is up to date with the live infrastructure of project ${projectId}.`);
    return 0;
  }
  req.print(createTwoFilesPatch(path, path, current, result.yaml, 'current', `export of project ${projectId}`, { headerOptions: FILE_HEADERS_ONLY }));
  return 2;
}

/** The lockfile beside FILE when it can be read as this project's; else none (a check writes nothing, so refuses nothing). */
async function readLockfileQuietly(path: string, projectId: string): Promise<Lockfile | undefined> {
  try {
    const parsed = parseLockfileJson(JSON.parse(await readFile(path, 'utf8')));
    return parsed.ok && parsed.value.projectId === projectId ? parsed.value : undefined;
  } catch {
    return undefined;
  }
}

async function prepareJobs(req: ExportRequest, projects: string[], jobs: Job[]): Promise<void> {
  for (const projectId of projects) {
    // --all-projects: DIR/<project>/dbform.yaml with dbform.lock.json beside it, where plan looks for it.
    const yamlPath = req.allProjects ? join(req.output!, projectId, 'dbform.yaml') : req.output;
    const lockPath = resolveLockfilePath(yamlPath === undefined ? [] : [yamlPath], req.lockfile);
    if (yamlPath !== undefined && resolve(yamlPath) === resolve(lockPath)) throw new DbformError(`the YAML and the lockfile would both be written to ${lockPath}; choose another --lockfile`);
    jobs.push(await prepareJob(req, projectId, yamlPath, lockPath));
  }
}

async function makeDirectory(path: string, cwd: string | undefined): Promise<void> {
  try {
    await mkdir(inDirectory(cwd, path), { recursive: true });
  } catch (err) {
    throw new DbformError(`cannot create the directory ${path}: ${(err as Error).message}`);
  }
}

/** Writes a file (`write` gets where it is), creating its directory; a failure names the file. */
async function writing(path: string, cwd: string | undefined, write: (file: string) => Promise<void>): Promise<void> {
  await makeDirectory(dirname(path), cwd);
  try {
    await write(inDirectory(cwd, path));
  } catch (err) {
    throw new DbformError(`cannot write ${path}: ${(err as Error).message}`);
  }
}

async function chooseProjects(req: ExportRequest): Promise<string[]> {
  const projects = (await req.client.listProjects()).map((p) => ({ id: String(p.id), name: String(p.name ?? '') })).sort((a, b) => (a.id < b.id ? -1 : 1));
  const width = Math.max(0, ...projects.map((p) => p.id.length));
  const listing = projects.map((p) => `  ${p.id.padEnd(width)}  ${p.name}`.trimEnd()).join('\n');
  if (projects.length === 0) throw new DbformError('the API token sees no project: there is nothing to export');
  if (req.project !== undefined) {
    if (!projects.some((p) => p.id === req.project)) throw new DbformError(`project "${req.project}" is not visible to this API token; it sees:\n${listing}`);
    return [req.project];
  }
  if (req.allProjects) {
    const bad = projects.find((p) => !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(p.id));
    if (bad) throw new DbformError(`project ID "${bad.id}" cannot be used as a file name; export it alone with --project and -o FILE`);
    return projects.map((p) => p.id);
  }
  if (projects.length === 1) return [projects[0]!.id];
  throw new DbformError(`the API token sees ${projects.length} projects; choose one with --project ID, or export each with --all-projects -o DIR:\n${listing}`);
}

async function prepareJob(req: ExportRequest, projectId: string, yamlPath: string | undefined, lockPath: string): Promise<Job> {
  const store = req.openState?.(projectId);
  try {
    return await prepareWith(req, projectId, yamlPath, store ? store.location : lockPath, store);
  } catch (err) {
    await store?.close();
    throw err;
  }
}

async function prepareWith(req: ExportRequest, projectId: string, yamlPath: string | undefined, lockPath: string, store: StateStore | undefined): Promise<Job> {
  const live = await req.readLive(projectId);
  const previous = store ? await readStoredState(store) : await readPreviousLockfile(lockPath, projectId, req);
  const result = exportLiveState(live, { schemaRef: schemaRefFor(yamlPath, req.cwd), ...(previous ? { previous } : {}) });
  if (previous) guardLockfile(previous, result.lock, lockPath, req);
  const writeYaml = yamlPath === undefined ? false : await guardOutput(yamlPath, result.yaml, req);
  checkRoundTrip(result, live, yamlPath ?? 'dbform.yaml', req);
  const writeLock = previous === undefined || !sameBindings(previous, result.lock);
  return { projectId, ...(yamlPath !== undefined ? { yamlPath } : {}), lockPath, result, writeYaml, writeLock, ...(store ? { store } : {}), ...(previous ? { previous } : {}) };
}

/** The state the store holds, or undefined when it holds none yet. */
async function readStoredState(store: StateStore): Promise<Lockfile | undefined> {
  const { lockfile } = await store.read();
  return lockfile.lineage === undefined && Object.keys(lockfile.resources).length === 0 ? undefined : lockfile;
}

/** Into the store: under its lock, a compare-and-swap on the state read when the export was prepared. */
async function writeToStore(store: StateStore, holder: LockHolderInfo, lock: Lockfile, previous: Lockfile | undefined): Promise<void> {
  const held = await store.lock(holder, { timeoutMs: 0 });
  try {
    // The export's lockfile keeps the lineage and serial of the state it replaces (buildExportLockfile).
    await store.write(nextRevision(lock, newLineage()), previous ? versionOf(previous) : { lineage: null, serial: 0 });
  } finally {
    await held.release();
  }
}

async function writeJob(req: ExportRequest, job: Job): Promise<void> {
  const { result } = job;
  for (const s of result.document.skipped) req.report(`note: not exported: ${s}`);
  if (job.yamlPath === undefined) req.print(result.yaml);
  else if (job.writeYaml) await writing(job.yamlPath, req.cwd, (file) => writeFileAtomic(file, result.yaml));
  if (job.writeLock && job.store) await writeToStore(job.store, req.holder, result.lock, job.previous);
  else if (job.writeLock) await writing(job.lockPath, req.cwd, async (file) => void (await writeLockfile(file, result.lock)));
  const c = countResources(result.document);
  const counts = KINDS.map((k) => plural(c[k.kind] ?? 0, KIND_NOUNS[k.kind]));
  const what = `${counts.slice(0, -1).join(', ')} and ${counts.at(-1)}`;
  const bindings = job.store ? `state ${job.store.location} (workspace "${job.store.workspace}")` : `lockfile ${job.lockPath}`;
  req.report(`Exported ${what} of project ${job.projectId} to ${job.yamlPath ?? 'stdout'}; ${bindings}.`);
}

const plural = (n: number, noun: { one: string; many: string }) => `${n} ${n === 1 ? noun.one : noun.many}`;

/** An existing lockfile at the path: kept keys come from it; anything it cannot be merged with needs --force. */
async function readPreviousLockfile(path: string, projectId: string, req: ExportRequest): Promise<Lockfile | undefined> {
  let text: string;
  try {
    text = await readFile(inDirectory(req.cwd, path), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new DbformError(`${path}: cannot read the existing lockfile: ${(err as Error).message}`);
  }
  let problem: string;
  try {
    const parsed = parseLockfileJson(JSON.parse(text));
    if (parsed.ok && parsed.value.projectId === projectId) return parsed.value;
    problem = parsed.ok ? `is the lockfile of project "${parsed.value.projectId}", not "${projectId}"` : `cannot be read as a lockfile (${parsed.errors.join('; ')})`;
  } catch (err) {
    problem = `cannot be read as a lockfile (not valid JSON: ${(err as Error).message})`;
  }
  if (!req.force) throw new DbformError(`${path} ${problem}; pass --force to replace it, or --lockfile PATH to write another file`);
  req.report(`note: --force: replacing ${path}, which ${problem}`);
  return undefined;
}

/**
 * An existing lockfile is written only when the export keeps every binding it holds and adds
 * none (then it is the one an export of these resources wrote, and nothing is written at all),
 * or with --force. Whether a lockfile is "ours" cannot be told from the file: the lockfile of a
 * hand-written config binds the same kind of addresses. Adding live resources to it would make
 * that config's next plan delete them, so any other difference is refused.
 */
function guardLockfile(previous: Lockfile, next: Lockfile, path: string, req: ExportRequest): void {
  const lost = lostBindings(previous, next);
  if (lost.length === 0) {
    guardAdditions(previous, next, path, req);
    return;
  }
  const list = lost.map((b) => `  ${describeLostBinding(b)}`).join('\n');
  if (!req.force) {
    throw new DbformError(
      `${path} already binds ${lost.length === 1 ? 'a resource' : `${lost.length} resources`} that this export would drop or rebind:\n${list}\n` +
        'pass --force to overwrite the lockfile (those bindings are lost), or --lockfile PATH to write another file',
    );
  }
  req.report(`note: --force: dropping ${lost.length} binding(s) from ${path}:\n${list}`);
}

/** Every binding of `previous` stays; bindings that `next` adds need --force. */
function guardAdditions(previous: Lockfile, next: Lockfile, path: string, req: ExportRequest): void {
  const added = Object.keys(next.resources).filter((a) => previous.resources[a]?.id !== next.resources[a]!.id).length;
  if (added === 0) return;
  const what = added === 1 ? '1 binding' : `${added} bindings`;
  if (!req.force) {
    throw new DbformError(
      `${path} already exists and this export would add ${what} to it; export does not add live resources to an existing lockfile, which may be another config's: ` +
        'pass --force to write it anyway, or --lockfile PATH (or -o in another directory) for a new one',
    );
  }
  req.report(`note: --force: adding ${what} to ${path}`);
}

/** True when the file must be written; an existing file that differs needs --force. */
async function guardOutput(path: string, text: string, req: Pick<ExportRequest, 'force' | 'cwd'>): Promise<boolean> {
  const force = req.force;
  let existing: string;
  try {
    existing = await readFile(inDirectory(req.cwd, path), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw new DbformError(`${path}: cannot read the existing file: ${(err as Error).message}`);
  }
  if (existing === text) return false;
  if (!force) throw new DbformError(`${path} already exists and differs from this export; pass --force to overwrite it, or -o another file`);
  return true;
}

/**
 * The export's own promise: the YAML loads, and a plan of it against the live state just read is
 * empty. A failure to load is a bug (nothing is written); a non-empty plan is reported (e.g. a
 * resource in a failed state, which a plan replaces).
 */
function checkRoundTrip(result: ExportResult, live: LiveState, file: string, req: Pick<ExportRequest, 'planExported' | 'report'>): void {
  const report = req.report;
  const loaded = loadConfigText(result.yaml, file, { env: {} });
  if (!loaded.ok) {
    const problems = loaded.errors.map((d) => `  ${formatDiagnostic(d)}`).join('\n');
    throw new DbformError(`internal error: the exported YAML does not pass validation; nothing was written. Please report this:\n${problems}`);
  }
  const plan = req.planExported(loaded.value, live, result.lock);
  for (const d of plan.diagnostics) report(`note: the next plan reports: ${formatDiagnostic(d)}`);
  for (const a of plan.actions) report(`note: the next plan will not be empty: ${a.address} ${a.op} (${a.reason})`);
}
