// Which policy files a run uses, and the hash a saved plan records of them (SPEC section 16).
import { createHash } from 'node:crypto';
import type { PolicyFileInfo } from './load.js';

/**
 * The files named by DBFORM_POLICY (paths separated by `:`, empty parts ignored) and then by each
 * `--policy`, each once (the first mention keeps its place). Both count: a team sets its rules
 * in the environment of CI, and a `--policy` on the command line adds to them, never replaces
 * them (a guardrail a flag could drop would not be one).
 */
export function policyPaths(flags: readonly string[] | undefined, env: string | undefined): string[] {
  const all = [...(env ?? '').split(':'), ...(flags ?? [])].filter((p) => p !== '');
  return [...new Set(all)];
}

/**
 * `sha256:<hex>` over the policy files' bytes, the same whatever their paths and their order:
 * the sorted sha256 of each file, hashed again. A saved plan records it; apply compares it with
 * the files it is given, so the same rules pass wherever the files are checked out and however
 * the flags are ordered, and any edited byte (a comment included) makes another hash. Undefined
 * when there is no file: no policy is itself a setting that a plan made under policies is not.
 */
export function hashPolicies(files: readonly Pick<PolicyFileInfo, 'sha256'>[]): string | undefined {
  if (files.length === 0) return undefined;
  const digests = files.map((f) => f.sha256).sort();
  return `sha256:${createHash('sha256').update(digests.join('\n')).digest('hex')}`;
}
