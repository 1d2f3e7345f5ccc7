// `vpc:` and `fork.from` name other resources by key; a typo there would otherwise surface
// only at apply time, as an attach to nothing or a fork of nothing.
import type { Diagnostic } from '../../model/diagnostics.js';
import { KEY_PATTERN } from '../../model/address.js';
import { diagnosticAt, type Entry } from '../merge.js';
import { suggester } from '../../model/suggest.js';
import { record, str, type Rule } from './rule.js';

/** The keys of one section, and the closest of them to a typo. */
interface Known {
  keys: readonly string[];
  suggest: (key: string) => string | undefined;
}

const knownKeys = (keys: readonly string[]): Known => ({ keys, suggest: suggester(keys) });

/** Keys a message lists: a few, then how many more (10,000 keys in each of 10,000 messages would be quadratic). */
const LISTED = 10;

function unknownKeyMessage(where: string, key: string, kind: 'VPC' | 'service', known: Known): string {
  const section = kind === 'VPC' ? 'vpcs' : 'services';
  const guess = known.suggest(key);
  if (guess) return `${where}: no ${kind} \`${key}\` under ${section}:; did you mean \`${guess}\`?`;
  const byId = kind === 'VPC' ? '{ id: "<vpc id>" }' : '{ service_id: "<service id>" }';
  const more = known.keys.length > LISTED ? ` and ${known.keys.length - LISTED} more` : '';
  const list = known.keys.length > 0 ? `defined ${section}: ${known.keys.slice(0, LISTED).join(', ')}${more}` : `there are no ${section}`;
  return `${where}: no ${kind} \`${key}\` under ${section}: (${list}); for a ${kind} dbform does not manage write ${byId}`;
}

function checkVpcRef(service: Entry, vpcs: ReadonlyMap<string, Entry>, known: Known): Diagnostic[] {
  const key = str(service.value, 'vpc');
  // A string that is not a valid key is reported by the schema.
  if (key === undefined || !KEY_PATTERN.test(key)) return [];
  const where = `services.${service.key}.vpc`;
  const vpc = vpcs.get(key);
  if (!vpc) return [diagnosticAt(service.origin, ['vpc'], unknownKeyMessage(where, key, 'VPC', known), 'unresolved-reference')];
  // The cloud refuses to attach a service to a VPC of another region (409): say so now.
  const serviceRegion = str(service.value, 'region_code');
  const vpcRegion = str(vpc.value, 'region_code');
  if (serviceRegion && vpcRegion && serviceRegion !== vpcRegion) {
    const message = `${where}: VPC \`${key}\` is in ${vpcRegion} but the service is in ${serviceRegion}; a service attaches only to a VPC of its own region`;
    return [diagnosticAt(service.origin, ['vpc'], message, 'vpc-region')];
  }
  return [];
}

function checkForkRef(service: Entry, services: ReadonlyMap<string, Entry>, known: Known): Diagnostic[] {
  const key = str(record(service.value, 'fork'), 'from');
  if (key === undefined || !KEY_PATTERN.test(key)) return [];
  const where = `services.${service.key}.fork.from`;
  if (key === service.key) return [diagnosticAt(service.origin, ['fork', 'from'], `${where}: a service cannot fork itself`, 'fork-cycle')];
  if (services.has(key)) return [];
  return [diagnosticAt(service.origin, ['fork', 'from'], unknownKeyMessage(where, key, 'service', known), 'unresolved-reference')];
}

export const referencesRule: Rule = {
  code: 'unresolved-reference',
  check(config) {
    const vpcs = new Map(config.vpcs.map((e) => [e.key, e]));
    const services = new Map(config.services.map((e) => [e.key, e]));
    const [knownVpcs, knownServices] = [knownKeys([...vpcs.keys()]), knownKeys([...services.keys()])];
    return config.services.flatMap((service) => [...checkVpcRef(service, vpcs, knownVpcs), ...checkForkRef(service, services, knownServices)]);
  },
};
