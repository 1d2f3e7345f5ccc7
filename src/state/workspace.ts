// Workspaces (SPEC section 10): one state per (project, workspace).
import { DbformError } from '../model/index.js';

export const DEFAULT_WORKSPACE = 'default';
const PATTERN = /^[a-z0-9][a-z0-9-]{0,62}$/;

export function isValidWorkspace(name: string): boolean {
  return PATTERN.test(name);
}

/** `--workspace`, else DBFORM_WORKSPACE, else `default`; a bad name is one line saying where it came from. */
export function resolveWorkspace(flag: string | undefined, env: Record<string, string | undefined>): string {
  const [name, source] = flag !== undefined ? [flag, '--workspace'] : env.DBFORM_WORKSPACE ? [env.DBFORM_WORKSPACE, 'DBFORM_WORKSPACE'] : [DEFAULT_WORKSPACE, ''];
  checkWorkspaceName(name, source);
  return name;
}

export function checkWorkspaceName(name: string, source = 'workspace'): void {
  if (!isValidWorkspace(name)) {
    throw new DbformError(
      `${source} ${JSON.stringify(name)} is not a valid workspace name: use 1-63 lowercase letters, digits and '-', starting with a letter or digit`,
    );
  }
}
