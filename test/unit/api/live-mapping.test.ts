import { describe, expect, it } from 'vitest';
import type { ReadReplicaSetDto, ServiceDto } from '../../../src/api/dto.js';
import { mapLive } from '../../../src/kinds/index.js';
import { sizeOfSpec } from '../../../src/kinds/service/fields.js';
import type { LivePeering, LiveReplicaSet, LiveService, LiveVpc } from '../../../src/model/index.js';

// Each kind's mapping as the live reader runs it (src/kinds/index.ts: with what a body carries).
const mapService = (dto: unknown) => mapLive('service', dto) as LiveService;
const mapReplicaSet = (dto: unknown, serviceId: string) => mapLive('replica_set', dto, serviceId) as LiveReplicaSet;
const mapVpc = (dto: unknown) => mapLive('vpc', dto) as LiveVpc;
const mapPeering = (dto: unknown, vpcId: string) => mapLive('peering', dto, vpcId) as LivePeering;

function serviceDto(over: Partial<ServiceDto> & Record<string, unknown> = {}): ServiceDto {
  return {
    created: '2026-01-01T00:00:00Z',
    name: 'metrics',
    project_id: 'proj-demo',
    region_code: 'us-east-1',
    resources: [{ id: 'r1', spec: { cpu_millis: 2000, memory_gbs: 8, volume_type: 'dedicated' } }],
    service_id: 'kd9w2xp4mz',
    service_type: 'TIMESERIESDB',
    status: 'READY',
    endpoint: { host: 'kd9w2xp4mz.proj-demo.tsdb.cloud.example', port: 5432 },
    ha_replicas: { replica_count: 2, sync_replica_count: 1 },
    metadata: { environment: 'PROD' },
    read_replica_sets: [],
    ...over,
  } as ServiceDto;
}

const rsDto = (over: Partial<ReadReplicaSetDto> = {}): ReadReplicaSetDto => ({
  id: 'rs00000001',
  cpu_millis: 1000,
  memory_gbs: 4,
  name: 'reporting',
  nodes: 2,
  status: 'active',
  ...over,
});

