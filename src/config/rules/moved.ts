// `moved: [{from, to}]` rebinds a lockfile entry. It must name two addresses of one kind, the
// new one in the config and the old one gone from it, once each, and never in a chain: each
// entry must say where the resource is now, not where it went next.
import { addressForms, addressOf, parseAddress } from '../../model/address.js';
import type { Diagnostic } from '../../model/diagnostics.js';
import { eachCollection } from '../kind-entries.js';
import { describeSource, diagnosticAt, sourceOf, type Entry, type MergedConfig } from '../merge.js';
import { str } from './rule.js';

const ADDRESS_FORMS = addressForms('camel');

/** The address of every entry of the config: a map entry's by its key, a list entry's by the field that identifies it (when written). */
function configuredAddresses(config: MergedConfig): Set<string> {
  const addresses = new Set<string>();
  eachCollection(config, (def, entries, _label, parent) => {
    for (const entry of entries) {
      const ident = def.config.shape === 'map' ? entry.key : str(entry.value, def.naming.key);
      if (ident) addresses.add(addressOf(def.kind, parent?.key, ident));
    }
  });
  return addresses;
}

function checkEntry(entry: Entry, all: readonly Entry[], addresses: ReadonlySet<string>): Diagnostic[] {
  const where = `moved[${String(entry.origin.path[1])}]`;
  const from = str(entry.value, 'from');
  const to = str(entry.value, 'to');
  const problems: Diagnostic[] = [];
  const report = (field: 'from' | 'to', message: string, code: string) =>
    problems.push(diagnosticAt(entry.origin, [field], `${where}.${field}: ${message}`, code));
  const earlier = all.slice(0, all.indexOf(entry));
  const fromParsed = from === undefined ? undefined : parseAddress(from);
  const toParsed = to === undefined ? undefined : parseAddress(to);
  if (from !== undefined) {
    const chained = all.find((o) => o !== entry && str(o.value, 'to') === from);
    const twice = earlier.find((o) => str(o.value, 'from') === from);
    if (!fromParsed) report('from', `${JSON.stringify(from)} is not an address; addresses look like ${ADDRESS_FORMS}`, 'moved-address');
    else if (chained) report('from', `${from} is the \`to\` of ${describe(chained)}; chains are not allowed: move the old address straight to the newest one`, 'moved-chain');
    else if (twice) report('from', `${from} is already moved by ${describe(twice)}`, 'moved-duplicate');
    else if (addresses.has(from)) report('from', `${from} is still in the config; \`from\` names the old address, which must no longer be configured`, 'moved-from-configured');
  }
  if (to !== undefined) {
    const twice = earlier.find((o) => str(o.value, 'to') === to);
    // The middle of a chain: the entry that moves it on again reports the chain.
    const chained = all.some((o) => o !== entry && str(o.value, 'from') === to);
    if (!toParsed) report('to', `${JSON.stringify(to)} is not an address; addresses look like ${ADDRESS_FORMS}`, 'moved-address');
    else if (fromParsed && fromParsed.kind !== toParsed.kind) report('to', `cannot move a ${fromParsed.kind} to a ${toParsed.kind}; both addresses must be of one kind`, 'moved-kind');
    else if (twice) report('to', `${to} is already the target of ${describe(twice)}`, 'moved-duplicate');
    else if (!addresses.has(to) && !chained) report('to', `${to} is not in the config; \`to\` names the new address, which must be configured`, 'moved-to-missing');
  }
  return problems;
}

const describe = (e: Entry) => `moved[${String(e.origin.path[1])}] (${describeSource(sourceOf(e.origin))})`;

export function movedEntries(config: MergedConfig): Diagnostic[] {
  if (config.moved.length === 0) return [];
  const addresses = configuredAddresses(config);
  return config.moved.flatMap((entry) => checkEntry(entry, config.moved, addresses));
}
