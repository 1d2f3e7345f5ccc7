// The pure export: live state -> YAML + lockfile, checked the way users rely on it: the YAML
// loads, and planning it against the same live state and lockfile changes nothing.
import { describe, expect, it } from 'vitest';
import { loadConfigText } from '../../../src/config/index.js';
import { exportLiveState } from '../../../src/export/index.js';
import { describeLostBinding, lostBindings } from '../../../src/export/lockfile.js';
import type { LiveState, Lockfile, Plan } from '../../../src/model/index.js';
import { planChanges } from '../../../src/planner/index.js';
import { livePeering, liveReplicaSet, liveService, liveState, liveVpc } from './builders.js';

const SCHEMA = 'schemas/dbform.schema.json';

function roundTrip(live: LiveState, previous?: Lockfile): { yaml: string; lock: Lockfile; plan: Plan; skipped: string[] } {
  const result = exportLiveState(live, { schemaRef: SCHEMA, ...(previous ? { previous } : {}) });
  const loaded = loadConfigText(result.yaml, 'dbform.yaml', { env: {} });
  if (!loaded.ok) throw new Error(`export does not load:\n${loaded.errors.map((e) => e.message).join('\n')}\n${result.yaml}`);
  const plan = planChanges(loaded.value, live, result.lock, { replace: [], target: [], allowDataLoss: false });
  return { yaml: result.yaml, lock: result.lock, plan, skipped: result.document.skipped };
}

const ops = (plan: Plan) => plan.actions.map((a) => `${a.address} ${a.op}`);

