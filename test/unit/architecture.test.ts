// Keeps the layering of STYLE.md true by reading the import lines of src/**.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', '..', 'src');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** Top-level folder under src/ that each relative import of `file` lands in, plus bare imports. */
function importsOf(file: string): { layers: Set<string>; packages: Set<string> } {
  const text = readFileSync(file, 'utf8');
  const layers = new Set<string>();
  const packages = new Set<string>();
  for (const m of text.matchAll(/(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)) {
    const spec = (m[1] ?? m[2])!;
    if (spec.startsWith('.')) {
      const target = relative(SRC, join(file, '..', spec));
      layers.add(target.split(/[\\/]/)[0]!);
    } else packages.add(spec);
  }
  return { layers, packages };
}

const layerOf = (file: string) => relative(SRC, file).split(/[\\/]/)[0]!;

describe('module boundaries (STYLE.md)', () => {
  const files = filesUnder(SRC);

  it('model imports nothing outside itself', () => {
    for (const f of files.filter((f) => layerOf(f) === 'model')) {
      const { layers, packages } = importsOf(f);
      expect([...layers].filter((l) => l !== 'model'), f).toEqual([]);
      expect([...packages], f).toEqual([]);
    }
  });

  it('planner is pure: imports only model (and node:crypto for fingerprints)', () => {
    for (const f of files.filter((f) => layerOf(f) === 'planner')) {
      const { layers, packages } = importsOf(f);
      expect([...layers].filter((l) => l !== 'model' && l !== 'planner'), f).toEqual([]);
      expect([...packages].filter((p) => p !== 'node:crypto'), f).toEqual([]);
    }
  });

  it('emulator shares only the wire types with api', () => {
    for (const f of files.filter((f) => layerOf(f) === 'emulator')) {
      const text = readFileSync(f, 'utf8');
      const apiImports = [...text.matchAll(/from\s+['"]([^'"]*\/api\/[^'"]*)['"]/g)].map((m) => m[1]);
      expect(apiImports.filter((s) => !s!.endsWith('/api/dto.js')), f).toEqual([]);
      const { layers } = importsOf(f);
      expect([...layers].filter((l) => !['emulator', 'api', 'model', 'lockfile'].includes(l)), f).toEqual([]);
    }
  });

  it('the state port (src/state) depends on model, lockfile and the apply lock only; nothing below cli knows a store', () => {
    for (const f of files.filter((f) => layerOf(f) === 'state')) {
      const { layers, packages } = importsOf(f);
      expect([...layers].filter((l) => !['state', 'model', 'lockfile', 'executor'].includes(l)), f).toEqual([]);
      expect([...packages].filter((p) => !p.startsWith('node:') && p !== 'pg' && p !== 'pg-connection-string'), f).toEqual([]);
    }
    for (const f of files.filter((f) => ['model', 'planner', 'executor', 'api', 'config', 'lockfile', 'emulator'].includes(layerOf(f)))) {
      expect([...importsOf(f).layers].includes('state'), `${f} imports the state layer`).toBe(false);
      expect([...importsOf(f).packages].includes('pg'), `${f} imports pg`).toBe(false);
    }
  });

  it('only cli touches process exit codes, stdout and colours', () => {
    for (const f of files.filter((f) => layerOf(f) !== 'cli' && layerOf(f) !== 'emulator')) {
      const text = readFileSync(f, 'utf8');
      expect(/process\.(exit|stdout)|console\.log/.test(text), `${f} writes to stdout or exits`).toBe(false);
      expect(importsOf(f).packages.has('kleur'), `${f} imports kleur`).toBe(false);
    }
  });
});
