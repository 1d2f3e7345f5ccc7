// Child process of bench/readers.js: reads one YAML file one way and prints what it cost.
//   node bench/yaml-read.js WAY FILE [DIST]
// WAY is one of WAYS below; DIST (default ./dist) is the build whose config loader `loader` uses
// (a baseline's dist, to compare the reader main had). Prints one JSON line: the time of the read
// alone (node start-up and module loading excluded) and a check value of the data it gave.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);

export const WAYS = {
  'js-yaml load': () => {
    const { CORE_SCHEMA, load, mergeTag } = require('js-yaml');
    const schema = CORE_SCHEMA.withTags(mergeTag);
    return (text) => load(text, { schema });
  },
  'js-yaml parseEvents only': () => {
    const { parseEvents } = require('js-yaml');
    return (text) => ({ events: parseEvents(text, {}).length });
  },
  'yaml parse': () => {
    const { parse } = require('yaml');
    return (text) => parse(text, { schema: 'core', merge: true });
  },
  'yaml parseDocument + toJS': () => {
    const { parseDocument } = require('yaml');
    return (text) => parseDocument(text, { schema: 'core', merge: true }).toJS();
  },
  'yaml parseDocument + LineCounter + toJS': () => {
    const { LineCounter, parseDocument } = require('yaml');
    return (text) => parseDocument(text, { schema: 'core', merge: true, lineCounter: new LineCounter() }).toJS();
  },
  'yaml parseDocument + LineCounter + keepSourceTokens + toJS': () => {
    const { LineCounter, parseDocument } = require('yaml');
    return (text) => parseDocument(text, { schema: 'core', merge: true, keepSourceTokens: true, lineCounter: new LineCounter() }).toJS();
  },
  // The config loader of the build at DIST: read, interpolate, schema, rules, desired state.
  loader: async (dist) => {
    const { loadConfigText } = await import(pathToFileURL(`${dist}/config/index.js`).href);
    return (text) => {
      const r = loadConfigText(text, 'f.yaml');
      if (!r.ok) throw new Error(`the config does not load: ${r.errors[0]?.message}`);
      return { services: r.value.services.length };
    };
  },
  // main's fast path before issue 23 (src/config/event-yaml.ts), as its loader called it.
  'event fast path (main)': async (dist) => {
    const { readYamlEvents } = await import(pathToFileURL(`${dist}/config/event-yaml.js`).href);
    return (text) => readYamlEvents(text, { positions: 'shallow' }).root.value;
  },
};

/** Something of the data that every way must agree on. */
function check(data) {
  if (data && typeof data === 'object' && 'services' in data) {
    return typeof data.services === 'number' ? data.services : Object.keys(data.services).length;
  }
  return data?.events;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [way, file, dist = new URL('../dist', import.meta.url).pathname] = process.argv.slice(2);
  if (!WAYS[way] || !file) {
    process.stderr.write(`usage: node bench/yaml-read.js WAY FILE [DIST]; WAY: ${Object.keys(WAYS).join(' | ')}\n`);
    process.exit(2);
  }
  const read = await WAYS[way](dist);
  const text = readFileSync(file, 'utf8');
  const t = performance.now();
  const data = read(text);
  const readMs = performance.now() - t;
  process.stdout.write(`${JSON.stringify({ way, readMs, check: check(data), maxRssKb: process.resourceUsage().maxRSS })}\n`);
}
