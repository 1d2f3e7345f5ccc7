// In flight is not drift (SPEC section 14): an operation an earlier apply sent and did not see
// finish is recorded in the state as pending. The plan lists its resource as settling with the op,
// never shows what it sets as changed outside dbform, and sends it again only once the resource
// settled without the values.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { renderPlanMarkdown, renderPlanText } from '../../../src/cli/render/index.js';
import { fieldIdsOfPaths, holdsValues } from '../../../src/kinds/field-paths.js';
import { kindDef } from '../../../src/kinds/index.js';
import { parseLockfileJson, serializeLockfile, type LockEntry, type PendingOp } from '../../../src/model/index.js';
import { fromPlanJson, toPlanJson } from '../../../src/planner/index.js';
import { desiredService, desiredState, liveService, liveState, lockfile, ops, plan, PROJECT } from './builders.js';

const SMALL = { cpuMillis: 500, memoryGbs: 2 } as const;
const BIG = { cpuMillis: 1000, memoryGbs: 4 } as const;
const RESIZE: PendingOp = { op: 'resizeService', sets: { cpu_millis: 1000, memory_gbs: 4 }, since: '2026-05-01T10:00:00.000Z' };
const APPLIED = { name: 'db', size: SMALL };

const entry = (o: Partial<LockEntry> = {}): LockEntry => ({ id: 'svc-db', applied: APPLIED, pending: RESIZE, ...o });
const planOne = (live: Parameters<typeof liveService>[1], e: LockEntry = entry(), desired = desiredService('db', { size: BIG })) =>
  plan(desiredState({ services: [desired] }), liveState({ services: [liveService('db', live)] }), lockfile({ 'service.db': e }));

describe('the pending record in the state', () => {
  it('is written sorted, keeps the paths as plans name them, and reads back the same whatever order it was built in', () => {
    const shuffled: PendingOp = { since: RESIZE.since, sets: { memory_gbs: 4, cpu_millis: 1000, 'ha.replicas': 2 }, op: 'resizeService' };
    const text = serializeLockfile(lockfile({ 'service.db': entry({ pending: shuffled }) }));
    expect(text).toContain(
      '"pending": {\n        "op": "resizeService",\n        "sets": {\n          "cpu_millis": 1000,\n          "ha.replicas": 2,\n          "memory_gbs": 4\n        },\n        "since": "2026-05-01T10:00:00.000Z"\n      }',
    );
    const back = parseLockfileJson(JSON.parse(text));
    expect(back.ok && back.value.resources['service.db']!.pending).toEqual(shuffled);
    expect(serializeLockfile(back.ok ? back.value : lockfile())).toBe(text);
  });

  it('names each bad part of a pending record; an entry without one (any older state) reads as before', () => {
    const bad = parseLockfileJson({
      version: 1,
      project_id: PROJECT,
      resources: {
        'service.a': { id: 'a', pending: { op: 'resizeEverything', sets: { cpu_millis: [1] }, since: '' } },
        'service.b': { id: 'b', pending: 'resize' },
      },
    });
    expect(bad.ok ? [] : bad.errors).toEqual([
      'resources["service.a"].pending.op must be an operation name (found "resizeEverything")',
      'resources["service.a"].pending.sets must be an object of field -> string, number, boolean or null',
      'resources["service.a"].pending.since must be a non-empty string',
      'resources["service.b"].pending must be an object with op, sets and since',
    ]);
    const old = parseLockfileJson({ version: 1, project_id: PROJECT, resources: { 'service.db': { id: 'svc-db' } } });
    expect(old.ok && old.value.resources['service.db']).toEqual({ id: 'svc-db' });
  });
});

