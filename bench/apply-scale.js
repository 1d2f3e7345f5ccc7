// Apply at scale (SPEC section 8, raised in turn 2):
// - what waiting for one resize transfers, in a project of 10 services and in one of 10,000
//   (bytes on the wire between client and emulator, bench/proxy.js), reading one list per tick
//   (before turn 2) and choosing per tick between the list and per-resource reads (now);
// - 2,000 creates at the default --parallelism and poll, against their critical path; the same
//   before turn 2 (each create's bookkeeping before its first poll, among the rest); before turn 2
//   against now on compressed time; and `dbform apply` of the 2,000 end to end.
// "Before turn 2" is the baseline build's engine (bench/baseline.js); without one those rows are skipped.
import { join } from 'node:path';
import { ApiClient } from '../dist/api/client.js';
import { readLockfile } from '../dist/lockfile/index.js';
import { emptySummary } from '../dist/model/index.js';
import { withBaseline } from './apply.js';
import { cliApply, engineApply, onFreshEmulator, runPlan } from './engine.js';
import { startByteCounter } from './proxy.js';
import { Fleet, ids, PROJECT_ID, scratchDir, startWorldEmulator, TOKEN, writeWorld } from './world.js';

/** A plan of one resize of svc-0 (hand-written: planning a 10,000-service world is not what is measured). */
function resizePlan(serviceId, size) {
  const action = {
    id: 'a1',
    address: 'service.svc-0',
    kind: 'service',
    op: 'resizeService',
    reason: 'changed',
    risk: 'none',
    dependsOn: [],
    changes: [],
    refs: { target: { id: serviceId, address: 'service.svc-0' } },
    request: { cpu_millis: String(size.cpu), memory_gbs: String(size.mem) },
  };
  return { formatVersion: 1, projectId: PROJECT_ID, summary: emptySummary(), actions: [action], bindings: [], settling: [], fingerprints: {}, stateFingerprint: 'sha256:0', diagnostics: [] };
}

/** One resize waited for in a world of `services`, read by list alone (before) and by the cheaper of list and GET (now). */
async function bytesIn(services, o, base) {
  const world = writeWorld(scratchDir(`apply-bytes-${services}`), services);
  const emulator = await startWorldEmulator(world, { timeScale: o.timeScale });
  const proxy = await startByteCounter(emulator.url);
  const client = new ApiClient({ baseUrl: proxy.url, token: TOKEN });
  const proj = { emulator, dir: world.dir, lockfile: world.lockfile, pgpass: join(world.dir, 'pgpass') };
  try {
    const lock = await readLockfile(world.lockfile, PROJECT_ID);
    const out = {};
    // The world's services are 2000/8: each run moves svc-0 to a size it does not have.
    const run = async (size, before) => {
      proxy.reset();
      const r = await runPlan(proj, client, { plan: resizePlan(ids.service(0), size), lock }, { parallelism: 10, pollMs: o.pollMs, timeScale: o.timeScale, ...(before ? { before } : {}) });
      return { ms: r.ms, bytes: proxy.bytes(), pollRequests: r.pollRequests, requests: r.stats.requests };
    };
    out.before = await withBaseline(base, (before) => run({ cpu: 4000, mem: 16 }, before));
    out.now = await run({ cpu: 1000, mem: 4 });
    return { services, ...out };
  } finally {
    await client.close();
    await proxy.close();
    await emulator.close();
  }
}

async function waitingBytes(o, base, log) {
  const out = [];
  for (const services of o.sizes) {
    log(`apply: one resize waited for in a ${services}-service project, bytes on the wire`);
    out.push(await bytesIn(services, o, base));
  }
  return { settings: o, sizes: out };
}

/** 2,000 creates: at the defaults (time scale 1), with the bookkeeping first, before turn 2 vs now (compressed), and the CLI. */
async function manyCreates(o, base, log) {
  const config = new Fleet(o.count).config();
  const defaults = { parallelism: 10, pollMs: 1000, timeScale: 1 };
  log(`apply: ${o.count} creates at the defaults (parallelism 10, DBFORM_POLL_MS 1000, time scale 1)`);
  const now = await onFreshEmulator('apply-creates', 1, (p) => engineApply(p, config, defaults));
  log(`apply: ${o.count} creates at the defaults, before turn 2 (each create's lockfile and pgpass write before its first poll)`);
  const bookkeepingFirst = await withBaseline(base, (before) => onFreshEmulator('apply-creates-bookkeeping', 1, (p) => engineApply(p, config, { ...defaults, before })));
  const compressed = { parallelism: 10, pollMs: o.compressed.pollMs, timeScale: o.compressed.timeScale };
  log(`apply: ${o.count} creates, before turn 2 (time scale ${compressed.timeScale})`);
  const before = await withBaseline(base, (b) => onFreshEmulator('apply-creates-before', compressed.timeScale, (p) => engineApply(p, config, { ...compressed, before: b })));
  log(`apply: ${o.count} creates, now (time scale ${compressed.timeScale})`);
  const nowCompressed = await onFreshEmulator('apply-creates-now', compressed.timeScale, (p) => engineApply(p, config, compressed));
  log(`apply CLI: ${o.count} creates`);
  const cli = await onFreshEmulator('apply-creates-cli', 1, (p) => cliApply(p, config, { timeScale: 1 }));
  return { settings: o, now, bookkeepingFirst, before, nowCompressed, cli };
}

/** options: { bytes: { sizes, timeScale, pollMs }, creates: { count, compressed: { timeScale, pollMs } }, baseline: { dir } or { skipped }, log } */
export async function benchApplyScale({ bytes, creates, baseline, log }) {
  return { bytes: await waitingBytes(bytes, baseline, log), creates: await manyCreates(creates, baseline, log) };
}
