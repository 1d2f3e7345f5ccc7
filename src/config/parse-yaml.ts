// Text -> YAML document -> plain data, keeping the document for positions. YAML problems
// (syntax, tabs, duplicate keys, unknown aliases, alias bombs) become positioned diagnostics.
import type { Alias, Document, Node } from 'yaml';
import type { Diagnostic } from '../model/diagnostics.js';
import { noSuspects, type Suspects } from './follow-ons.js';
import { YamlLocator, type Locator } from './locate.js';
import { EventLocator } from './positions.js';
import { readYaml } from './read-yaml.js';
import { yamlLib } from './yaml-lib.js';
import { checkStructure } from './yaml-structure.js';
import { explainSyntaxErrors, MAX_NESTING, tooDeepMessage, yamlMessage } from './yaml-syntax.js';

/** Alias expansions allowed when building the data: generous for real files, fatal to alias bombs. */
export const MAX_ALIAS_COUNT = 10_000;

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

/** js-yaml reads the data (read-yaml.ts); what it leaves, the `yaml` package reads and words. */
export function parseYamlText(text: string, file: string): ParsedYaml {
  const read = readYaml(text);
  if (!read) return parseWithYamlPackage(text, file);
  return { ok: true, data: read.data, locator: new EventLocator(file, text), empty: false, shared: read.shared, errors: [], suspects: noSuspects() };
}

/** The `yaml` package's Document: worded syntax errors, duplicate keys and aliases, with positions. */
export function parseWithYamlPackage(text: string, file: string): ParsedYaml {
  const { LineCounter, parseDocument } = yamlLib();
  const lineCounter = new LineCounter();
  const parse = (source: string, counter?: InstanceType<typeof LineCounter>) =>
    parseDocument(source, {
      lineCounter: counter,
      // Duplicates are reported below with both positions; YAML 1.1 is refused so that `yes`,
      // `on` and unquoted timestamps stay strings, as in YAML 1.2.
      uniqueKeys: false,
      prettyErrors: false,
      merge: true,
      schema: 'core',
      version: '1.2',
    });
  const doc = parse(text, lineCounter);
  const locator = new YamlLocator(file, doc, lineCounter);
  const aliases = indexAliases(doc);
  locator.aliasTargets = aliases.targets;
  locator.recursiveAliases = aliases.recursive;
  const diag = (node: unknown, message: string, code: string): Diagnostic => ({
    severity: 'error',
    message,
    source: locator.positionOf(node),
    code,
  });
  const atOffset = (offset: number, message: string, code: string): Diagnostic => diag({ range: [offset] }, message, code);

  if (doc.errors.length > 0) {
    const problems = explainSyntaxErrors(text, doc.errors, (masked) => parse(masked).errors);
    return { ok: false, errors: problems.map((p) => atOffset(p.offset, p.message, p.code)) };
  }
  const warnings = doc.warnings.map((e) => atOffset(e.pos[0], yamlMessage(e.code, e.message), 'yaml-syntax'));
  if (warnings.length > 0) return { ok: false, errors: warnings };

  const deep = findTooDeep(doc.contents);
  if (deep) return { ok: false, errors: [diag(deep, tooDeepMessage(), 'yaml-too-deep')] };

  const structure = checkStructure(doc, locator, diag);

  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (err) {
    const message = /alias count/i.test((err as Error).message)
      ? `too many alias expansions (more than ${MAX_ALIAS_COUNT}); anchors that nest aliases multiply, simplify them`
      : err instanceof RangeError
        ? 'cannot expand the aliases of this file (they nest too deeply); write the values out instead'
        : `cannot read the YAML: ${oneLine((err as Error).message)}`;
    return { ok: false, errors: [...structure.errors, diag(aliases.first ?? doc.contents, message, 'yaml-alias')] };
  }
  return { ok: true, data, locator, empty: doc.contents === null, shared: true, errors: structure.errors, suspects: structure.suspects };
}

/** The first collection, in document order, nested deeper than MAX_NESTING (without recursing). */
function findTooDeep(root: unknown): Node | undefined {
  const { isMap, isPair, isSeq } = yamlLib();
  const stack: Array<[unknown, number]> = [[root, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (!isMap(node) && !isSeq(node)) continue;
    if (depth > MAX_NESTING) return node;
    for (let i = node.items.length - 1; i >= 0; i--) {
      const item = node.items[i];
      if (isPair(item)) stack.push([item.value, depth + 1], [item.key, depth + 1]);
      else stack.push([item, depth + 1]);
    }
  }
  return undefined;
}

const oneLine = (text: string): string => text.replace(/\s*\n\s*/g, ' ');

interface AliasIndex {
  targets: Map<Alias, Node | undefined>;
  /** Aliases inside the value of their own anchor (`&a [*a]`): expanding them never ends. */
  recursive: Set<Alias>;
  first?: Alias;
}

/**
 * Each alias's anchor (the last of that name defined before it), in one pass: the yaml package's
 * own Alias.resolve walks the whole document on every call, quadratic for a file of many aliases.
 * An alias can only loop through an anchor still open around it (every other anchor it can reach
 * was closed before it), so checking its ancestors finds every cycle; it is left without a target.
 */
function indexAliases(doc: Document): AliasIndex {
  const { isAlias, isNode, visit } = yamlLib();
  const anchors = new Map<string, Node>();
  const index: AliasIndex = { targets: new Map(), recursive: new Set() };
  visit(doc, (_key, node, ancestors) => {
    if (isAlias(node)) {
      index.first ??= node;
      const target = anchors.get(node.source);
      if (target !== undefined && ancestors.includes(target)) index.recursive.add(node);
      index.targets.set(node, index.recursive.has(node) ? undefined : target);
    } else if (isNode(node) && node.anchor) anchors.set(node.anchor, node);
  });
  return index;
}
