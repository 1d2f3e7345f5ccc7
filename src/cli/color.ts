import { cliProcess } from './process.js';

/**
 * Whether to colour output, per SPEC section 3: --no-color and NO_COLOR turn it off,
 * FORCE_COLOR turns it on, otherwise only when the stream is a TTY.
 */
export function shouldUseColor(
  stream: { isTTY?: boolean },
  flagColor: boolean | undefined,
  env: NodeJS.ProcessEnv = cliProcess().env,
): boolean {
  if (flagColor === false) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  return stream.isTTY === true;
}
