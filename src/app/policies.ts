// The policies of a run (SPEC section 16): `--policy FILE` (repeatable) and DBFORM_POLICY, loaded
// once per run. The engine is loaded only when a policy is given (its CEL library costs a run
// without policies ~22 ms), and started before the live read so that loading and compiling hide
// behind the network (src/policy/index.ts).
import { DiagnosticsError } from '../model/index.js';
import type { Env } from './host.js';
import type { PolicyRun } from './pipeline.js';

/**
 * Starts loading the policies of `flags` and DBFORM_POLICY (read from the run's `cwd` when it is
 * not the process's own); the promise resolves undefined when there are none, and rejects with
 * every problem of the files at FILE:LINE:COL (exit 1).
 */
export function startPolicies(flags: readonly string[] | undefined, where: { env: Env; cwd?: string }, now: Date = new Date()): Promise<PolicyRun | undefined> {
  const env = where.env;
  const given = [...(env.DBFORM_POLICY ?? '').split(':'), ...(flags ?? [])].some((p) => p !== '');
  if (!given) return Promise.resolve(undefined);
  const loading = (async () => {
    const engine = await import('../policy/index.js');
    const loaded = await engine.loadPolicyFiles(engine.policyPaths(flags, env.DBFORM_POLICY), where.cwd);
    if (!loaded.ok) throw new DiagnosticsError(loaded.errors);
    return { set: loaded.value, hash: engine.hashPolicies(loaded.value.files), now, engine };
  })();
  // Awaited later (after the live read): until then a failure must not count as unhandled.
  loading.catch(() => undefined);
  return loading;
}
