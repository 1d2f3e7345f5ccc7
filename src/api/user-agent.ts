import { readFileSync } from 'node:fs';

let cached: string | undefined;

/** `dbform/<version>`, the version read once from the package.json beside dist/ (or src/). */
export function defaultUserAgent(): string {
  if (cached === undefined) {
    try {
      const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
      cached = `dbform/${pkg.version ?? 'unknown'}`;
    } catch {
      cached = 'dbform/unknown';
    }
  }
  return cached;
}
