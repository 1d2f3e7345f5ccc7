// What both YAML readers must agree on: how deep collections may nest, and how a plain scalar
// resolves under the YAML 1.2 core schema (as the `yaml` package resolves it with schema 'core').

/**
 * Collections nested deeper than this are refused (a config needs fewer than ten levels): the
 * `yaml` package recurses when it composes, and a file of 20,000 `[` must get a diagnostic, not
 * a stack overflow.
 */
export const MAX_NESTING = 100;

/** The only words (a letter first) the core schema does not read as strings. */
const WORDS = new Map<string, null | boolean>([
  ['null', null], ['Null', null], ['NULL', null],
  ['true', true], ['True', true], ['TRUE', true],
  ['false', false], ['False', false], ['FALSE', false],
]);

/** YAML 1.2 core schema, in the order the `yaml` package tries it. */
export function resolvePlain(s: string): unknown {
  // Most keys and values are words: a letter starts a string, unless it is null, true or false.
  const c = s.charCodeAt(0) | 32;
  if (c >= 97 && c <= 122) {
    const word = WORDS.get(s);
    return word === undefined ? s : word;
  }
  if (/^(?:~|[Nn]ull|NULL)?$/.test(s)) return null;
  if (/^(?:[Tt]rue|TRUE)$/.test(s)) return true;
  if (/^(?:[Ff]alse|FALSE)$/.test(s)) return false;
  if (/^0o[0-7]+$/.test(s)) return parseInt(s.substring(2), 8);
  if (/^[-+]?[0-9]+$/.test(s)) return parseInt(s, 10);
  if (/^0x[0-9a-fA-F]+$/.test(s)) return parseInt(s.substring(2), 16);
  if (/^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/.test(s)) {
    return s.slice(-3).toLowerCase() === 'nan' ? NaN : s[0] === '-' ? -Infinity : Infinity;
  }
  if (/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/.test(s) || /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/.test(s)) return parseFloat(s);
  return s;
}
