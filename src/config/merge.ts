// Several `-f` files make one config: their `vpcs` and `services` maps and `moved` lists merge;
// a key defined in two files is an error naming both places; all files target one project.
import type { Diagnostic, SourceRef } from '../model/diagnostics.js';
import { UNRESOLVED } from './interpolate.js';
import type { Locator, PathSeg, Target } from './positions.js';
import { formatPath } from './paths.js';

/** Where something sits: which file, and its path in that file's data. */
export interface Origin {
  file: string;
  locator: Locator;
  path: PathSeg[];
}

/** A VPC, service or `moved` item (its value is `{}` when it is not a mapping: a schema error). */
export interface Entry {
  key: string;
  origin: Origin;
  value: Record<string, unknown>;
}

export interface MergedConfig {
  projectId?: string;
  /** The top-level `state:` (where the state lives), with where it is written. */
  state?: { value: string; origin: Origin };
  vpcs: Entry[];
  services: Entry[];
  moved: Entry[];
  files: string[];
}

/** One file after parsing and interpolation (its data may still break the schema). */
export interface LoadedFile {
  file: string;
  locator: Locator;
  data: unknown;
}

export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What a lazy source looks its position up from, under a key no spread, JSON or key listing sees. */
const WHERE = Symbol('where');

interface Where {
  origin: Origin;
  sub: readonly PathSeg[];
  target: Target;
  found?: SourceRef;
}

const positionOf = (ref: object): SourceRef => {
  const w = (ref as { [WHERE]: Where })[WHERE];
  return (w.found ??= w.origin.locator.at([...w.origin.path, ...w.sub], w.target));
};

// One pair of getters for every source: 30,000 sources of a large config held two closures each.
const LAZY_POSITION: PropertyDescriptorMap = {
  line: {
    enumerable: true,
    configurable: true,
    get(this: object) {
      return positionOf(this).line;
    },
  },
  col: {
    enumerable: true,
    configurable: true,
    get(this: object) {
      return positionOf(this).col;
    },
  },
};

/** No path below the origin: one array for every source that needs none (each resource's). */
export const AT_ORIGIN: readonly PathSeg[] = [];

/**
 * Where `sub` below `origin` is written. Its line and column are looked up when first read: every
 * resource of the desired state carries one, and only a diagnostic reads it (positions.ts).
 */
export function sourceOf(origin: Origin, sub: readonly PathSeg[] = AT_ORIGIN, target: Target = 'value'): SourceRef {
  const ref = { file: origin.file };
  Object.defineProperty(ref, WHERE, { value: { origin, sub, target } satisfies Where });
  return Object.defineProperties(ref, LAZY_POSITION) as SourceRef;
}

export const describeSource = (s: SourceRef): string => `${s.file}:${s.line}:${s.col}`;

/** A diagnostic at `sub` below `origin`, carrying the dotted path. */
export function diagnosticAt(
  origin: Origin,
  sub: readonly PathSeg[],
  message: string,
  code: string,
  options: { target?: Target; severity?: 'error' | 'warning' } = {},
): Diagnostic {
  const path = [...origin.path, ...sub];
  return {
    severity: options.severity ?? 'error',
    message,
    path: formatPath(path),
    source: origin.locator.at(path, options.target ?? 'value'),
    code,
  };
}

function mergeMap(section: 'vpcs' | 'services', file: LoadedFile, into: Entry[], seen: Map<string, Origin>, errors: Diagnostic[]): void {
  const map = (file.data as Record<string, unknown>)[section];
  if (!isRecord(map)) return;
  for (const key of Object.keys(map)) {
    const value = map[key];
    const origin: Origin = { file: file.file, locator: file.locator, path: [section, key] };
    const first = seen.get(key);
    if (first) {
      const message = `${section}.${key} is defined twice: first at ${describeSource(sourceOf(first, [], 'key'))}; define each key in one file only`;
      errors.push(diagnosticAt(origin, [], message, 'duplicate-definition', { target: 'key' }));
      continue;
    }
    seen.set(key, origin);
    // A key whose value is not a mapping is a schema error; it still exists for references.
    into.push({ key, origin, value: isRecord(value) ? value : {} });
  }
}

function checkAgreement(field: 'project_id' | 'version' | 'state', files: readonly LoadedFile[], errors: Diagnostic[]): { value: unknown; origin: Origin } | undefined {
  let agreed: { value: unknown; origin: Origin } | undefined;
  for (const file of files) {
    const data = file.data as Record<string, unknown>;
    if (!(field in data) || data[field] === UNRESOLVED) continue;
    const origin: Origin = { file: file.file, locator: file.locator, path: [] };
    if (!agreed) agreed = { value: data[field], origin };
    else if (data[field] !== agreed.value) {
      const there = describeSource(sourceOf(agreed.origin, [field]));
      const message =
        field === 'state'
          ? `state differs from the one at ${there}; all files must keep their state in one place`
          : `${field} ${JSON.stringify(data[field])} differs from ${JSON.stringify(agreed.value)} at ${there}; all files must target one project with one format version`;
      errors.push(diagnosticAt(origin, [field], message, 'files-disagree'));
    }
  }
  return agreed;
}

export function mergeFiles(files: readonly LoadedFile[]): { config: MergedConfig; errors: Diagnostic[] } {
  const errors: Diagnostic[] = [];
  const usable = files.filter((f) => isRecord(f.data));
  const projectId = checkAgreement('project_id', usable, errors)?.value;
  checkAgreement('version', usable, errors);
  const state = checkAgreement('state', usable, errors);
  const config: MergedConfig = {
    projectId: typeof projectId === 'string' ? projectId : undefined,
    ...(state && typeof state.value === 'string' ? { state: { value: state.value, origin: state.origin } } : {}),
    vpcs: [],
    services: [],
    moved: [],
    files: files.map((f) => f.file),
  };
  const seenVpcs = new Map<string, Origin>();
  const seenServices = new Map<string, Origin>();
  for (const file of usable) {
    mergeMap('vpcs', file, config.vpcs, seenVpcs, errors);
    mergeMap('services', file, config.services, seenServices, errors);
    const moved = (file.data as Record<string, unknown>).moved;
    if (Array.isArray(moved)) {
      moved.forEach((value, i) => {
        if (isRecord(value)) config.moved.push({ key: String(i), origin: { file: file.file, locator: file.locator, path: ['moved', i] }, value });
      });
    }
  }
  return { config, errors };
}