describe('export of services', () => {
  it('skips services being deleted, with their replica sets, and says so', () => {
    const gone = liveService('old', { status: 'DELETING' });
    gone.replicaSets = [liveReplicaSet('r', gone.id, { status: 'deleting' })];
    const deleted = liveService('older', { status: 'DELETED' });
    const kept = liveService('db');
    const r = roundTrip(liveState([gone, deleted, kept]));
    expect(r.skipped).toEqual([`service "old" (${gone.id}): it is DELETING`, `service "older" (${deleted.id}): it is DELETED`]);
    expect(r.yaml).toContain(`#   - service "old" (${gone.id}): it is DELETING\n`);
    expect(Object.keys(r.lock.resources)).toEqual(['service.db']);
    expect(r.plan.actions).toEqual([]);
  });

  it('skips replica sets being deleted and exports failed ones with a comment (the plan replaces them)', () => {
    const s = liveService('db', { size: { cpuMillis: 1000, memoryGbs: 4 } });
    const going = liveReplicaSet('going', s.id, { status: 'deleting' });
    const broken = liveReplicaSet('broken', s.id, { status: 'error' });
    s.replicaSets = [going, broken, liveReplicaSet('fine', s.id, { status: 'resizing', pooler: true, environment: 'PROD' })];
    const r = roundTrip(liveState([s]));
    expect(r.skipped).toEqual([`replica set "going" (${going.id}) of service.db: it is deleting`]);
    expect(r.yaml).toContain('      broken:\n        # status error: a plan replaces this replica set (delete + create)\n        cpu_millis: 500\n');
    expect(ops(r.plan)).toEqual(['replica_set.db.broken deleteReplicaSet', 'replica_set.db.broken createReplicaSet']);
    expect(r.plan.actions.every((a) => a.reason === 'failed')).toBe(true);
  });

  it('writes paused, pausing and resuming services with their pooler, and plans nothing', () => {
    const paused = liveService('paused', { status: 'PAUSED', pooler: true });
    const pausing = liveService('pausing', { status: 'PAUSING', pooler: false, ha: { replicas: 1, syncReplicas: 0 }, size: { cpuMillis: 500, memoryGbs: 2 } });
    const resuming = liveService('resuming', { status: 'RESUMING', pooler: true });
    const r = roundTrip(liveState([paused, pausing, resuming]));
    expect(r.yaml).toMatch(/ {2}paused:\n(?:.*\n)*? {4}pooler: true\n {4}vpc: null\n {4}paused: true\n/);
    expect(r.yaml).toMatch(/ {2}pausing:\n(?:.*\n)*? {4}pooler: false\n {4}vpc: null\n {4}paused: true\n/);
    expect(r.yaml).toMatch(/ {2}resuming:\n(?:.*\n)*? {4}pooler: true\n {4}vpc: null\n {4}paused: false\n/);
    expect(r.plan.actions).toEqual([]);
  });

  it('maps service types to addons, and leaves unknown types, sizes, environments, HA and regions unmanaged', () => {
    const services = [
      liveService('ts', { serviceType: 'TIMESERIESDB' }),
      liveService('vector', { serviceType: 'VECTOR' }),
      liveService('with-ai', { serviceType: 'POSTGRES', addons: ['ai'] }),
      liveService('ts-ai', { serviceType: 'TIMESERIESDB', addons: ['ai', 'time-series'] }),
      liveService('plain', { serviceType: 'POSTGRES', addons: [] }),
      liveService('graph', { serviceType: 'GRAPHDB' }),
      liveService('nosize', { size: undefined }),
      liveService('oddsize', { size: { cpuMillis: 3000, memoryGbs: 12 } }),
      liveService('staging', { environment: 'STAGING' }),
      liveService('oddha', { ha: { replicas: 1, syncReplicas: 1 } }),
      liveService('mars', { regionCode: 'Mars' }),
    ];
    const r = roundTrip(liveState(services));
    expect(r.yaml).toMatch(/ {2}ts:\n {4}addons: \[time-series\]\n/);
    // VECTOR is the legacy spelling of a plain service with AI: its `ai` is not dropped.
    expect(r.yaml).toMatch(/ {2}vector:\n {4}addons: \[ai\]\n/);
    // Addons the API reports are written as reported; the type still decides time-series.
    expect(r.yaml).toMatch(/ {2}with-ai:\n {4}addons: \[ai\]\n/);
    expect(r.yaml).toMatch(/ {2}ts-ai:\n {4}addons: \[ai, time-series\]\n/);
    expect(r.yaml).toMatch(/ {2}plain:\n {4}addons: \[\]\n/);
    expect(r.yaml).toContain('  graph:\n    # service_type "GRAPHDB" has no addons spelling: addons left unmanaged\n    region_code: us-east-1\n');
    expect(r.yaml).toContain('    # the API reports no size: cpu_millis and memory_gbs left unmanaged\n');
    expect(r.yaml).toContain('    # size 3000/12 is not an allowed size: left unmanaged\n');
    expect(r.yaml).toContain('    # environment "STAGING" is not DEV or PROD: left unmanaged\n');
    expect(r.yaml).toContain('    # HA 1/1 (replicas/sync) cannot be written in a config: ha left unmanaged\n');
    expect(r.yaml).toContain('    # region "Mars" is not a region code: region_code left unmanaged\n');
    expect(r.plan.actions).toEqual([]);
  });

  it('skips names a config cannot hold and keeps one of each duplicate name (oldest, then lowest ID)', () => {
    const empty = liveService('');
    const long = liveService('n'.repeat(129));
    const newer = liveService('dup', { created: '2026-02-01T00:00:00Z' });
    const older = liveService('dup', { created: '2026-01-15T00:00:00Z' });
    const r = roundTrip(liveState([empty, long, newer, older]));
    expect(r.lock.resources['service.dup']).toEqual({ id: older.id });
    expect(r.skipped).toEqual([
      `service "" (${empty.id}): its name is not 1-128 characters`,
      `service "dup" (${newer.id}): service ${older.id} has the same name, and names must be unique in a config`,
      `service "${'n'.repeat(129)}" (${long.id}): its name is not 1-128 characters`,
    ]);
    expect(r.plan.actions).toEqual([]);
    expect(r.plan.summary.unmanaged).toBe(3);
  });

  it('writes the lineage of forks as a comment, never a fork: block', () => {
    const parent = liveService('parent');
    const child = liveService('child', { forkedFrom: { serviceId: parent.id, projectId: 'proj-demo' } });
    const orphan = liveService('orphan', { forkedFrom: { serviceId: 'gone000001' } });
    const foreign = liveService('foreign', { forkedFrom: { serviceId: 'abc', projectId: 'proj-other' } });
    const r = roundTrip(liveState([parent, child, orphan, foreign]));
    expect(r.yaml).toContain(`  child:\n    # forked from service.parent (${parent.id})\n`);
    expect(r.yaml).toContain('  orphan:\n    # forked from service gone000001 (not in this export)\n');
    expect(r.yaml).toContain('  foreign:\n    # forked from service abc of project proj-other\n');
    expect(r.yaml).not.toMatch(/^\s*fork:/m);
    expect(r.plan.actions).toEqual([]);
  });
});

describe('export of VPCs and peerings', () => {
  it('refers to exported VPCs by key and to others by ID; skips duplicate names and overlapping blocks', () => {
    const main = liveVpc('main', '10.0.0.0/16');
    const twin = liveVpc('main', '10.1.0.0/16');
    const overlap = liveVpc('wide', '10.0.0.0/8');
    const attachedMain = liveService('a', { vpcId: main.id });
    const attachedTwin = liveService('b', { vpcId: twin.id });
    const attachedWide = liveService('c', { vpcId: overlap.id });
    const r = roundTrip(liveState([attachedMain, attachedTwin, attachedWide], [twin, overlap, main]));
    const [first, second] = [main, twin].sort((x, y) => (x.id < y.id ? -1 : 1));
    expect(r.lock.resources['vpc.main']).toEqual({ id: first!.id });
    expect(r.skipped).toContain(`VPC "main" (${second!.id}): VPC ${first!.id} has the same name, and names must be unique in a config`);
    expect(r.skipped.some((s) => s.startsWith(`VPC "wide" (${overlap.id}): its CIDR 10.0.0.0/8 overlaps`))).toBe(true);
    expect(r.yaml).toContain(`    vpc: { id: "${overlap.id}" }\n`);
    expect(r.plan.actions).toEqual([]);
  });

  it('exports peerings sorted by peer VPC ID; failed ones with a comment, unwritable ones skipped', () => {
    const vpc = liveVpc('net', '10.0.0.0/16');
    const failed = livePeering(vpc.id, 'vpc-b', { status: 'failed', peerAccountId: '12', errorMessage: 'peer_account_id must be\n12 digits' });
    vpc.peerings = [livePeering(vpc.id, 'vpc-c'), failed, livePeering(vpc.id, 'vpc-a'), livePeering(vpc.id, 'vpc-d', { peerRegionCode: 'nowhere' })];
    const r = roundTrip(liveState([], [vpc]));
    const peers = [...r.yaml.matchAll(/peer_vpc_id: (\S+)/g)].map((m) => m[1]);
    expect(peers).toEqual(['vpc-a', 'vpc-b', 'vpc-c']);
    expect(r.yaml).toContain('      # status failed: peer_account_id must be\\u000A12 digits; a plan replaces this peering (delete + create)\n      - peer_account_id: "12"\n');
    expect(ops(r.plan)).toEqual(['peering.net.vpc-b deleteVPCPeering', 'peering.net.vpc-b createVPCPeering']);
    expect(r.skipped).toEqual([`peering ${vpc.peerings[3]!.id} of VPC "net" (${vpc.id}) to "vpc-d": its peer region "nowhere" is not a region code`]);
  });
});

