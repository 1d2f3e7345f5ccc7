// A few plans exercising most features at once, shared by the JSON, schema and renderer tests.
import type { Plan } from '../../../src/model/index.js';
import {
  desiredPeering,
  desiredReplicaSet,
  desiredService,
  desiredState,
  desiredVpc,
  livePeering,
  liveReplicaSet,
  liveService,
  liveState,
  liveVpc,
  lockfile,
  plan,
} from './builders.js';

/** Creates, updates, a replace, deletes, an adoption, a move, a protect change, a forget, warnings. */
export function richPlan(allowDataLoss = false): Plan {
  return plan(
    desiredState({
      vpcs: [desiredVpc('main', { peerings: [desiredPeering('main', 'vpc-peer1')] }), desiredVpc('edge', { name: 'edge-renamed', cidr: '10.1.0.0/16' })],
      services: [
        desiredService('db', {
          size: { cpuMillis: 2000, memoryGbs: 8 },
          pooler: true,
          vpc: { key: 'main' },
          password: { fromEnv: 'DB_PASSWORD', version: 2 },
          protect: true,
          replicaSets: [desiredReplicaSet('reporting', { nodes: 2 })],
        }),
        desiredService('adopted', { environment: 'PROD' }),
        desiredService('renamed', { name: 'legacy' }),
        desiredService('ts', { addons: ['time-series'] }),
        desiredService('sleepy', { ha: { replicas: 1, syncReplicas: 0 } }),
        desiredService('preview', { fork: { from: { key: 'db' }, strategy: 'NOW' } }),
      ],
    }),
    liveState({
      vpcs: [liveVpc('edge', { id: '2000000002', cidr: '10.1.0.0/16' }), liveVpc('stale', { id: '3000000003', peerings: [livePeering('3000000003', 'vpc-x')] })],
      services: [
        liveService('db', { id: 'dbdbdbdbdb', size: { cpuMillis: 1000, memoryGbs: 4 }, replicaSets: [liveReplicaSet('reporting', { id: 'rsrsrsrsrs', nodes: 1 })] }),
        liveService('adopted', { id: 'adadadadad' }),
        liveService('legacy', { id: 'lglglglglg' }),
        liveService('ts', { id: 'tststststs', serviceType: 'POSTGRES' }),
        liveService('sleepy', { id: 'slslslslsl', status: 'PAUSED' }),
        liveService('gone-soon', { id: 'gsgsgsgsgs' }),
        liveService('stranger', { id: 'stststststs' }),
      ],
    }),
    lockfile({
      'vpc.edge': '2000000002',
      'vpc.stale': '3000000003',
      'peering.stale.vpc-x': 'pcx-vpc-x',
      'service.db': { id: 'dbdbdbdbdb', passwordVersion: 1 },
      'service.old-name': 'lglglglglg',
      'service.ts': { id: 'tststststs', protect: false },
      'service.sleepy': 'slslslslsl',
      'service.gone-soon': 'gsgsgsgsgs',
      'service.vanished': 'vnvnvnvnvn',
      'replica_set.db.reporting': 'rsrsrsrsrs',
    }),
    { replace: ['service.ts'], allowDataLoss },
  );
}

/** One service whose size changes, among `n` unchanged ones. */
export function oneChangePlan(n: number): Plan {
  const names = Array.from({ length: n }, (_, i) => `svc-${String(i).padStart(4, '0')}`);
  return plan(
    desiredState({ services: names.map((k, i) => desiredService(k, i === 0 ? { size: { cpuMillis: 2000, memoryGbs: 8 } } : {})) }),
    liveState({ services: names.map((k) => liveService(k, { id: `id-${k}`, size: { cpuMillis: 1000, memoryGbs: 4 } })) }),
    lockfile(Object.fromEntries(names.map((k) => [`service.${k}`, `id-${k}`]))),
  );
}
