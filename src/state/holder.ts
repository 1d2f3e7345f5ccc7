// Who holds a state lock, or ran an apply: enough for a person to find the run and ask about it.
import { userInfo } from 'node:os';
import type { LocalProcess } from '../model/index.js';

export interface LockHolderInfo {
  pid: number;
  host: string;
  user: string;
  command: string;
  /** ISO 8601. */
  startedAt: string;
  /** URL of the CI run, when the process runs in GitHub Actions or GitLab CI. */
  ciRun: string | null;
}

/** GitHub Actions' run URL from its three variables, else GitLab's CI_JOB_URL, else null. */
export function ciRunOf(env: Record<string, string | undefined>): string | null {
  const { GITHUB_RUN_ID: id, GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repo } = env;
  if (id && server && repo) return `${server.replace(/\/+$/, '')}/${repo}/actions/runs/${id}`;
  if (env.CI_JOB_URL) return env.CI_JOB_URL;
  return null;
}

function currentUser(env: Record<string, string | undefined>): string {
  try {
    return userInfo().username;
  } catch {
    // No passwd entry for the uid (some containers).
    return env.USER ?? env.LOGNAME ?? 'unknown';
  }
}

/** `self`: the process that takes the lock (its pid and host); `env`: where the user and CI run are read. */
export function describeHolder(self: Pick<LocalProcess, 'pid' | 'host'>, env: Record<string, string | undefined>, command: string, now: Date = new Date()): LockHolderInfo {
  return { pid: self.pid, host: self.host, user: currentUser(env), command, startedAt: now.toISOString(), ciRun: ciRunOf(env) };
}

/** "pid 123 on host (alice, dbform apply, started 2026-...; CI run URL)". */
export function formatHolder(h: LockHolderInfo): string {
  const ci = h.ciRun ? `; CI run ${h.ciRun}` : '';
  return `pid ${h.pid} on ${h.host} (${h.user}, ${h.command}, started ${h.startedAt}${ci})`;
}

export function holderToJson(h: LockHolderInfo): Record<string, unknown> {
  return { pid: h.pid, host: h.host, user: h.user, command: h.command, started_at: h.startedAt, ci_run: h.ciRun };
}
