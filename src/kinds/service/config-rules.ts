// The services' config rules beyond the schema (SPEC section 1): what `vpc:` and `fork.from`
// name, fork chains, a fork's target time and what it inherits, and HA. They run on the entries
// even when the schema found problems (so that all errors come at once), so they skip whatever has
// the wrong type: the schema has already said so.
import { KEY_PATTERN, parseRfc3339, suggester, type Json } from '../../model/index.js';
import type { ConfigEntry, ConfigKit, ConfigProblem } from '../types.js';

const mapping = (v: unknown): Json | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined);
const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** True for an RFC 3339 date-time with a real calendar date, a `T` and an explicit offset. */
export const isRfc3339 = (t: string): boolean => parseRfc3339(t, { space: false }) !== undefined;

/** The service a fork's `from` names by key, when the config has it and it is not the fork itself. */
function parentOf(service: ConfigEntry, byKey: ReadonlyMap<string, ConfigEntry>): ConfigEntry | undefined {
  const from = text(mapping(service.value.fork)?.from);
  return from === undefined || from === service.key ? undefined : byKey.get(from);
}

// `vpc:` and `fork.from` name other resources by key; a typo there would otherwise surface only
// at apply time, as an attach to nothing or a fork of nothing.

/** Keys a message lists: a few, then how many more (10,000 keys in each of 10,000 messages would be quadratic). */
const LISTED = 10;

/** Says that no entry of `entries` (a section of the config) has the key `key`, and which one may be meant. */
function unknownKeyMessage(where: string, key: string, kind: 'VPC' | 'service', entries: ReadonlyMap<string, ConfigEntry>, suggest: (key: string) => string | undefined): string {
  const section = kind === 'VPC' ? 'vpcs' : 'services';
  const guess = suggest(key);
  if (guess) return `${where}: no ${kind} \`${key}\` under ${section}:; did you mean \`${guess}\`?`;
  const byId = kind === 'VPC' ? '{ id: "<vpc id>" }' : '{ service_id: "<service id>" }';
  const keys = [...entries.keys()];
  const more = keys.length > LISTED ? ` and ${keys.length - LISTED} more` : '';
  const list = keys.length > 0 ? `defined ${section}: ${keys.slice(0, LISTED).join(', ')}${more}` : `there are no ${section}`;
  return `${where}: no ${kind} \`${key}\` under ${section}: (${list}); for a ${kind} dbform does not manage write ${byId}`;
}

/** A section's entries by key, and a suggester over the keys made on the first typo. */
function section(entries: readonly ConfigEntry[]): { byKey: ReadonlyMap<string, ConfigEntry>; suggest: (key: string) => string | undefined } {
  const byKey = new Map(entries.map((e) => [e.key, e]));
  let suggest: ((key: string) => string | undefined) | undefined;
  return { byKey, suggest: (key) => (suggest ??= suggester([...byKey.keys()]))(key) };
}

function checkVpcRef(service: ConfigEntry, vpcs: ReturnType<typeof section>, kit: ConfigKit): ConfigProblem[] {
  const key = text(service.value.vpc);
  // A string that is not a valid key is reported by the schema.
  if (key === undefined || !KEY_PATTERN.test(key)) return [];
  const where = `${kit.where(service)}.vpc`;
  const vpc = vpcs.byKey.get(key);
  if (!vpc) return [{ entry: service, path: ['vpc'], message: unknownKeyMessage(where, key, 'VPC', vpcs.byKey, vpcs.suggest), code: 'unresolved-reference' }];
  // The cloud refuses to attach a service to a VPC of another region (409): say so now.
  const serviceRegion = text(service.value.region_code);
  const vpcRegion = text(vpc.value.region_code);
  if (serviceRegion && vpcRegion && serviceRegion !== vpcRegion) {
    const message = `${where}: VPC \`${key}\` is in ${vpcRegion} but the service is in ${serviceRegion}; a service attaches only to a VPC of its own region`;
    return [{ entry: service, path: ['vpc'], message, code: 'vpc-region' }];
  }
  return [];
}

function checkForkRef(service: ConfigEntry, services: ReturnType<typeof section>, kit: ConfigKit): ConfigProblem[] {
  const key = text(mapping(service.value.fork)?.from);
  if (key === undefined || !KEY_PATTERN.test(key)) return [];
  const where = `${kit.where(service)}.fork.from`;
  if (key === service.key) return [{ entry: service, path: ['fork', 'from'], message: `${where}: a service cannot fork itself`, code: 'fork-cycle' }];
  if (services.byKey.has(key)) return [];
  return [{ entry: service, path: ['fork', 'from'], message: unknownKeyMessage(where, key, 'service', services.byKey, services.suggest), code: 'unresolved-reference' }];
}

