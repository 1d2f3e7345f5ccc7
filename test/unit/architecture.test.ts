// Keeps the layering of STYLE.md true by reading the import lines (and a few telling lines of
// code) of src/**. Each rule names the file that breaks it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { filesUnder, importsIn, isGenerated, layerOf, SRC, srcPath, withoutComments } from '../support/source-imports.js';

/** Top-level folder under src/ that each relative import of `file` lands in, plus bare imports. */
function importsOf(file: string): { layers: Set<string>; packages: Set<string> } {
  const layers = new Set<string>();
  const packages = new Set<string>();
  for (const ref of importsIn(file)) {
    if (ref.target !== undefined) layers.add(ref.target.split('/')[0]!);
    else packages.add(ref.spec);
  }
  return { layers, packages };
}

const codeOf = (file: string): string => withoutComments(readFileSync(file, 'utf8'));

/** A kind's executor handlers, or their registry (below src/: `kinds/service/handlers.ts`). */
const isKindHandlers = (path: string): boolean => /^kinds\/(.+\/)?handlers\.(ts|js)$/.test(path);

/** What a kind's plan part may use of the planner: the context it reads and the drafts it makes. */
const PLANNER_KIT = ['planner/context.js', 'planner/drafts.js'];

/** What a kind's handlers may use of the executor: the action's context, createOrAdopt, its errors, its port, the generic send. */
const EXECUTOR_KIT = ['executor/action-context.js', 'executor/reconcile.js', 'executor/errors.js', 'executor/ports.js', 'executor/send-operation.js'];

/** The layer kit files import: a kit never loads a kind (the registry imports the kinds, which import the kits). */
const KIT_FILES = [...PLANNER_KIT, ...EXECUTOR_KIT].map((f) => f.replace(/\.js$/, '.ts'));

