// Addresses name resources in config, lockfile and plan (SPEC section 2), and the kinds' names:
// the vocabulary that plans, the lockfile, messages and help texts spell without loading a kind
// (what a kind is and does lives in its folder, src/kinds/<kind>).
export type Kind = 'vpc' | 'peering' | 'service' | 'replica_set';
export type Address = string;

/** How messages name a resource of each kind: one, several. */
export const KIND_NOUNS: Readonly<Record<Kind, { one: string; many: string }>> = {
  vpc: { one: 'VPC', many: 'VPCs' },
  peering: { one: 'peering', many: 'peerings' },
  service: { one: 'service', many: 'services' },
  replica_set: { one: 'replica set', many: 'replica sets' },
};

export const nounOf = (kind: Kind): string => KIND_NOUNS[kind].one;

/**
 * Each kind's address after its kind name: the key of the resource it belongs to (its parent's),
 * then its own key, or the field that identifies it within its parent.
 */
const ADDRESS_SHAPES: Readonly<Record<Kind, { parent?: Kind; ident: string }>> = {
  vpc: { ident: 'key' },
  peering: { parent: 'vpc', ident: 'peer_vpc_id' },
  service: { ident: 'key' },
  replica_set: { parent: 'service', ident: 'key' },
};

/** The kind a resource of `kind` belongs to, if any: its address starts with that resource's key. */
export const parentKindOf = (kind: Kind): Kind | undefined => ADDRESS_SHAPES[kind].parent;

/** How texts spell the parent's key in an address form: `<service_key>`, `<serviceKey>` or `<service>`. */
export type FormStyle = 'snake' | 'camel' | 'short';

const camel = (k: string) => k.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

/** The form of `kind`'s addresses as texts spell it: `replica_set.<service_key>.<key>`. */
export function addressForm(kind: Kind, style: FormStyle): string {
  const { parent, ident } = ADDRESS_SHAPES[kind];
  const parentKey = parent === undefined ? [] : [style === 'snake' ? `<${parent}_key>` : style === 'camel' ? `<${camel(parent)}Key>` : `<${parent}>`];
  return [kind, ...parentKey, `<${ident}>`].join('.');
}

/** Every kind's address form: `vpc.<key>, ..., service.<key> or replica_set.<service_key>.<key>`. */
export function addressForms(style: FormStyle): string {
  const forms = (Object.keys(ADDRESS_SHAPES) as Kind[]).map((k) => addressForm(k, style));
  return `${forms.slice(0, -1).join(', ')} or ${forms.at(-1)}`;
}

export type ParsedAddress =
  | { kind: 'vpc'; key: string }
  | { kind: 'peering'; vpcKey: string; peerVpcId: string }
  | { kind: 'service'; key: string }
  | { kind: 'replica_set'; serviceKey: string; key: string };

export const KEY_PATTERN = /^[a-z][a-z0-9-]{0,62}$/;

export const vpcAddress = (key: string): Address => `vpc.${key}`;
export const peeringAddress = (vpcKey: string, peerVpcId: string): Address => `peering.${vpcKey}.${peerVpcId}`;
export const serviceAddress = (key: string): Address => `service.${key}`;
export const replicaSetAddress = (serviceKey: string, key: string): Address => `replica_set.${serviceKey}.${key}`;

/** Parses an address; returns undefined when it is not one of the four forms. */
export function parseAddress(address: string): ParsedAddress | undefined {
  const [kind, ...rest] = address.split('.');
  if (kind === 'vpc' && rest.length === 1 && KEY_PATTERN.test(rest[0]!)) return { kind, key: rest[0]! };
  if (kind === 'service' && rest.length === 1 && KEY_PATTERN.test(rest[0]!)) return { kind, key: rest[0]! };
  if (kind === 'replica_set' && rest.length === 2 && rest.every((k) => KEY_PATTERN.test(k))) {
    return { kind, serviceKey: rest[0]!, key: rest[1]! };
  }
  // A peer VPC ID may itself contain dots: everything after the VPC key is the peer VPC ID.
  if (kind === 'peering' && rest.length >= 2 && KEY_PATTERN.test(rest[0]!)) {
    const peerVpcId = rest.slice(1).join('.');
    if (peerVpcId.length > 0) return { kind, vpcKey: rest[0]!, peerVpcId };
  }
  return undefined;
}

/** parseAddress's four forms as one pattern each: the kind without splitting (it is asked for tens of thousands of times a plan). */
const KIND_FORMS: ReadonlyArray<[Kind, RegExp]> = [
  ['service', /^service\.[a-z][a-z0-9-]{0,62}$/],
  ['replica_set', /^replica_set\.[a-z][a-z0-9-]{0,62}\.[a-z][a-z0-9-]{0,62}$/],
  ['vpc', /^vpc\.[a-z][a-z0-9-]{0,62}$/],
  ['peering', /^peering\.[a-z][a-z0-9-]{0,62}\.[\s\S]+$/],
];

/** The kind parseAddress gives `address`, undefined when it is not an address. */
export function kindOf(address: Address): Kind | undefined {
  for (const [kind, form] of KIND_FORMS) if (form.test(address)) return kind;
  return undefined;
}

const KIND_ORDER: Record<Kind, number> = { vpc: 0, peering: 1, service: 2, replica_set: 3 };

const kindRank = (address: Address): number => {
  const kind = kindOf(address);
  return kind === undefined ? 9 : KIND_ORDER[kind];
};

/** Stable order for output: by kind (vpc, peering, service, replica_set), then by address text. */
export function compareAddresses(a: Address, b: Address): number {
  const oa = kindRank(a);
  const ob = kindRank(b);
  if (oa !== ob) return oa - ob;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `addresses` in compareAddresses order, each parsed once (not once per comparison). */
export function sortAddresses(addresses: Iterable<Address>): Address[] {
  const ranked = Array.from(addresses, (address) => ({ address, rank: kindRank(address) }));
  ranked.sort((x, y) => x.rank - y.rank || (x.address < y.address ? -1 : x.address > y.address ? 1 : 0));
  return ranked.map((r) => r.address);
}

/** The address of the resource `address` belongs to (the parent key after its kind), if its kind has a parent. */
export function parentAddressOf(address: Address): Address | undefined {
  const kind = kindOf(address);
  const parent = kind === undefined ? undefined : ADDRESS_SHAPES[kind].parent;
  return parent === undefined ? undefined : `${parent}.${address.split('.')[1]}`;
}

/** The address of a resource of `kind` (its parent's key first, for a kind with a parent). */
export function addressOf(kind: Kind, parentKey: string | undefined, ident: string): Address {
  return parentKey === undefined ? `${kind}.${ident}` : `${kind}.${parentKey}.${ident}`;
}