// Fork chains must end at a service that is not a fork of the config: a cycle has no service
// that could be created first.
function forkCycles(forks: readonly ConfigEntry[], byKey: ReadonlyMap<string, ConfigEntry>, kit: ConfigKit): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const reported = new Set<string>();
  for (const start of forks) {
    const chain: ConfigEntry[] = [];
    const onChain = new Set<string>();
    for (let s: ConfigEntry | undefined = start; s; s = parentOf(s, byKey)) {
      if (onChain.has(s.key)) {
        const cycle = chain.slice(chain.findIndex((c) => c.key === s!.key));
        if (!cycle.some((c) => reported.has(c.key))) {
          cycle.forEach((c) => reported.add(c.key));
          const chainText = [...cycle, cycle[0]!].map((c) => c.key).join(' -> ');
          const message = `${kit.where(cycle[0]!)}.fork.from: fork cycle ${chainText}; one of them must be created without fork`;
          problems.push({ entry: cycle[0]!, path: ['fork', 'from'], message, code: 'fork-cycle' });
        }
        break;
      }
      chain.push(s);
      onChain.add(s.key);
    }
  }
  return problems;
}

// fork.strategy PITR restores to a point in time, so it needs one, and only it takes one.
function checkTargetTime(service: ConfigEntry, kit: ConfigKit): ConfigProblem[] {
  const fork = mapping(service.value.fork);
  if (!fork) return [];
  const where = `${kit.where(service)}.fork`;
  const strategy = text(fork.strategy);
  const targetTime = fork.target_time;
  if (strategy === 'PITR' && targetTime === undefined) {
    const message = `${where}: strategy PITR needs target_time, the RFC 3339 point in time to restore (such as 2026-11-01T00:00:00Z)`;
    return [{ entry: service, path: ['fork'], message, code: 'fork-target-time' }];
  }
  if (targetTime === undefined) return [];
  if (strategy !== undefined && strategy !== 'PITR') {
    const message = `${where}.target_time: only strategy PITR takes a target_time (strategy is ${strategy}); remove it or use PITR`;
    return [{ entry: service, path: ['fork', 'target_time'], message, code: 'fork-target-time' }];
  }
  if (typeof targetTime === 'string' && !isRfc3339(targetTime)) {
    const message = `${where}.target_time: ${JSON.stringify(targetTime)} is not an RFC 3339 time such as 2026-11-01T00:00:00Z (date, T, time and a Z or +hh:mm offset)`;
    return [{ entry: service, path: ['fork', 'target_time'], message, code: 'fork-target-time' }];
  }
  return [];
}

const hasTimeSeries = (e: ConfigEntry): boolean | undefined => (Array.isArray(e.value.addons) ? e.value.addons.includes('time-series') : undefined);

// A fork inherits region and type from its parent: a differing explicit value would plan a
// replacement right after the fork is created.
function checkInherited(service: ConfigEntry, byKey: ReadonlyMap<string, ConfigEntry>, kit: ConfigKit): ConfigProblem[] {
  const parent = parentOf(service, byKey);
  if (!parent) return [];
  const problems: ConfigProblem[] = [];
  const mine = text(service.value.region_code);
  const theirs = text(parent.value.region_code);
  if (mine !== undefined && theirs !== undefined && mine !== theirs) {
    const message = `${kit.where(service)}.region_code: a fork lives in its parent's region; ${kit.where(parent)} is in ${theirs}, not ${mine}`;
    problems.push({ entry: service, path: ['region_code'], message, code: 'fork-inherits' });
  }
  const [myType, theirType] = [hasTimeSeries(service), hasTimeSeries(parent)];
  if (myType !== undefined && theirType !== undefined && myType !== theirType) {
    const message = `${kit.where(service)}.addons: a fork has its parent's service type; ${kit.where(parent)} ${theirType ? 'has' : 'does not have'} the time-series addon`;
    problems.push({ entry: service, path: ['addons'], message, code: 'fork-inherits' });
  }
  return problems;
}

// HA: a synchronous replica needs a second, asynchronous one (the API refuses 1 sync of 1).
// The ranges themselves (replicas 0-2, sync_replicas 0-1) are in the schema.
function checkHa(services: readonly ConfigEntry[], kit: ConfigKit): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  for (const service of services) {
    const ha = mapping(service.value.ha);
    if (!ha || ha.sync_replicas !== 1) continue;
    const replicas = ha.replicas === undefined ? 0 : ha.replicas;
    if (!Number.isInteger(replicas) || replicas === 2) continue;
    const found = ha.replicas === undefined ? 'replicas is left out, which means 0' : `replicas is ${replicas}`;
    const message = `${kit.where(service)}.ha.sync_replicas: 1 needs replicas: 2 (${found}); one synchronous replica always comes with one asynchronous`;
    problems.push({ entry: service, path: ['ha', 'sync_replicas'], message, code: 'ha' });
  }
  return problems;
}

/** The rules over all the services, in the order they report. */
export function checkServices(services: readonly ConfigEntry[], kit: ConfigKit): ConfigProblem[] {
  const forks = services.filter((s) => mapping(s.value.fork) !== undefined);
  const attached = services.filter((s) => s.value.vpc !== undefined);
  // Most configs fork nothing and attach little: then the sections are not indexed by key.
  const all = forks.length === 0 ? section([]) : section(services);
  const vpcs = attached.length === 0 ? section([]) : section(kit.entriesOf('vpc'));
  const references = [...attached.flatMap((s) => checkVpcRef(s, vpcs, kit)), ...forks.flatMap((s) => checkForkRef(s, all, kit))];
  const forkProblems = forks.flatMap((s) => [...checkTargetTime(s, kit), ...checkInherited(s, all.byKey, kit)]);
  return [...forkCycles(forks, all.byKey, kit), ...forkProblems, ...checkHa(services, kit), ...references];
}