describe('module boundaries (STYLE.md)', () => {
  const files = filesUnder(SRC);

  it('model imports nothing outside itself', () => {
    for (const f of files.filter((f) => layerOf(f) === 'model')) {
      const { layers, packages } = importsOf(f);
      expect([...layers].filter((l) => l !== 'model'), f).toEqual([]);
      expect([...packages], f).toEqual([]);
    }
  });

  it('planner is pure: imports only model and the pure parts of the kinds (and node:crypto for fingerprints)', () => {
    for (const f of files.filter((f) => layerOf(f) === 'planner')) {
      const { layers, packages } = importsOf(f);
      expect([...layers].filter((l) => l !== 'model' && l !== 'planner' && l !== 'kinds'), f).toEqual([]);
      expect([...packages].filter((p) => p !== 'node:crypto'), f).toEqual([]);
      expect(importsIn(f).filter((r) => r.target !== undefined && isKindHandlers(r.target)).map((r) => r.spec), `${f} imports a kind's executor handlers`).toEqual([]);
    }
  });

  // A kind folder is a part of each layer (its plan, its handlers) written against that layer's
  // kit; the layer's generic code reaches the kinds through the registry. A kit never imports a
  // kind's folder or the handlers (at most the pure registry, as generic code does), so no file
  // imports itself back, and a kind's plan part never loads the planner's engine.
  it("a layer's kit (what a kind's parts use of the planner and the executor) imports no kind's folder", () => {
    const REGISTRY = ['kinds/index.js', 'kinds/types.js'];
    for (const f of files.filter((f) => KIT_FILES.includes(srcPath(f)))) {
      const kinds = importsIn(f).filter((r) => r.target?.startsWith('kinds/') && !REGISTRY.includes(r.target));
      expect(kinds.map((r) => r.spec), `${f} imports a kind`).toEqual([]);
    }
    for (const f of files.filter((f) => PLANNER_KIT.map((k) => k.replace(/\.js$/, '.ts')).includes(srcPath(f)))) {
      expect([...importsOf(f).layers].filter((l) => l !== 'model' && l !== 'planner'), `${f}: the planner kit imports only model`).toEqual([]);
    }
  });

  // A kind's folder holds what the kind is for every layer. Its definition (fields, op rows, how it
  // plans, reads and exports) is pure, like the planner: model, other kinds' pure parts, and the
  // planner's kit for the drafts it plans. Only its executor handlers (handlers.ts) run I/O, and
  // they reach the API through the executor's port.
  it('the pure parts of a kind import only model, the pure parts of kinds and the planner kit', () => {
    for (const f of files.filter((f) => layerOf(f) === 'kinds' && !isKindHandlers(srcPath(f)))) {
      const { packages } = importsOf(f);
      const outside = importsIn(f)
        .map((r) => r.target)
        .filter((t): t is string => t !== undefined)
        .filter((t) => !(t.startsWith('model/') || (t.startsWith('kinds/') && !isKindHandlers(t)) || PLANNER_KIT.includes(t)));
      expect(outside, f).toEqual([]);
      expect([...packages], f).toEqual([]);
    }
  });

  it('emulator shares only the wire types with api', () => {
    for (const f of files.filter((f) => layerOf(f) === 'emulator')) {
      const apiImports = importsIn(f).filter((r) => r.target?.startsWith('api/'));
      expect(apiImports.map((r) => r.target).filter((t) => t !== 'api/dto.js'), f).toEqual([]);
      const { layers } = importsOf(f);
      expect([...layers].filter((l) => !['emulator', 'api', 'model', 'lockfile'].includes(l)), f).toEqual([]);
    }
  });

  // The state owns its document, its locks, claims, history and the working state of a run
  // (STYLE.md "State owns its state"); the engine depends on it through its own narrow port
  // (executor/ports.ts: StateBindings), never the reverse.
  it('the state port (src/state) depends on model and lockfile only (never the executor); nothing below cli knows a store', () => {
    for (const f of files.filter((f) => layerOf(f) === 'state')) {
      const { layers, packages } = importsOf(f);
      expect([...layers].filter((l) => !['state', 'model', 'lockfile'].includes(l)), f).toEqual([]);
      expect([...packages].filter((p) => !p.startsWith('node:') && p !== 'pg' && p !== 'pg-connection-string'), f).toEqual([]);
    }
    for (const f of files.filter((f) => ['model', 'planner', 'executor', 'api', 'config', 'lockfile', 'emulator'].includes(layerOf(f)))) {
      expect([...importsOf(f).layers].includes('state'), `${f} imports the state layer`).toBe(false);
      expect([...importsOf(f).packages].includes('pg'), `${f} imports pg`).toBe(false);
    }
  });

  // Which store holds the state is the state layer's business: code above it asks the port (a
  // method such as forceUnlock), never which class it holds.
  it('no store instanceof outside src/state', () => {
    for (const f of files.filter((f) => layerOf(f) !== 'state')) {
      const uses = codeOf(f).split('\n').filter((line) => /instanceof\s+(FileStateStore|PgStateStore)\b/.test(line));
      expect(uses.map((l) => l.trim()), `${f} asks which store it holds`).toEqual([]);
    }
  });

  // The policy engine (SPEC section 16) is a layer of its own that plan and apply call with plain
  // data: it reads its files and runs CEL, knows nothing of the API, the state or the executor,
  // and nothing but the use cases (and the CLI) call it. It reads a resource's fields through the
  // pure kind registry.
  it('policy imports only model, the kind registry and its libraries; only the use cases (and cli) import policy', () => {
    for (const f of files.filter((f) => layerOf(f) === 'policy')) {
      const { layers, packages } = importsOf(f);
      expect([...layers].filter((l) => l !== 'model' && l !== 'policy' && l !== 'kinds'), f).toEqual([]);
      expect(importsIn(f).filter((r) => r.target?.startsWith('kinds/') && r.target !== 'kinds/index.js').map((r) => r.spec), `${f}: only the registry`).toEqual([]);
      expect([...packages].filter((p) => !['@marcbachmann/cel-js', 'js-yaml', 'yaml', 'node:crypto', 'node:fs/promises', 'node:module'].includes(p)), f).toEqual([]);
    }
    for (const f of files.filter((f) => !['policy', 'cli', 'app'].includes(layerOf(f)))) {
      expect([...importsOf(f).layers].includes('policy'), `${f} imports the policy layer`).toBe(false);
    }
  });

  // `dbform fmt` rewrites a config's text in canonical form: it needs the config's schema (for the
  // key order) and the `yaml` package's concrete syntax tree, never the config reader, the API or
  // the state; only the CLI's fmt command calls it.
  it('fmt imports only the config schema and yaml; only the cli imports fmt', () => {
    for (const f of files.filter((f) => layerOf(f) === 'fmt')) {
      expect(importsIn(f).flatMap((r) => (r.target === undefined || r.target.startsWith('fmt/') ? [] : [r.target])), f).toEqual(['config/schema.js']);
      expect([...importsOf(f).packages].filter((p) => !['yaml', 'node:util'].includes(p)), f).toEqual([]);
    }
    for (const f of files.filter((f) => !['fmt', 'cli'].includes(layerOf(f)))) {
      expect([...importsOf(f).layers].includes('fmt'), `${f} imports fmt`).toBe(false);
    }
  });

  // The use cases (src/app) run every command's pipeline: they use every layer below them and
  // are used only by the CLI, which parses flags, calls one and renders what it returns. `dbform
  // mcp` needs none: each tool runs the built CLI as a child (src/mcp/tools.ts builds its command
  // line), so a tool goes through the very use case the command does; only the CLI's mcp command
  // opens the state through the app's state choice, to record each call in the history.
  it('src/app is used only by cli (not by mcp), and uses neither cli, mcp nor the emulator', () => {
    for (const f of files.filter((f) => layerOf(f) === 'app')) {
      const { layers, packages } = importsOf(f);
      expect([...layers].filter((l) => l === 'cli' || l === 'mcp' || l === 'emulator'), `${f} reaches up into the CLI, mcp or the emulator`).toEqual([]);
      expect(packages.has('kleur') || packages.has('commander'), `${f} imports kleur or commander`).toBe(false);
    }
    for (const f of files.filter((f) => !['app', 'cli'].includes(layerOf(f)))) {
      expect([...importsOf(f).layers].includes('app'), `${f} imports a use case`).toBe(false);
    }
  });

  // Live state is read and planned in one function that every command uses (issue 22): each
  // command's own copy of "read live state, then plan" is what let checks be missed. The config is
  // loaded by the use cases' context alone, and by validate, which is about the config only.
  // Outside its homes a name is not even mentioned (an alias or a function passed along would be
  // a call by another name); its layer's index may re-export it.
  const CALLED_ONLY_FROM: Array<[string, string[]]> = [
    ['fetchLiveState', ['api/live-state.ts', 'app/pipeline.ts']],
    ['planChanges', ['planner/plan-changes.ts', 'app/pipeline.ts']],
    ['loadConfig', ['config/load-config.ts', 'app/context.ts', 'cli/commands/validate.ts']],
  ];
  it.each(CALLED_ONLY_FROM)('%s is used only in %j', (name, homes) => {
    const named = new RegExp(`\\b${name}\\b`);
    const reExport = /^export \{[^}]*\} from '[^']+';$/;
    const places = files
      .filter((f) => !isGenerated(f) && !homes.includes(srcPath(f)))
      .filter((f) => codeOf(f).split('\n').some((line) => named.test(line) && !reExport.test(line.trim())))
      .map(srcPath);
    expect(places).toEqual([]);
  });

  it('only cli touches process exit codes, stdout and colours', () => {
    for (const f of files.filter((f) => layerOf(f) !== 'cli' && layerOf(f) !== 'emulator')) {
      const text = readFileSync(f, 'utf8');
      expect(/process\.(exit|stdout)|console\.log/.test(text), `${f} writes to stdout or exits`).toBe(false);
      expect(importsOf(f).packages.has('kleur'), `${f} imports kleur`).toBe(false);
    }
  });

  // The engine is tested and reused with other clients and pollers (a fake API in unit tests, the
  // emulator, the real service): everything it needs from the API comes through one port file.
  // The wire DTO types stay reachable, but only as types and only through that file; the errors it
  // classifies (ApiError, WaitTimeoutError...) are model types.
  it('the executor reaches the API only through its port (src/executor/ports.ts)', () => {
    for (const f of files.filter((f) => layerOf(f) === 'executor')) {
      const apiImports = importsIn(f).filter((r) => r.target?.startsWith('api/'));
      if (srcPath(f) === 'executor/ports.ts') {
        expect(apiImports.filter((r) => !(r.typeOnly && r.target === 'api/dto.js')).map((r) => r.spec), `${f} may import only the DTO types`).toEqual([]);
      } else {
        expect(apiImports.map((r) => r.spec), `${f} imports the API layer; go through ./ports.js`).toEqual([]);
      }
    }
  });

  // What a command needs from its process (environment, pid, streams, cwd, argv, exit codes) is
  // read by the CLI and passed in, so every layer below it runs the same in a test, a library
  // call or a child process. The emulator is a library too: `dbform emulator` (a CLI command)
  // reads the flags and the signals and hands startEmulator() plain options, so it gets no
  // exception.
  it('no code outside src/cli touches `process`', () => {
    for (const f of files.filter((f) => layerOf(f) !== 'cli')) {
      const code = codeOf(f);
      const uses = code.split('\n').filter((line) => /(?<![\w$.\-/])process\s*[.[]|globalThis\.process\b/.test(line));
      expect(uses.map((l) => l.trim()), `${f} touches process`).toEqual([]);
      const processModule = importsIn(f).filter((r) => r.spec === 'process' || r.spec === 'node:process');
      expect(processModule.map((r) => r.spec), `${f} imports the process module`).toEqual([]);
    }
  });

  // Within the CLI the process is asked for through cli/process.ts alone (cliProcess(): the real
  // one, or a test's in-process run's), so a run inside a test's process sees its own arguments,
  // environment, directory, streams, exit code and signals, and never the test's.
  it('in src/cli only process.ts touches `process`; the rest asks cliProcess()', () => {
    for (const f of files.filter((f) => layerOf(f) === 'cli' && srcPath(f) !== 'cli/process.ts')) {
      const uses = codeOf(f)
        .split('\n')
        .filter((line) => /(?<![\w$.\-/])process\s*[.[]|globalThis\.process\b/.test(line));
      expect(uses.map((l) => l.trim()), `${f} touches process`).toEqual([]);
      const processModule = importsIn(f).filter((r) => r.spec === 'process' || r.spec === 'node:process');
      expect(processModule.map((r) => r.spec), `${f} imports the process module`).toEqual([]);
    }
  });

  // Pure helpers that several layers need are written once, in src/model. Each entry is a telling
  // piece of one helper's implementation; it may appear only in the helper's home.
  const SHARED_HELPERS = [
    { what: 'CIDR arithmetic (parse, overlap)', home: 'model/cidr.ts', code: /2 \*\* \(32|<< 24|0xffffffff|\(\\d\{1,3\}\)\\\./ },
    { what: 'the region-code patterns', home: 'model/api-values.ts', code: /\[a-z\]\{2/ },
    { what: 'the table of service sizes', home: 'model/sizes.ts', code: /cpuMillis:\s*\d+\s*,\s*memoryGbs:\s*\d+/ },
    { what: 'RFC 3339 parsing', home: 'model/rfc3339.ts', code: /\\d\{4\}-\\d\{2\}|\[0-9\]\{4\}-\[0-9\]\{2\}|isLeapYear/ },
    { what: 'pgpass line reading and writing', home: 'model/pgpass-line.ts', code: /\[\\\\:\]|c === ':'/ },
  ];
  it.each(SHARED_HELPERS.map((h) => [h.what, h.home, h.code] as const))('%s lives once, in src/%s', (_what, home, code) => {
    const places = files.filter((f) => !isGenerated(f) && code.test(codeOf(f))).map(srcPath);
    expect(places).toEqual([home]);
  });

  // A kind's handlers run the kind's ops for the executor: through its kit and its port, like the
  // executor's own code; never the API layer, never the engine that dispatches to them.
  it("a kind's handlers import only model, kinds, lockfile and the executor's kit", () => {
    for (const f of files.filter((f) => layerOf(f) === 'kinds' && isKindHandlers(srcPath(f)))) {
      const outside = importsIn(f)
        .map((r) => r.target)
        .filter((t): t is string => t !== undefined)
        .filter((t) => !(t.startsWith('model/') || t.startsWith('kinds/') || t.startsWith('lockfile/') || EXECUTOR_KIT.includes(t)));
      expect(outside, f).toEqual([]);
      expect([...importsOf(f).packages].filter((p) => !p.startsWith('node:')), f).toEqual([]);
    }
  });

  // The handlers run I/O: only the executor loads them (the registry of pure definitions, which
  // the planner, config, API reader and export import, never does).
  it('only the executor and the kinds import the handlers', () => {
    for (const f of files.filter((f) => layerOf(f) !== 'executor' && layerOf(f) !== 'kinds')) {
      const handlers = importsIn(f).filter((r) => r.target !== undefined && isKindHandlers(r.target));
      expect(handlers.map((r) => r.spec), `${f} imports a kind's handlers`).toEqual([]);
    }
  });

  // SPEC section 8 (revised in turn 3): memory is bought with smaller data, not with V8's settings.
  it('dbform sets no V8 flag (node:v8 setFlagsFromString, --expose-gc, heap sizes)', () => {
    const flags = files.filter((f) => /setFlagsFromString|--expose-gc|--max-old-space|--max-semi-space|--liftoff|runInNewContext\(\s*['"]gc/.test(codeOf(f))).map(srcPath);
    expect(flags).toEqual([]);
  });

  // export is the newest consumer of every layer; it uses their public surface, so that what a
  // layer keeps to itself can change without breaking it.
  it('export reaches other layers only through their index files', () => {
    for (const f of files.filter((f) => layerOf(f) === 'export')) {
      const deep = importsIn(f).filter((r) => r.target !== undefined && !r.target.startsWith('export/') && !/^[a-z]+\/index\.js$/.test(r.target));
      expect(deep.map((r) => r.spec), `${f} imports past an index file`).toEqual([]);
    }
  });
});
