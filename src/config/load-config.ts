// The config loader: files -> bytes -> text -> YAML -> interpolated data -> schema -> merge ->
// rules -> desired state. Every stage reports all it finds; nothing is thrown at the caller.
import type { Diagnostic, Result, SourceRef } from '../model/diagnostics.js';
import type { DesiredState } from '../model/resources.js';
import { terminalLine } from '../model/terminal-text.js';
import { childKinds, TOP_KINDS, type AnyKind } from '../kinds/index.js';
import { buildDesiredState } from './build-desired.js';
import { decodeConfigBytes } from './decode.js';
import { isRuleFollowOn, isSchemaFollowOn } from './follow-ons.js';
import { credentialVariables, interpolateEnv, markUnresolved, mayInterpolate } from './interpolate.js';
import { configKey } from './kind-paths.js';
import type { PathSeg } from './positions.js';
import { mergeFiles, type LoadedFile } from './merge.js';
import { formatPath } from './paths.js';
import { parseYamlText, type ParsedYaml } from './read-yaml.js';
import { readConfigFiles, type ConfigInput } from './read-files.js';
import { RULES } from './rules/index.js';
import { translateSchemaErrors } from './schema-errors.js';
import { findSchemaErrors } from './validator.js';

export type { ConfigInput } from './read-files.js';

export interface LoadOptions {
  /** Environment for `${env:NAME}`; the CLI passes its process's. Default: empty (every variable unset). */
  env?: NodeJS.ProcessEnv;
  /** What `${workspace}` expands to (default: `default`). */
  workspace?: string;
  /** The directory relative file names are read from, when not the process's own (model/run-directory.ts). */
  cwd?: string;
}

type Parsed = Extract<ParsedYaml, { ok: true }>;

/** Bytes -> text -> YAML data (not yet interpolated), or what is wrong with them. */
function readOne({ file, content }: ConfigInput): { file: string; parsed: Parsed; expands: boolean } | { file: string; diagnostics: Diagnostic[] } {
  const decoded = typeof content === 'string' ? { ok: true as const, text: content.replace(/^\uFEFF/, '') } : decodeConfigBytes(content, file);
  if (!decoded.ok) return { file, diagnostics: [decoded.error] };
  const parsed = parseSafely(decoded.text, file);
  if (!parsed.ok) return { file, diagnostics: parsed.errors };
  if (!parsed.empty) return { file, parsed, expands: mayInterpolate(decoded.text) };
  const message = 'the file is empty; a config needs at least `version: 1` and `project_id: <your project ID>`';
  return { file, diagnostics: [{ severity: 'error', message, source: { file, line: 1, col: 1 }, code: 'empty-file' }] };
}

/**
 * YAML data -> interpolated data checked against the schema, into `diagnostics`. `expands`: the
 * file's text may hold something to interpolate (mayInterpolate). `credentials`: the variables
 * that may not be read outside `password:` (credentialVariables, over every file).
 */
function checkOne(file: string, parsed: Parsed, expands: boolean, options: LoadOptions, credentials: ReadonlyMap<string, string>, diagnostics: Diagnostic[]): LoadedFile {
  const { locator, suspects } = parsed;
  diagnostics.push(...parsed.errors);
  const { env = {}, workspace } = options;
  // In place, a text with nothing to expand (mayInterpolate) would come out of the walk as it went in.
  const { data, problems, interpolated } =
    !expands && !parsed.shared
      ? { data: parsed.data, problems: [], interpolated: [] }
      : interpolateEnv(parsed.data, env, { inPlace: !parsed.shared, credentials, ...(workspace !== undefined && { workspace }) });
  for (const p of problems) diagnostics.push({ severity: 'error', message: p.message, path: formatPath(p.path), source: locator.at(p.path), code: p.code });
  // A string whose interpolation failed is wrong only because of that: say it once.
  const failed = new Set(diagnostics.map((d) => positionKey(d.source)));
  // Found by position: a value used through an alias is interpolated (and recorded) once. Only a
  // schema error asks, and a position costs a second read of the file (positions.ts).
  let byPosition: Map<string, (typeof interpolated)[number]> | undefined;
  const writtenAs = (path: PathSeg[]) => {
    if (interpolated.length === 0) return undefined;
    byPosition ??= new Map(interpolated.map((i) => [positionKey(locator.at(i.path)), i]));
    return byPosition.get(positionKey(locator.at(path)));
  };
  emptySections(data);
  for (const p of translateSchemaErrors(findSchemaErrors(data), data, writtenAs)) {
    const d: Diagnostic = { severity: 'error', message: p.message, path: formatPath(p.shownPath ?? p.path), source: locator.at(p.path, p.target), code: p.code };
    if (!failed.has(positionKey(d.source)) && !isSchemaFollowOn(d, suspects.schema)) diagnostics.push(d);
  }
  markUnresolved(data, problems.map((p) => p.path));
  return { file, locator, data };
}

