// Text -> YAML document -> plain data, keeping the document for positions. YAML problems
// (syntax, tabs, duplicate keys, unknown aliases, alias bombs) become positioned diagnostics.
import type { Alias, Document, Node, YAMLMap } from 'yaml';
import type { Diagnostic } from '../model/diagnostics.js';
import { parseFastYaml } from './fast-yaml.js';
import { MAX_NESTING } from './fast-yaml-inline.js';
import { isMergeKey, keyText, LightLocator, YamlLocator, type Locator } from './locate.js';
import { yamlLib } from './yaml-lib.js';
import { explainSyntaxErrors, tooDeepMessage, yamlMessage } from './yaml-syntax.js';

/** Alias expansions allowed when building the data: generous for real files, fatal to alias bombs. */
export const MAX_ALIAS_COUNT = 10_000;

export type ParsedYaml =
  /** `shared`: containers may be reached twice (YAML aliases), so never update them in place. */
  | { ok: true; data: unknown; locator: Locator; empty: boolean; shared: boolean }
  | { ok: false; errors: Diagnostic[] };

export function parseYamlText(text: string, file: string): ParsedYaml {
  const light = parseFastYaml(text);
  if (light) return { ok: true, data: light.root.value, locator: new LightLocator(file, text, light.root), empty: false, shared: light.shared };
  return parseWithYamlPackage(text, file);
}

/** The full YAML parser: anchors, aliases, merges, block scalars, and worded syntax errors. */
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

  const structural = checkStructure(doc, locator, diag);
  if (structural.errors.length > 0) return { ok: false, errors: structural.errors };

  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (err) {
    const message = /alias count/i.test((err as Error).message)
      ? `too many alias expansions (more than ${MAX_ALIAS_COUNT}); anchors that nest aliases multiply, simplify them`
      : `cannot read the YAML: ${(err as Error).message}`;
    return { ok: false, errors: [diag(aliases.first ?? doc.contents, message, 'yaml-alias')] };
  }
  return { ok: true, data, locator, empty: doc.contents === null, shared: true };
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

/**
 * Each alias's anchor (the last of that name defined before it), in one pass: the yaml package's
 * own Alias.resolve walks the whole document on every call, quadratic for a file of many aliases.
 */
function indexAliases(doc: Document): { targets: Map<Alias, Node | undefined>; first?: Alias } {
  const { isAlias, isNode, visit } = yamlLib();
  const anchors = new Map<string, Node>();
  const targets = new Map<Alias, Node | undefined>();
  let first: Alias | undefined;
  visit(doc, (_key, node) => {
    if (isAlias(node)) {
      first ??= node;
      targets.set(node, anchors.get(node.source));
    } else if (isNode(node) && node.anchor) anchors.set(node.anchor, node);
  });
  return { targets, first };
}

/** Duplicate keys, non-scalar keys, unknown aliases and bad merges, all at once. */
function checkStructure(
  doc: Document,
  locator: YamlLocator,
  diag: (node: unknown, message: string, code: string) => Diagnostic,
): { errors: Diagnostic[] } {
  const errors: Diagnostic[] = [];
  const { visit } = yamlLib();
  const pathOf = (ancestors: readonly unknown[]): string => describeKeyPath(ancestors);
  for (const [alias, target] of locator.aliasTargets) {
    if (target === undefined) errors.push(diag(alias, `alias *${alias.source} refers to no anchor &${alias.source} defined before it`, 'yaml-alias'));
  }
  visit(doc, {
    Map(_key, map, ancestors) {
      checkMap(map, pathOf(ancestors), { locator, diag, errors });
    },
  });
  return { errors };
}

interface CheckContext {
  locator: YamlLocator;
  diag: (node: unknown, message: string, code: string) => Diagnostic;
  errors: Diagnostic[];
}

function checkMap(map: YAMLMap, where: string, { locator, diag, errors }: CheckContext): void {
  const seen = new Map<string, Node>();
  const { isCollection, isMap, isSeq } = yamlLib();
  for (const pair of map.items) {
    if (isMergeKey(pair.key)) {
      const value = locator.resolve(pair.value as Node | null);
      const ok = isMap(value) || (isSeq(value) && value.items.every((i) => isMap(locator.resolve(i as Node))));
      if (!ok) errors.push(diag(pair.value ?? pair.key, '`<<` merges a mapping: write `<<: *anchor` (or a list of anchors of mappings)', 'yaml-merge'));
      continue;
    }
    const text = keyText(pair.key);
    if (text === undefined || isCollection(pair.key)) {
      errors.push(diag(pair.key, 'keys must be plain strings, not lists or mappings', 'yaml-key'));
      continue;
    }
    const first = seen.get(text);
    if (first) {
      const firstLine = locator.positionOf(first).line;
      const under = where === '' ? 'at the top level' : `under ${where}`;
      errors.push(diag(pair.key, `duplicate key \`${text}\` ${under} (first defined on line ${firstLine})`, 'duplicate-key'));
    } else seen.set(text, pair.key as Node);
  }
}

/** Dotted path of a map from the visitor's ancestors (pairs carry the keys). */
function describeKeyPath(ancestors: readonly unknown[]): string {
  const { isSeq } = yamlLib();
  const parts: string[] = [];
  for (let i = 0; i < ancestors.length; i++) {
    const node = ancestors[i];
    if (isSeq(node)) {
      const child = ancestors[i + 1];
      const index = node.items.indexOf(child as never);
      if (index >= 0) parts[parts.length - 1] = `${parts[parts.length - 1] ?? ''}[${index}]`;
    } else if (node && typeof node === 'object' && 'key' in node && 'value' in node) {
      parts.push(keyText((node as { key: unknown }).key) ?? '?');
    }
  }
  return parts.join('.');
}
