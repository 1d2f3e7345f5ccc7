// The only place that knows about colour. Enabled explicitly by the caller (shouldUseColor),
// never by kleur's own reading of the environment.
import kleur from 'kleur';
import type { ResourceVerb } from './plan-view.js';

export interface Palette {
  verb(verb: ResourceVerb, text: string): string;
  blocked(text: string): string;
  warning(text: string): string;
  error(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
}

export type Style = (s: string) => string;

/** `style` with kleur on whatever it decided when it was loaded (from the test process, in a test). */
export function forced(style: Style): Style {
  return (s) => {
    const previous = kleur.enabled;
    kleur.enabled = true;
    try {
      return style(s);
    } finally {
      kleur.enabled = previous;
    }
  };
}

const VERB_STYLE: Record<ResourceVerb, Style> = {
  create: kleur.green,
  update: kleur.yellow,
  replace: kleur.red,
  delete: kleur.red,
  adopt: kleur.cyan,
  move: kleur.cyan,
  protect: kleur.yellow,
  forget: kleur.cyan,
  retire: kleur.cyan,
};

export function createPalette(enabled: boolean): Palette {
  const plain: Style = (s) => s;
  const use = (style: Style): Style => (enabled ? forced(style) : plain);
  return {
    verb: (verb, text) => use(VERB_STYLE[verb])(text),
    blocked: use((s) => kleur.red().bold(s)),
    warning: use(kleur.yellow),
    error: use((s) => kleur.red().bold(s)),
    dim: use(kleur.dim),
    bold: use(kleur.bold),
  };
}