describe('a plan over a pending operation', () => {
  it('while the resource is still in transition: settling with the op, no second resize, no drift, not unchanged', () => {
    const p = planOne({ status: 'UPGRADING', size: SMALL });
    expect(ops(p)).toEqual([]);
    expect(p.settling).toEqual([{ address: 'service.db', kind: 'service', id: 'svc-db', status: 'UPGRADING', op: 'resizeService' }]);
    expect(p.drift).toBeUndefined();
    expect(p.summary).toMatchObject({ update: 0, settling: 1, unchanged: 0 });
    // The same state without the record: the resize is planned again (what issue 24 saw).
    expect(ops(planOne({ status: 'UPGRADING', size: SMALL }, entry({ pending: undefined })))).toEqual(['service.db resizeService']);
  });

  it('a live resource that already shows the values it sets (mid-transition or done) is not drift; without the record it is', () => {
    for (const status of ['UPGRADING', 'READY']) {
      const p = planOne({ status, size: BIG });
      expect(p.drift, status).toBeUndefined();
      expect(ops(p), status).toEqual([]);
      expect(p.settling.map((s) => s.op), status).toEqual(status === 'READY' ? [] : ['resizeService']);
    }
    const unrecorded = planOne({ status: 'READY', size: BIG }, entry({ pending: undefined }));
    expect(unrecorded.drift).toEqual([
      { address: 'service.db', id: 'svc-db', deleted: false, changes: [{ path: 'cpu_millis', before: 500, after: 1000 }, { path: 'memory_gbs', before: 2, after: 4 }] },
    ]);
  });

  it('once the resource settled without the values, the op is planned again, as usual', () => {
    const p = planOne({ status: 'READY', size: SMALL });
    expect(ops(p)).toEqual(['service.db resizeService']);
    expect(p.actions[0]!.request).toEqual({ cpu_millis: '1000', memory_gbs: '4' });
    expect(p.settling).toEqual([]);
    expect(p.drift).toBeUndefined();
  });

  it('a different change than the one in flight is planned (the config moved on), and so is another op on the resource', () => {
    const bigger = planOne({ status: 'UPGRADING', size: SMALL }, entry(), desiredService('db', { size: { cpuMillis: 2000, memoryGbs: 8 }, pooler: true }));
    expect(ops(bigger)).toEqual(['service.db resizeService', 'service.db enablePooler']);
    expect(bigger.settling.map((s) => s.op)).toEqual(['resizeService']);
  });

  it('only the fields the pending op sets are spared: another field changed outside dbform is still drift', () => {
    const p = planOne({ status: 'UPGRADING', size: BIG, pooler: true }, entry({ applied: { ...APPLIED, pooler: false } }), desiredService('db', { size: BIG, pooler: false }));
    expect(p.drift).toEqual([{ address: 'service.db', id: 'svc-db', deleted: false, changes: [{ path: 'pooler', before: false, after: true }] }]);
    expect(ops(p)).toEqual(['service.db disablePooler']);
  });
});

describe('the op in the plan outputs', () => {
  const p = planOne({ status: 'UPGRADING', size: SMALL });

  it('text and markdown say which op is in flight', () => {
    const line = '… service.db  UPGRADING (resizeService sent by an earlier apply, not seen to finish)';
    expect(renderPlanText(p, { color: false })).toContain(`  ${line}\n`);
    expect(renderPlanMarkdown(p)).toContain('> - <code>service.db</code> UPGRADING (resizeService sent by an earlier apply, not seen to finish)\n');
  });

  it('JSON carries it on the settling entry, validates against schemas/plan.schema.json, and reads back as written', () => {
    const schema = JSON.parse(readFileSync(join(import.meta.dirname, '../../../schemas/plan.schema.json'), 'utf8'));
    const validate = new Ajv2020.default({ allErrors: true, strict: true }).compile(schema);
    const json = JSON.parse(JSON.stringify(toPlanJson(p)));
    expect(json.settling).toEqual([{ address: 'service.db', id: 'svc-db', status: 'UPGRADING', op: 'resizeService' }]);
    expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
    const read = fromPlanJson(json);
    expect(read.ok && read.value.settling).toEqual(p.settling);
    expect(validate({ ...json, settling: [{ ...json.settling[0], op: 'resizeEverything' }] })).toBe(false);
  });
});

describe('field paths', () => {
  const service = kindDef('service');

  it('name the field a change or drift path belongs to', () => {
    expect([...fieldIdsOfPaths(service, ['cpu_millis', 'memory_gbs', 'ha.sync_replicas', 'vpc', 'vpc_id', 'password.version', 'pooler', 'nowhere'])]).toEqual([
      'size',
      'ha',
      'vpc',
      'password',
      'pooler',
    ]);
  });

  it('tell whether a live resource holds what an op set: yes, no, or cannot tell (a VPC named by its address)', () => {
    const live = liveService('db', { size: BIG, ha: { replicas: 2, syncReplicas: 1 } });
    expect(holdsValues(service, live, { cpu_millis: 1000, memory_gbs: 4 })).toBe(true);
    expect(holdsValues(service, live, { 'ha.replicas': 2, 'ha.sync_replicas': 1 })).toBe(true);
    expect(holdsValues(service, live, { cpu_millis: 2000, memory_gbs: 8 })).toBe(false);
    expect(holdsValues(service, live, { vpc: 'vpc.main' })).toBeUndefined();
    expect(holdsValues(service, live, { vpc: 'vpc.main', cpu_millis: 2000 })).toBe(false);
  });
});
