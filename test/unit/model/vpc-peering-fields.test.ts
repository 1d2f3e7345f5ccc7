// The VPC's and the peering's field descriptors (src/kinds/vpc/kind.ts, src/kinds/peering/kind.ts), held to the
// checks every kind's fields pass, and to the bodies and YAML plans and exports have always shown.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createBody, exportFields, updateSteps } from '../../../src/model/index.js';
import { buildConfigSchema } from '../../../src/config/schema.js';
import { desiredPeering, desiredVpc, livePeering, liveVpc } from '../planner/builders.js';
import { checkFieldSet } from './field-set-checks.js';
import { PEERING_FIELDS } from '../../../src/kinds/peering/kind.js';
import { VPC_FIELDS } from '../../../src/kinds/vpc/kind.js';

const ctx = (key: string) => ({ key, vpcKey: () => undefined, quote: (s: string) => JSON.stringify(s), passwordEnv: 'X_PASSWORD' });
const vpcValues = fc.record({ name: fc.constantFrom('main', 'other'), cidr: fc.constantFrom('10.0.0.0/16', '10.1.0.0/16'), regionCode: fc.constantFrom('us-east-1', 'az-eastus2') });
const peeringValues = fc.record({ peerAccountId: fc.constantFrom('123456789012', '000000000001'), peerRegionCode: fc.constantFrom('us-east-1', 'eu-west-1') });

type Schema = { properties: { vpcs: { additionalProperties: { properties: { peerings: { items: { properties: object } } } } } } };

describe('the VPC field set', () => {
  checkFieldSet({ set: VPC_FIELDS, ctx: ctx('main'), blank: () => desiredVpc('main'), live: vpcValues.map((v) => liveVpc('main', v)), desired: vpcValues.map((v) => desiredVpc('main', v)) });

  it('is the schema of a VPC, with protect and peerings after its fields', () => {
    const vpc = (buildConfigSchema() as unknown as Schema).properties.vpcs.additionalProperties;
    expect(Object.keys(vpc.properties)).toEqual(['name', 'cidr', 'region_code', 'protect', 'peerings']);
  });

  it('renames in place and creates with sorted request keys', () => {
    const steps = updateSteps(VPC_FIELDS, desiredVpc('main', { name: 'prod' }), liveVpc('main'), undefined);
    expect(steps).toEqual([{ op: 'renameVPC', changes: [{ path: 'name', before: 'main', after: 'prod', forcesReplace: false, sensitive: false }], request: { name: 'prod' } }]);
    const body = createBody(VPC_FIELDS, desiredVpc('main', { name: 'prod' }));
    expect(Object.keys(body.request)).toEqual(['cidr', 'name', 'region_code']);
    expect(body.changes.map((c) => c.path)).toEqual(['name', 'cidr', 'region_code']);
  });
});

describe('the peering field set', () => {
  checkFieldSet({
    set: PEERING_FIELDS,
    ctx: ctx(''),
    blank: () => desiredPeering('main', 'vpc-p1', { peerAccountId: '', peerRegionCode: '' }),
    live: peeringValues.map((p) => livePeering('vpc-1', 'vpc-p1', p)),
    desired: peeringValues.map((p) => desiredPeering('main', 'vpc-p1', p)),
  });

  it('is the schema of a peering', () => {
    const peering = (buildConfigSchema() as unknown as Schema).properties.vpcs.additionalProperties.properties.peerings.items;
    expect(Object.keys(peering.properties)).toEqual(['peer_account_id', 'peer_region_code', 'peer_vpc_id']);
  });

  it('exports the account ID always quoted, so that YAML keeps its digits a string', () => {
    const { fields } = exportFields(PEERING_FIELDS, livePeering('vpc-1', 'vpc-p1'), ctx(''));
    expect(fields[0]).toEqual({ key: 'peer_account_id', value: { quoted: '123456789012' }, commented: false });
  });
});
