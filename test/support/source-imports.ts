// Reads the source files under src/ as text, for the tests that keep the layering and the
// dependency list honest (test/unit/architecture.test.ts, test/unit/dependencies.test.ts).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');
export const SRC = join(ROOT, 'src');

export function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** Path below src/ with forward slashes: `executor/ports.ts`. */
export const srcPath = (file: string): string => relative(SRC, file).split(/[\\/]/).join('/');

/** Top-level folder under src/ of a file. */
export const layerOf = (file: string): string => srcPath(file).split('/')[0]!;

/** Machine-written code (ajv's standalone validators): exempt from the rules for hand-written code. */
export const isGenerated = (file: string): boolean => srcPath(file).split('/').includes('generated');

export interface ImportRef {
  /** As written: `../api/dto.js`, `node:fs`, `yaml`. */
  spec: string;
  /** For a relative import, the target below src/ (`api/dto.js`); undefined for a package. */
  target?: string;
  /** `import type` / `export type`: erased at compile time, loads nothing at run time. */
  typeOnly: boolean;
  dynamic: boolean;
}

// The last branch: a CommonJS file loaded through `const require = createRequire(import.meta.url)`.
const IMPORT = /(?:^|[\n;])\s*(import|export)\s+(type\s+)?[^'";]*?\bfrom\s+['"]([^'"]+)['"]|(?:^|[\n;])\s*import\s+['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)|\brequire\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Every import and re-export of a file, static and dynamic. */
export function importsIn(file: string): ImportRef[] {
  const text = withoutComments(readFileSync(file, 'utf8'));
  const out: ImportRef[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = (m[3] ?? m[4] ?? m[5] ?? m[6])!;
    const ref: ImportRef = { spec, typeOnly: m[2] !== undefined, dynamic: m[5] !== undefined };
    if (spec.startsWith('.')) ref.target = relative(SRC, join(file, '..', spec)).split(/[\\/]/).join('/');
    out.push(ref);
  }
  return out;
}

/** The package an import names: `ajv/dist/2020.js` -> `ajv`, `@types/pg` -> `@types/pg`. */
export function packageOf(spec: string): string {
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

export const isBuiltin = (spec: string): boolean => spec.startsWith('node:');

/**
 * The text with comments blanked out (strings, template literals and regular expressions kept),
 * so that a rule about code is not tripped by a comment that mentions, say, "the process".
 */
export function withoutComments(text: string): string {
  let out = '';
  let i = 0;
  let last = '';
  while (i < text.length) {
    const c = text[i]!;
    const next = text[i + 1];
    let end: number;
    if (c === '/' && next === '/') {
      end = text.indexOf('\n', i);
      end = end === -1 ? text.length : end;
      i = end;
      continue;
    }
    if (c === '/' && next === '*') {
      end = text.indexOf('*/', i + 2);
      end = end === -1 ? text.length : end + 2;
      out += text.slice(i, end).replace(/[^\n]/g, ' ');
      i = end;
      continue;
    }
    if (c === '"' || c === "'" || c === '`') end = skipQuoted(text, i, c);
    else if (c === '/' && startsRegex(out, last)) end = skipRegex(text, i);
    else end = i + 1;
    out += text.slice(i, end);
    if (!/\s/.test(c)) last = text[end - 1]!;
    i = end;
  }
  return out;
}

function skipQuoted(text: string, start: number, quote: string): number {
  let j = start + 1;
  while (j < text.length && text[j] !== quote) j += text[j] === '\\' ? 2 : 1;
  return j + 1;
}

function skipRegex(text: string, start: number): number {
  let j = start + 1;
  let inClass = false;
  while (j < text.length && text[j] !== '\n') {
    const ch = text[j]!;
    if (ch === '\\') j++;
    else if (ch === '[') inClass = true;
    else if (ch === ']') inClass = false;
    else if (ch === '/' && !inClass) return j + 1;
    j++;
  }
  return j;
}

/** Whether a `/` here begins a regular expression (not a division): after an operator or a keyword. */
function startsRegex(before: string, last: string): boolean {
  if (last === '' || '(,=:[!&|?{};+-*%<>~^'.includes(last)) return true;
  return /\b(return|typeof|case|of|in|void|yield|await)\s*$/.test(before);
}
