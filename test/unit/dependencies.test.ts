// package.json says what dbform needs at run time, and nothing more: every runtime dependency is
// imported by the code under src/ that the CLI runs, and a package only the build or the tests use
// is a devDependency (an install of dbform does not fetch it).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { filesUnder, importsIn, isBuiltin, packageOf, ROOT, SRC, srcPath } from '../support/source-imports.js';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };

/**
 * Modules under src/ that only the build runs (`npm run schema`) and the tests that compare its
 * output: they may use devDependencies, and no runtime module may import them.
 */
const BUILD_TIME = new Set(['codegen/validators.ts']);

/**
 * Runtime dependencies that no code imports yet, each with the issue that will. Remove the entry
 * when that code lands: the test then checks the import.
 */
const NOT_YET_IMPORTED: Record<string, string> = {};

const files = filesUnder(SRC);
const runtimeFiles = files.filter((f) => !BUILD_TIME.has(srcPath(f)));

/** Packages a set of files loads when it runs (type-only imports are erased by the compiler). */
function packagesLoadedBy(list: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const f of list) {
    for (const ref of importsIn(f)) {
      if (ref.target !== undefined || ref.typeOnly || isBuiltin(ref.spec)) continue;
      const name = packageOf(ref.spec);
      out.set(name, [...(out.get(name) ?? []), srcPath(f)]);
    }
  }
  return out;
}

describe('dependencies (package.json)', () => {
  it('every runtime dependency is imported by runtime code, or waits for a named issue', () => {
    const loaded = packagesLoadedBy(runtimeFiles);
    const unused = Object.keys(pkg.dependencies).filter((name) => !loaded.has(name) && !(name in NOT_YET_IMPORTED));
    expect(unused, 'runtime dependencies no runtime module imports: move them to devDependencies or remove them').toEqual([]);
    const nowImported = Object.keys(NOT_YET_IMPORTED).filter((name) => loaded.has(name));
    expect(nowImported, 'imported now: remove their NOT_YET_IMPORTED entries').toEqual([]);
    for (const name of Object.keys(NOT_YET_IMPORTED)) expect(pkg.dependencies, `${name} is allowed only as a runtime dependency`).toHaveProperty([name]);
  });

  it('every package runtime code imports is a runtime dependency', () => {
    const missing = [...packagesLoadedBy(runtimeFiles)].filter(([name]) => !(name in pkg.dependencies)).map(([name, by]) => `${name} (${by.join(', ')})`);
    expect(missing).toEqual([]);
  });

  it('build-time modules use declared packages, and nothing under src/ imports them', () => {
    for (const [name, by] of packagesLoadedBy(files.filter((f) => BUILD_TIME.has(srcPath(f))))) {
      expect(name in pkg.dependencies || name in pkg.devDependencies, `${name} (${by.join(', ')}) is not in package.json`).toBe(true);
    }
    const importers = files.filter((f) => importsIn(f).some((r) => r.target !== undefined && BUILD_TIME.has(r.target.replace(/\.js$/, '.ts'))));
    expect(importers.map(srcPath)).toEqual([]);
  });

  it('a type-only import names a declared package', () => {
    for (const f of files) {
      for (const ref of importsIn(f).filter((r) => r.typeOnly && r.target === undefined && !isBuiltin(r.spec))) {
        const name = packageOf(ref.spec);
        expect(name in pkg.dependencies || name in pkg.devDependencies, `${srcPath(f)}: ${name}`).toBe(true);
      }
    }
  });
});