describe('export with an existing lockfile', () => {
  it('keeps the keys it binds, its password versions and protect flags', () => {
    const s = liveService('Billing DB');
    const rs = liveReplicaSet('Reporting', s.id);
    s.replicaSets = [rs];
    const vpc = liveVpc('Main Net', '10.0.0.0/16');
    const previous: Lockfile = {
      version: 1,
      projectId: 'proj-demo',
      resources: {
        'service.billing': { id: s.id, passwordVersion: 3, protect: true },
        'replica_set.billing.reports': { id: rs.id },
        'vpc.main': { id: vpc.id, protect: true },
      },
    };
    const r = roundTrip(liveState([s], [vpc]), previous);
    expect(r.lock.resources).toEqual(previous.resources);
    expect(r.yaml).toContain('  billing:\n    name: "Billing DB"\n');
    expect(r.yaml).toContain('      reports:\n        name: Reporting\n');
    expect(r.yaml).toContain('  main:\n    name: "Main Net"\n');
    expect(r.plan.actions).toEqual([]);
    expect(lostBindings(previous, r.lock)).toEqual([]);
  });

  it('prefers the bound resource of a duplicate name, and reports bindings it would drop or move', () => {
    const a = liveService('dup');
    const b = liveService('dup');
    const c = liveService('other');
    const previous: Lockfile = {
      version: 1,
      projectId: 'proj-demo',
      resources: { 'service.dup': { id: b.id }, 'service.gone': { id: 'zzzzzzzzzz' }, 'service.x': { id: c.id }, 'replica_set.x.r': { id: 'rrrrrrrrrr' } },
    };
    const r = roundTrip(liveState([a, b, c]), previous);
    expect(r.lock.resources['service.dup']).toEqual({ id: b.id });
    const lost = lostBindings(previous, { ...r.lock, resources: { ...r.lock.resources, 'service.x': { id: 'moved00000' }, 'service.y': { id: c.id } } });
    expect(lost.map(describeLostBinding)).toEqual(['replica_set.x.r (rrrrrrrrrr): not in this export', 'service.gone (zzzzzzzzzz): not in this export', `service.x (${c.id}): now service.y`]);
  });
});

describe('rendering', () => {
  it('is deterministic: the input order does not change a byte', () => {
    const vpcs = [liveVpc('b', '10.1.0.0/16'), liveVpc('a', '10.2.0.0/16')];
    vpcs[0]!.peerings = [livePeering(vpcs[0]!.id, 'p2'), livePeering(vpcs[0]!.id, 'p1')];
    const s1 = liveService('z', { vpcId: vpcs[1]!.id });
    s1.replicaSets = [liveReplicaSet('r2', s1.id), liveReplicaSet('r1', s1.id)];
    const services = [s1, liveService('Y'), liveService('y')];
    const one = exportLiveState(liveState(services, vpcs), { schemaRef: SCHEMA });
    const reversed = liveState([...services].reverse().map((s) => ({ ...s, replicaSets: [...s.replicaSets].reverse() })), [...vpcs].reverse().map((v) => ({ ...v, peerings: [...(v.peerings ?? [])].reverse() })));
    const two = exportLiveState(reversed, { schemaRef: SCHEMA });
    expect(two.yaml).toBe(one.yaml);
    expect(two.lock).toEqual(one.lock);
  });

  it('writes a minimal file for an empty project', () => {
    const r = roundTrip(liveState([]));
    expect(r.yaml).toBe(
      '# yaml-language-server: $schema=schemas/dbform.schema.json\n' +
        '# Exported by `dbform export` from project proj-demo: 0 VPCs, 0 peerings, 0 services, 0 replica sets.\n' +
        '# Its lockfile binds each address to its ID. Passwords are never exported: each\n' +
        '# service shows, commented out, where a `password:` block would go.\n' +
        'version: 1\nproject_id: proj-demo\n',
    );
  });
});