describe('mapService', () => {
  it('reads the addons when the API reports them (known ones, sorted), and nothing when it does not', () => {
    expect(mapService(serviceDto({ addons: ['time-series', 'ai', 'graph', 'ai'] })).addons).toEqual(['ai', 'time-series']);
    expect(mapService(serviceDto({ addons: [] })).addons).toEqual([]);
    expect(mapService(serviceDto()).addons).toBeUndefined();
    expect(mapService(serviceDto({ addons: 'ai' } as never)).addons).toBeUndefined();
  });

  it('maps a full READY service', () => {
    const live = mapService(
      serviceDto({
        connection_pooler: { endpoint: { host: 'pool.example', port: 6432 } },
        vpc_endpoint: { host: 'vpc.example', port: 5432, vpc_id: '1234567890' },
        forked_from: { service_id: 'parent0001', project_id: 'proj-demo', is_standby: false },
        read_replica_sets: [rsDto()],
      }),
    );
    expect(live).toEqual({
      id: 'kd9w2xp4mz',
      name: 'metrics',
      projectId: 'proj-demo',
      regionCode: 'us-east-1',
      serviceType: 'TIMESERIESDB',
      status: 'READY',
      created: '2026-01-01T00:00:00Z',
      size: { cpuMillis: 2000, memoryGbs: 8 },
      environment: 'PROD',
      ha: { replicas: 2, syncReplicas: 1 },
      pooler: true,
      vpcId: '1234567890',
      endpoint: { host: 'kd9w2xp4mz.proj-demo.tsdb.cloud.example', port: 5432 },
      poolerEndpoint: { host: 'pool.example', port: 6432 },
      vpcEndpoint: { host: 'vpc.example', port: 5432 },
      forkedFrom: { serviceId: 'parent0001', projectId: 'proj-demo', isStandby: false },
      replicaSets: [
        { id: 'rs00000001', serviceId: 'kd9w2xp4mz', name: 'reporting', cpuMillis: 1000, memoryGbs: 4, nodes: 2, status: 'active', pooler: false, environment: 'DEV' },
      ],
    });
  });

  it('defaults absent ha to 0/0 and absent environment to DEV', () => {
    const dto = serviceDto();
    delete dto.ha_replicas;
    delete dto.metadata;
    const live = mapService(dto);
    expect(live.ha).toEqual({ replicas: 0, syncReplicas: 0 });
    expect(live.environment).toBe('DEV');
  });

  it('reports the pooler as on exactly when connection_pooler has an endpoint host, in any status (SPEC section 12)', () => {
    expect(mapService(serviceDto()).pooler).toBe(false);
    expect(mapService(serviceDto({ status: 'PAUSED' })).pooler).toBe(false);
    expect(mapService(serviceDto({ status: 'PAUSED', connection_pooler: { endpoint: { host: 'h', port: 6432 } } })).pooler).toBe(true);
    expect(mapService(serviceDto({ status: 'RESUMING', connection_pooler: { endpoint: { host: 'h' } } })).pooler).toBe(true);
    // The real service's disabled pooler: an object without an endpoint, or an endpoint without a host.
    expect(mapService(serviceDto({ status: 'RESUMING', connection_pooler: {} })).pooler).toBe(false);
    expect(mapService(serviceDto({ connection_pooler: { endpoint: {} } })).pooler).toBe(false);
    expect(mapService(serviceDto({ connection_pooler: { endpoint: { host: '', port: 6432 } } })).pooler).toBe(false);
    expect(mapReplicaSet({ id: 'r', name: 'r', cpu_millis: 500, memory_gbs: 2, nodes: 1, status: 'active', connection_pooler: {} }, 's').pooler).toBe(false);
  });

  it('reads TIMESCALEDB as it is (the planner and export read it as the time-series type), and a VPC status', () => {
    expect(mapService(serviceDto({ service_type: 'TIMESCALEDB' })).serviceType).toBe('TIMESCALEDB');
    expect(mapVpc({ id: '1', name: 'n', cidr: '10.0.0.0/16', region_code: 'az-eastus2', status: 'CREATING' })).toEqual({ id: '1', name: 'n', cidr: '10.0.0.0/16', regionCode: 'az-eastus2', status: 'CREATING' });
  });

  it('prefers vpc_endpoint, then vpcEndpoint', () => {
    expect(mapService(serviceDto({ vpcEndpoint: { vpc_id: '222', host: 'b', port: 5432 } })).vpcId).toBe('222');
    const both = mapService(serviceDto({ vpc_endpoint: { vpc_id: '111', host: 'a', port: 5432 }, vpcEndpoint: { vpc_id: '222', host: 'b', port: 5432 } }));
    expect(both.vpcId).toBe('111');
    expect(both.vpcEndpoint).toEqual({ host: 'a', port: 5432 });
    expect(mapService(serviceDto()).vpcId).toBeNull();
  });

  it('reads shared sizes in every spelling, and no spec as unknown', () => {
    expect(mapService(serviceDto({ resources: [{ id: 'r', spec: { volume_type: 'shared' } }] })).size).toEqual({ cpuMillis: 'shared', memoryGbs: 'shared' });
    expect(sizeOfSpec({ cpu_millis: 0, memory_gbs: 0 })).toEqual({ cpuMillis: 'shared', memoryGbs: 'shared' });
    expect(sizeOfSpec({})).toEqual({ cpuMillis: 'shared', memoryGbs: 'shared' });
    expect(mapService(serviceDto({ resources: [{ id: 'r' }] })).size).toBeUndefined();
    expect(mapService(serviceDto({ resources: [] })).size).toBeUndefined();
  });

  it('never crashes on legacy or unknown values and ignores extra fields', () => {
    const live = mapService(serviceDto({ service_type: 'VECTOR', status: 'OPTIMIZING', brand_new_field: { x: 1 } }));
    expect(live.serviceType).toBe('VECTOR');
    expect(live.status).toBe('OPTIMIZING');
    expect(live.pooler).toBe(false);
  });

  it('treats a missing read_replica_sets as none and keeps initial_password out of the live value', () => {
    const dto = serviceDto({ initial_password: 'canary-secret-123' });
    delete dto.read_replica_sets;
    const live = mapService(dto);
    expect(live.replicaSets).toEqual([]);
    expect(JSON.stringify(live)).not.toContain('canary-secret-123');
  });
});

describe('mapReplicaSet / mapVpc / mapPeering', () => {
  it('maps pooler, environment and endpoint of a replica set', () => {
    const live = mapReplicaSet(rsDto({ connection_pooler: { endpoint: { host: 'p', port: 6432 } }, metadata: { environment: 'PROD' }, endpoint: { host: 'h', port: 5432 }, status: 'resizing' }), 'svc');
    expect(live).toMatchObject({ pooler: true, environment: 'PROD', endpoint: { host: 'h', port: 5432 }, status: 'resizing', serviceId: 'svc' });
  });

  it('keeps a replica set\'s pooler endpoint exactly while its pooler is enabled (dbform output prints it)', () => {
    expect(mapReplicaSet(rsDto({ connection_pooler: { endpoint: { host: 'p', port: 6432 } } }), 'svc').poolerEndpoint).toEqual({ host: 'p', port: 6432 });
    expect(mapReplicaSet(rsDto({ connection_pooler: {} }), 'svc').poolerEndpoint).toBeUndefined();
    expect(mapReplicaSet(rsDto(), 'svc').poolerEndpoint).toBeUndefined();
  });

  it('maps a VPC and a failed peering with its error message', () => {
    expect(mapVpc({ id: '1234567890', name: 'prod', cidr: '10.0.0.0/16', region_code: 'us-east-1' })).toEqual({ id: '1234567890', name: 'prod', cidr: '10.0.0.0/16', regionCode: 'us-east-1' });
    const p = mapPeering({ id: '9', peer_account_id: 'x', peer_region_code: 'us-east-1', peer_vpc_id: 'vpc-1', status: 'failed', error_message: 'bad account' }, '1234567890');
    expect(p).toEqual({ id: '9', vpcId: '1234567890', peerAccountId: 'x', peerRegionCode: 'us-east-1', peerVpcId: 'vpc-1', status: 'failed', errorMessage: 'bad account' });
  });
});
