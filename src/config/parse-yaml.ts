// Text -> plain data with a locator for positions. A file js-yaml reads without a problem costs
// one read (read-yaml.ts); any other is read again here, event by event, so that every YAML
// problem (syntax, tabs, duplicate keys, unknown aliases, alias bombs) becomes a positioned
// diagnostic, and the rest of the file is still read for the schema and the rules.
import { constructFromEvents, EVENT_ID, parseEvents, type Event } from 'js-yaml';
import type { Diagnostic } from '../model/diagnostics.js';
import { noSuspects, type Suspects } from './follow-ons.js';
import { EventLocator, MAX_NESTING, type Locator } from './positions.js';
import { expandedSize, expansionLimit, MAX_ALIAS_COUNT, readYaml, SCHEMA } from './read-yaml.js';
import { checkStructure } from './yaml-structure.js';
import { explainSyntaxError, explainYamlError, type SyntaxProblem } from './yaml-syntax.js';

export type ParsedYaml =
  | {
      ok: true;
      data: unknown;
      locator: Locator;
      empty: boolean;
      /** Containers may be reached twice (YAML aliases), so never update them in place. */
      shared: boolean;
      /** Problems of a well-formed document (duplicate keys...); `data` leaves out what they make unclear. */
      errors: Diagnostic[];
      suspects: Suspects;
    }
  | { ok: false; errors: Diagnostic[] };

export function parseYamlText(text: string, file: string): ParsedYaml {
  const read = readYaml(text);
  if (read) return { ok: true, data: read.data, locator: new EventLocator(file, text), empty: false, shared: read.shared, errors: [], suspects: noSuspects() };
  return diagnoseYaml(text, file);
}

const parse = (text: string): Event[] => parseEvents(text, { maxDepth: MAX_NESTING });

/** Where the second document starts: its `---`, or its first node after a `...`. */
function secondDocument(text: string, events: readonly Event[]): number {
  const second = events.findIndex((e, i) => i > 0 && e.type === EVENT_ID.DOCUMENT);
  const next = events.slice(second).find((e) => e.type !== EVENT_ID.DOCUMENT && e.type !== EVENT_ID.POP);
  const at = !next ? text.length : 'start' in next ? next.start : next.type === EVENT_ID.SCALAR && next.valueStart >= 0 ? next.valueStart : next.anchorStart;
  const marker = Math.max(text.lastIndexOf('\n---', at - 1), text.startsWith('---') ? -1 : -2);
  const end = text.lastIndexOf('\n...', at - 1);
  return marker >= -1 && marker > end ? marker + 1 : at;
}

/** A file read event by event, each problem at its place. */
function diagnoseYaml(text: string, file: string): ParsedYaml {
  const locator = new EventLocator(file, text);
  const errors: Diagnostic[] = [];
  const fail = (...problems: SyntaxProblem[]): ParsedYaml => ({
    ok: false,
    errors: [...errors, ...problems.map((p): Diagnostic => ({ severity: 'error', message: p.message, source: locator.position(p.offset), code: p.code }))],
  });
  let events: Event[];
  try {
    events = parse(text);
  } catch (err) {
    return fail(...explainSyntaxError(text, err, parse));
  }
  if (events.filter((e) => e.type === EVENT_ID.DOCUMENT).length > 1) {
    const message = 'the file holds more than one YAML document (separated by ---); dbform reads one document per file';
    return fail({ offset: secondDocument(text, events), message, code: 'yaml-syntax' });
  }
  const structure = checkStructure(text, events, locator);
  errors.push(...structure.errors);
  const limit = expansionLimit(text);
  let documents: unknown[] | undefined;
  try {
    documents = constructFromEvents(structure.events, { source: text, schema: SCHEMA, json: true, maxTotalMergeKeys: limit });
  } catch (err) {
    // A merge that copies more keys than the file could write is an alias bomb too.
    if (!/maxTotalMergeKeys/.test((err as Error).message)) return fail(explainYamlError(text, err));
  }
  if (!documents || expandedSize(documents[0], limit) > limit) {
    const message = `too many alias expansions (more than ${MAX_ALIAS_COUNT}); anchors that nest aliases multiply, simplify them`;
    return fail({ offset: structure.firstAlias ?? 0, message, code: 'yaml-alias' });
  }
  const { suspects } = structure;
  return { ok: true, data: documents[0] ?? null, locator: new EventLocator(file, text, structure.events), empty: documents.length === 0, shared: true, errors, suspects };
}
