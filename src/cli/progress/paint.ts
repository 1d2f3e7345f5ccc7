import kleur from 'kleur';
import { forced } from '../render/palette.js';

/** The few colours progress output uses; identity functions when colour is off. */
export interface Paint {
  green(s: string): string;
  red(s: string): string;
  yellow(s: string): string;
  dim(s: string): string;
  bold(s: string): string;
}

/**
 * Whether kleur, left to itself, would colour: it decides once, when it is loaded, from the
 * environment and whether stdout is a terminal. Progress lines have always passed that gate too
 * (TERM=dumb or NODE_DISABLE_COLORS keep them plain though colour is on); asked of the run's own
 * environment and stdout, an in-process run does not take the test process's answer.
 */
export function kleurWouldColour(env: NodeJS.ProcessEnv, stdout: { isTTY?: boolean }): boolean {
  const { FORCE_COLOR, NODE_DISABLE_COLORS, NO_COLOR, TERM } = env;
  return !NODE_DISABLE_COLORS && NO_COLOR == null && TERM !== 'dumb' && ((FORCE_COLOR != null && FORCE_COLOR !== '0') || Boolean(stdout.isTTY));
}

export function createPaint(enabled: boolean): Paint {
  if (!enabled) {
    const id = (s: string) => s;
    return { green: id, red: id, yellow: id, dim: id, bold: id };
  }
  return { green: forced(kleur.green), red: forced(kleur.red), yellow: forced(kleur.yellow), dim: forced(kleur.dim), bold: forced(kleur.bold) };
}