/**
 * The YAML reader's problems are diagnostics; anything it throws is a file it could not read (a
 * shape its checks missed), still reported at a position instead of ending the command.
 */
function parseSafely(text: string, file: string): ParsedYaml {
  try {
    return parseYamlText(text, file);
  } catch (err) {
    const reason = err instanceof RangeError ? 'it nests too deeply' : (err as Error).message.replace(/\s*\n\s*/g, ' ');
    const message = `cannot read this file as YAML (${reason})`;
    return { ok: false, errors: [{ severity: 'error', message, source: { file, line: 1, col: 1 }, code: 'yaml-unreadable' }] };
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A section left empty (`services:` with every entry commented out, the natural way to remove the
 * last one) reads as null; it means none, so the later stages only ever see `{}` or `[]`.
 */
function emptySections(data: unknown): void {
  if (!isObject(data)) return;
  const empty = (def: AnyKind) => (def.config.shape === 'map' ? {} : []);
  for (const top of TOP_KINDS) if (data[configKey(top)] === null) data[configKey(top)] = empty(top);
  if (data.moved === null) data.moved = [];
  for (const top of TOP_KINDS) {
    const entries = data[configKey(top)];
    for (const entry of isObject(entries) ? Object.values(entries) : []) {
      for (const child of childKinds(top.kind)) if (isObject(entry) && entry[configKey(child)] === null) entry[configKey(child)] = empty(child);
    }
  }
}

const positionKey = (s: SourceRef | undefined) => (s ? `${s.file}:${s.line}:${s.col}` : '');

/** Loads config contents already in memory (tests, and the CLI after reading the files). */
export function loadConfigInputs(inputs: readonly ConfigInput[], options: LoadOptions = {}): Result<DesiredState> {
  if (inputs.length === 0) return { ok: false, errors: [{ severity: 'error', message: 'no config file given', code: 'no-config' }] };
  const diagnostics: Diagnostic[] = [];
  const read = inputs.map(readOne);
  const parsed = read.flatMap((r) => ('parsed' in r ? [r.parsed] : []));
  const credentials = credentialVariables(parsed.map((p) => p.data));
  const loaded = read.flatMap((r) => ('parsed' in r ? [checkOne(r.file, r.parsed, r.expands, options, credentials, diagnostics)] : (diagnostics.push(...r.diagnostics), [])));
  const suspects = parsed.flatMap((p) => p.suspects.rules);
  const { config, errors } = mergeFiles(loaded);
  diagnostics.push(...errors);
  // Rules compare resources across files: with a file unread, they would report its resources
  // as missing. Its own problems come first; the rules run once every file loads.
  if (loaded.length === inputs.length && !parsed.some((p) => p.suspects.skipRules)) {
    for (const rule of RULES) diagnostics.push(...rule(config).filter((d) => !isRuleFollowOn(d, suspects)));
  }

  // One problem per node and kind: a node shared through a YAML alias is reported once, where
  // it is written, not once for every place that uses it.
  const seen = new Set<string>();
  const id = (d: Diagnostic) => (d.source ? `${positionKey(d.source)}:${d.code}` : d.message);
  const unique: Diagnostic[] = [];
  for (const d of diagnostics) {
    const key = id(d);
    if (seen.has(key)) continue;
    seen.add(key);
    unique.push({ ...d, message: terminalLine(d.message) });
  }
  const fileIndex = (d: Diagnostic) => (d.source ? inputs.findIndex((i) => i.file === d.source!.file) : -1);
  unique.sort((a, b) => fileIndex(a) - fileIndex(b) || (a.source?.line ?? 0) - (b.source?.line ?? 0) || (a.source?.col ?? 0) - (b.source?.col ?? 0));
  // A file that did not parse has no data: its resources are unknown, so never report success.
  // Warnings ride along with the errors of a failed load (each carries its severity).
  if (unique.some((d) => d.severity === 'error') || loaded.length < inputs.length) return { ok: false, errors: unique };
  return { ok: true, value: buildDesiredState(config), warnings: unique };
}

/** Loads one config text (tests and property tests). */
export function loadConfigText(text: string | Uint8Array, fileName: string, options: LoadOptions = {}): Result<DesiredState> {
  return loadConfigInputs([{ file: fileName, content: text }], options);
}

/** Reads, validates and normalizes the config files (SPEC section 1), in the order given. */
export async function loadConfig(files: string[], options: LoadOptions = {}): Promise<Result<DesiredState>> {
  const { inputs, problems } = await readConfigFiles(files, options.cwd);
  if (inputs.length === 0 && problems.length > 0) return { ok: false, errors: problems };
  const result = loadConfigInputs(inputs, options);
  if (problems.length === 0) return result;
  return { ok: false, errors: [...problems, ...(result.ok ? [] : result.errors)] };
}
