import { describe, expect, it } from 'vitest';
import { apiOf, expectError, P, useEmulator } from './helpers.js';

describe('VPCs and peerings', () => {
  const em = useEmulator({ timeScale: 0 });
  const api = apiOf(em);
  const createVpc = async (body: Record<string, unknown> = {}) => {
    const res = await api('POST', `${P}/vpcs`, { name: 'main', cidr: '10.10.0.0/16', region_code: 'us-east-1', ...body });
    expect(res.status, res.text).toBe(201);
    return res.body;
  };

  it('create (201), get, list, rename (200 message), delete (204)', async () => {
    const vpc = await createVpc({ name: 'prod-vpc' });
    expect(vpc).toEqual({ id: expect.stringMatching(/^[0-9]{10}$/), name: 'prod-vpc', cidr: '10.10.0.0/16', region_code: 'us-east-1' });
    expect((await api('GET', `${P}/vpcs/${vpc.id}`)).body).toEqual(vpc);
    expect((await api('GET', `${P}/vpcs`)).body).toContainEqual(vpc);
    const rename = await api('POST', `${P}/vpcs/${vpc.id}/rename`, { name: 'renamed' });
    expect(rename.status).toBe(200);
    expect(rename.body).toEqual({ message: expect.stringContaining('renamed') });
    expect((await api('GET', `${P}/vpcs/${vpc.id}`)).body.name).toBe('renamed');
    const del = await api('DELETE', `${P}/vpcs/${vpc.id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expectError(await api('GET', `${P}/vpcs/${vpc.id}`), 404, 'NOT_FOUND');
    expectError(await api('DELETE', `${P}/vpcs/${vpc.id}`), 404, 'NOT_FOUND');
    expectError(await api('POST', `${P}/vpcs/${vpc.id}/rename`, { name: 'x' }), 404, 'NOT_FOUND');
  });

  it.each([
    [{ cidr: '10.10.0.0/16', region_code: 'us-east-1' }, 'name', 'required'],
    [{ name: 'n', region_code: 'us-east-1' }, 'cidr', 'required'],
    [{ name: 'n', cidr: '10.10.0.0/16' }, 'region_code', 'required'],
    [{ name: '', cidr: '10.10.0.0/16', region_code: 'us-east-1' }, 'name', '1-128'],
    [{ name: 'n'.repeat(129), cidr: '10.10.0.0/16', region_code: 'us-east-1' }, 'name', '1-128'],
    [{ name: 'n', cidr: '10.10.0.1/16', region_code: 'us-east-1' }, 'cidr', 'host bits'],
    [{ name: 'n', cidr: '10.10.0.0', region_code: 'us-east-1' }, 'cidr', 'a.b.c.d/n'],
    [{ name: 'n', cidr: '300.1.0.0/16', region_code: 'us-east-1' }, 'cidr', 'a.b.c.d/n'],
    [{ name: 'n', cidr: '10.0.0.0/33', region_code: 'us-east-1' }, 'cidr', 'a.b.c.d/n'],
    [{ name: 'n', cidr: 1010, region_code: 'us-east-1' }, 'cidr', 'string'],
    [{ name: 'n', cidr: '10.10.0.0/16', region_code: 'US-EAST-1' }, 'region_code', 'region code'],
  ])('create with %j is a 400 naming %s', async (body, field, text) => {
    const err = expectError(await api('POST', `${P}/vpcs`, body), 400, 'VALIDATION_ERROR');
    expect(err.message).toContain(`"${field}"`);
    expect(err.message).toContain(text);
  });

  it('rename validates the new name', async () => {
    const vpc = await createVpc();
    for (const body of [{}, { name: '' }, { name: 3 }]) {
      expect(expectError(await api('POST', `${P}/vpcs/${vpc.id}/rename`, body), 400, 'VALIDATION_ERROR').message).toContain('"name"');
    }
    expect((await api('GET', `${P}/vpcs/${vpc.id}`)).body.name).toBe('main');
  });

  it('peerings: create 201 pending, list, get, duplicate peer_vpc_id 409, delete 204', async () => {
    const vpc = await createVpc({ cidr: '10.20.0.0/16' });
    const base = `${P}/vpcs/${vpc.id}/peerings`;
    const created = await api('POST', base, { peer_account_id: '123456789012', peer_region_code: 'us-west-2', peer_vpc_id: 'vpc-0a1b2c3d' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^[0-9]{10}$/),
      peer_account_id: '123456789012',
      peer_region_code: 'us-west-2',
      peer_vpc_id: 'vpc-0a1b2c3d',
      status: 'pending',
    });
    const id = created.body.id;
    const got = (await api('GET', `${base}/${id}`)).body;
    expect(got.status).toBe('active');
    expect((await api('GET', base)).body).toEqual([got]);
    expect(expectError(await api('POST', base, { peer_account_id: '123456789012', peer_region_code: 'us-west-2', peer_vpc_id: 'vpc-0a1b2c3d' }), 409, 'CONFLICT').message).toContain('vpc-0a1b2c3d');
    expect(expectError(await api('DELETE', `${P}/vpcs/${vpc.id}`), 409, 'CONFLICT').message).toContain('peering');
    const del = await api('DELETE', `${base}/${id}`);
    expect(del.status).toBe(204);
    expectError(await api('GET', `${base}/${id}`), 404, 'NOT_FOUND');
    expectError(await api('DELETE', `${base}/${id}`), 404, 'NOT_FOUND');
    expect((await api('GET', base)).body).toEqual([]);
    expect((await api('DELETE', `${P}/vpcs/${vpc.id}`)).status).toBe(204);
    expectError(await api('GET', base), 404, 'NOT_FOUND');
  });

  it('a failed peering still blocks the VPC delete until it is deleted', async () => {
    const vpc = await createVpc({ cidr: '10.30.0.0/16' });
    const p = (await api('POST', `${P}/vpcs/${vpc.id}/peerings`, { peer_account_id: 'abc', peer_region_code: 'us-east-1', peer_vpc_id: 'x' })).body;
    expect((await api('GET', `${P}/vpcs/${vpc.id}/peerings/${p.id}`)).body.status).toBe('failed');
    expectError(await api('DELETE', `${P}/vpcs/${vpc.id}`), 409, 'CONFLICT');
    await api('DELETE', `${P}/vpcs/${vpc.id}/peerings/${p.id}`);
    expect((await api('DELETE', `${P}/vpcs/${vpc.id}`)).status).toBe(204);
  });

  it.each([
    [{ peer_region_code: 'us-east-1', peer_vpc_id: 'v' }, 'peer_account_id'],
    [{ peer_account_id: '123456789012', peer_vpc_id: 'v' }, 'peer_region_code'],
    [{ peer_account_id: '123456789012', peer_region_code: 'us-east-1' }, 'peer_vpc_id'],
    [{ peer_account_id: 123456789012, peer_region_code: 'us-east-1', peer_vpc_id: 'v' }, 'peer_account_id'],
    [{ peer_account_id: '123456789012', peer_region_code: 'nowhere', peer_vpc_id: 'v' }, 'peer_region_code'],
    [{ peer_account_id: '123456789012', peer_region_code: 'us-east-1', peer_vpc_id: '' }, 'peer_vpc_id'],
  ])('peering create with %j is a 400 naming %s', async (body, field) => {
    const vpc = await createVpc({ cidr: '10.40.0.0/16' });
    expect(expectError(await api('POST', `${P}/vpcs/${vpc.id}/peerings`, body), 400, 'VALIDATION_ERROR').message).toContain(`"${field}"`);
    expect((await api('GET', `${P}/vpcs/${vpc.id}/peerings`)).body).toEqual([]);
  });

  it('peerings of an unknown VPC are 404', async () => {
    expectError(await api('GET', `${P}/vpcs/1111111111/peerings`), 404, 'NOT_FOUND');
    expectError(await api('POST', `${P}/vpcs/1111111111/peerings`, { peer_account_id: '1', peer_region_code: 'us-east-1', peer_vpc_id: 'v' }), 404, 'NOT_FOUND');
  });

  it('deleting a service releases its VPC attachment at once', async () => {
    const vpc = await createVpc({ cidr: '10.50.0.0/16' });
    const id = (await api('POST', `${P}/services`, { name: 's' })).body.service_id;
    await api('GET', `${P}/services/${id}`);
    expect((await api('POST', `${P}/services/${id}/attachToVPC`, { vpc_id: vpc.id })).status).toBe(202);
    expectError(await api('DELETE', `${P}/vpcs/${vpc.id}`), 409, 'CONFLICT');
    await api('DELETE', `${P}/services/${id}`);
    expect((await api('DELETE', `${P}/vpcs/${vpc.id}`)).status).toBe(204);
  });
});
