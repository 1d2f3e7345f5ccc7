import kleur from 'kleur';

/** The few colours progress output uses; identity functions when colour is off. */
export interface Paint {
  green(s: string): string;
  red(s: string): string;
  yellow(s: string): string;
  dim(s: string): string;
  bold(s: string): string;
}

export function createPaint(enabled: boolean): Paint {
  if (!enabled) {
    const id = (s: string) => s;
    return { green: id, red: id, yellow: id, dim: id, bold: id };
  }
  const k = kleur;
  return {
    green: (s) => k.green(s),
    red: (s) => k.red(s),
    yellow: (s) => k.yellow(s),
    dim: (s) => k.dim(s),
    bold: (s) => k.bold(s),
  };
}
