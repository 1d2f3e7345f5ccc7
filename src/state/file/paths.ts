// Where the file store keeps each workspace: `dbform.lock.json` for `default`,
// `dbform.<workspace>.lock.json` beside it for the others (SPEC section 10).
import { basename, dirname, join } from 'node:path';
import { DEFAULT_WORKSPACE } from '../workspace.js';

function splitName(name: string): { stem: string; suffix: string } {
  for (const suffix of ['.lock.json', '.json']) {
    if (name.endsWith(suffix) && name.length > suffix.length) return { stem: name.slice(0, -suffix.length), suffix };
  }
  return { stem: name, suffix: '' };
}

/** The lockfile of `workspace`, given the default workspace's lockfile path. */
export function workspaceLockfilePath(defaultPath: string, workspace: string): string {
  if (workspace === DEFAULT_WORKSPACE) return defaultPath;
  const { stem, suffix } = splitName(basename(defaultPath));
  return join(dirname(defaultPath), `${stem}.${workspace}${suffix}`);
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The workspace whose lockfile `name` is (a file in the same directory), or undefined. */
export function workspaceOfFile(defaultPath: string, name: string): string | undefined {
  const base = basename(defaultPath);
  if (name === base) return DEFAULT_WORKSPACE;
  const { stem, suffix } = splitName(base);
  const m = new RegExp(`^${escape(stem)}\\.([a-z0-9][a-z0-9-]{0,62})${escape(suffix)}$`).exec(name);
  return m && m[1] !== DEFAULT_WORKSPACE ? m[1] : undefined;
}
