// The pure part of export (everything under src/export/ but the run-* readers/writers and the
// schema path lookup) imports only model, the kind registry and the planner, through their index
// files: no I/O, no API, no terminal. The command files load the heavy modules lazily.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const EXPORT = join(import.meta.dirname, '..', '..', '..', 'src', 'export');
const COMMANDS = join(import.meta.dirname, '..', '..', '..', 'src', 'cli', 'commands');
const IMPURE = new Set(['run-export.ts', 'run-import.ts', 'schema-ref.ts']);

const importsOf = (file: string) => [...readFileSync(file, 'utf8').matchAll(/^import[^'"]*?from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]!);

describe('export boundaries', () => {
  it('keeps the pure modules pure', () => {
    const files = readdirSync(EXPORT).filter((f) => f.endsWith('.ts') && !IMPURE.has(f));
    expect(files.length).toBeGreaterThan(5);
    for (const f of files) {
      for (const spec of importsOf(join(EXPORT, f))) {
        const ok = spec.startsWith('./') || spec === '../model/index.js' || spec === '../kinds/index.js' || spec === '../planner/index.js';
        expect(ok, `${f} imports ${spec}`).toBe(true);
      }
    }
  });

  it('never prints or exits from src/export', () => {
    for (const f of readdirSync(EXPORT).filter((x) => x.endsWith('.ts'))) {
      expect(/process\.(exit|stdout|stderr)|console\./.test(readFileSync(join(EXPORT, f), 'utf8')), f).toBe(false);
    }
  });

  it('keeps the export and import commands light at start-up (static imports: commander, types, tiny helpers)', () => {
    for (const f of ['export.ts', 'import.ts']) {
      const text = readFileSync(join(COMMANDS, f), 'utf8');
      const statics = [...text.matchAll(/^import (?!type )[^'"]*?from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]);
      // model/address.ts: the kinds' names for the help texts (it imports nothing). process.ts: the
      // run's process (node:async_hooks and model/run-directory.ts, which imports nothing).
      const light = ['commander', '../errors.js', '../options.js', '../process.js', '../../model/errors.js', '../../model/address.js'];
      expect(statics.every((s) => light.includes(s!)), `${f}: ${statics.join(', ')}`).toBe(true);
    }
  });
});
