// The apply sections of the report: wall time against the critical path, width, what waiting costs,
// and (bench/apply-scale.js) waiting in a large project and 2,000 creates. "Before" rows are the
// baseline build's engine (bench/baseline.js), same run; a run without the baseline skips them.
import { simulateLooks } from './critical-path.js';
import { code, judge, mib, ms, n, table, times } from './report-format.js';

/** A before-turn-2 row's cells, or one cell saying why it was not measured. */
const skippedRow = (name, r, width) => [name, `skipped: ${r.skipped}`, ...Array.from({ length: width - 2 }, () => '')];

const kb = (bytes) => (bytes >= 1e6 ? `${(bytes / 2 ** 20).toFixed(1)} MiB` : `${(bytes / 1024).toFixed(1)} KiB`);
const settingsCell = (r) => `${r.timeScale} / ${r.pollMs} ms / ${r.parallelism}`;

function applySettings(a) {
  const s = a.settings;
  return (
    `Engine rows: the engine in process wired as \`dbform apply\` wires it (bench/engine.js), timer around the plan's execution only, median of ${s.runs} runs unless one run is said; the emulator runs in its own process. ` +
    `"Scale / poll / par." is the emulator's \`--time-scale\`, \`DBFORM_POLL_MS\` and \`--parallelism\`; the compressed engine rows (${s.timeScale}, ${s.pollMs} ms) poll at about 1/30 of the shortest wait, as a 1 s poll is against real operations of minutes. ` +
    'CLI rows: `dbform apply --auto-approve` end to end (process start, config, live read, lock, execution) at every default (`--parallelism 10`, `DBFORM_POLL_MS` 1000) and the SPEC\'s durations (time scale 1), one run. ' +
    'Naive: the same plan one operation at a time (`--parallelism 1`) with a GET per waiting resource per look. "Before turn 2": the engine of the baseline build (bench/baseline.js, main before issue 17), wired the same way: waits holding their slots, the x1.5 poll schedule, one services list per tick, each create\'s bookkeeping before its first poll.'
  );
}

const CHAIN_NAMES = {
  chain: 'Chain: VPC -> peering; service -> replica set',
  'chain-attach': 'Chain with attach: VPC -> peering, attach; service -> replica set, attach',
  deep: 'Deep chain: service -> fork -> setHA -> replica set; attaches; VPC -> peering',
};

export function applyCriticalSection(a, v) {
  const w = a.settings.width;
  const row = (name, r, { naive, judged = true, label = 'before', command }) => [
    name, n(r.actions), settingsCell(r), ms(r.criticalMs), ms(r.quantizedMs), ms(r.ms), times(r.ms / r.criticalMs),
    judged ? judge(v, `apply <= 1.2 x critical path: ${name}`, times(r.ms / r.criticalMs), r.ms <= 1.2 * r.criticalMs) : label,
    naive ? ms(naive.ms) : '', naive ? times(naive.ms / r.ms) : '', command,
  ];
  const engineCmd = code('npm run bench -- --only apply');
  const rows = [
    row('One resize (engine)', a.one, { command: engineCmd }),
    row(`${w} independent resizes (engine)`, a.wide, { naive: a.naive, command: engineCmd }),
    ...Object.entries(a.chains).map(([k, c]) => row(`${CHAIN_NAMES[k]} (engine)`, c.engine, { naive: c.naive, command: engineCmd })),
    // The target is about the default poll against the SPEC's durations; quick mode compresses them.
    row('Deep chain at the default poll (engine, one run)', a.defaultPoll.now, { judged: a.defaultPoll.now.timeScale === 1, label: 'not judged: durations compressed (--quick)', command: engineCmd }),
    a.defaultPoll.before.skipped
      ? skippedRow('Deep chain at the default poll, before turn 2 (engine, one run)', a.defaultPoll.before, 11)
      : row('Deep chain at the default poll, before turn 2: the x1.5 schedule (engine, one run)', a.defaultPoll.before, { judged: false, command: engineCmd }),
  ];
  for (const [key, name] of [['one', 'One resize'], ['wide', `${w} independent resizes`], ['deep', 'Deep chain']]) {
    const r = a.cli[key];
    if (r) rows.push(row(`${name} (CLI)`, { ...r, pollMs: 1000, parallelism: 10 }, { command: code(`dbform apply -f ${r.config} --auto-approve`) }));
  }
  return [
    "### Apply wall time within 1.2 x the critical path of the plan's waits",
    '',
    `${applySettings(a)} The critical path is the longest dependency chain of the plan weighted by the emulator's timelines (SPEC section 6 durations x time scale); "with poll ticks" is the same chain when every wait ends at the first look after its timeline on the row's schedule (src/api/poll-schedule.ts): the best that schedule allows.`,
    '',
    table(['Plan', 'Actions', 'Scale / poll / par.', 'Critical path', 'With poll ticks', 'dbform wall', 'vs critical path', 'Result', 'Naive wall', 'Naive / dbform', 'Command'], rows),
    '',
    pollCostSection(),
  ].join('\n');
}

/** What each schedule costs for one wait of a given length: looks (requests) and how late it sees the end. */
function pollCostSection() {
  const durations = [3_000, 5_000, 30_000, 120_000, 600_000, 1_800_000];
  const label = (d) => (d < 60_000 ? `${d / 1000} s` : `${d / 60_000} min`);
  const rows = durations.map((d) => {
    const old = simulateLooks('backoff', 1000, d);
    const now = simulateLooks('elapsed', 1000, d);
    return [label(d), n(old.looks), `${ms(old.seenAt - d)} (${times(old.seenAt / d)})`, n(now.looks), `${ms(now.seenAt - d)} (${times(now.seenAt / d)})`, times(now.looks / old.looks)];
  });
  return [
    '#### What the poll schedule costs in requests (DBFORM_POLL_MS = 1000)',
    '',
    'One wait alone, its status unchanged until the end (computed from src/api/poll-schedule.ts, and for before turn 2 from its copy in bench/critical-path.js; not measured): looks = requests of that wait (a list or a GET each; waits that overlap share them). Before turn 2: first look after 1 s, then 1.5 x the previous interval, capped at 10 s. Now: every 1 s until a fifth of the time since the status last changed is longer, then that fifth, capped at 10 s; a status change starts the 1 s looks again. Ticks of one source are never closer than 1 s.',
    '',
    table(['Operation takes', 'Looks before turn 2', 'Seen late by (before)', 'Looks now', 'Seen late by (now)', 'Requests now / before'], rows),
  ].join('\n');
}

export function applyWidthSection(a, v) {
  const w = a.settings.width;
  const p = a.settings.parallelism;
  const rows = [
    [`Engine, --parallelism ${p}`, ms(a.one.ms), ms(a.wide.ms), times(a.wide.ms / a.one.ms), judge(v, `${w} resizes <= 1.1 x one at --parallelism ${p} (engine)`, times(a.wide.ms / a.one.ms), a.wide.ms <= 1.1 * a.one.ms), `${ms(a.naive.ms)} (${times(a.naive.ms / a.one.ms)} of one)`],
    a.wideBefore.skipped
      ? skippedRow(`Engine, --parallelism ${p}, before turn 2`, a.wideBefore, 6)
      : [`Engine, --parallelism ${p}, before turn 2: waits holding their slots (one run)`, ms(a.one.ms), ms(a.wideBefore.ms), times(a.wideBefore.ms / a.one.ms), 'before', ''],
  ];
  if (a.cli.one && a.cli.wide) {
    rows.push(['CLI, every default', ms(a.cli.one.ms), ms(a.cli.wide.ms), times(a.cli.wide.ms / a.cli.one.ms), judge(v, `${w} resizes <= 1.1 x one (CLI, defaults)`, times(a.cli.wide.ms / a.cli.one.ms), a.cli.wide.ms <= 1.1 * a.cli.one.ms), '']);
  }
  return [
    `### ${w} independent resizes finish within 1.1 x the time of one, at the default --parallelism`,
    '',
    `Settings as above (engine: time scale ${a.settings.timeScale}, DBFORM_POLL_MS ${a.settings.pollMs}). --parallelism bounds the actions sending requests; a waiting action holds no slot (SPEC section 5). Before turn 2 a wait held its slot, so ${w} resizes at ${p} took ${w / p} rounds. The naive reference applies the same plan one resize at a time.`,
    '',
    table(['Run', 'One resize', `${w} resizes`, 'Ratio', 'Result', 'Naive'], rows),
  ].join('\n');
}

export function applyPollSection(a, v) {
  const w = a.settings.width;
  const reads = (r) => {
    const q = r.stats.requests;
    const parts = [['list', q['GET /projects/{project_id}/services']], ['GET service', q['GET /projects/{project_id}/services/{service_id}']]].filter(([, c]) => c);
    return parts.map(([k, c]) => `${c} ${k}`).join(', ') || 'none';
  };
  const rows = [
    ['One resize', '1', n(a.one.pollRequests), reads(a.one), '1.00x', ''],
    [`${w} resizes sent together`, n(w), n(a.concurrent.pollRequests), reads(a.concurrent), times(a.concurrent.pollRequests / a.one.pollRequests),
      judge(v, `${w} concurrent resizes cost the poll requests of one (engine)`, `${a.concurrent.pollRequests} vs ${a.one.pollRequests}`, a.concurrent.pollRequests <= a.one.pollRequests)],
    ...(a.listsOnly.skipped || a.oneListsOnly.skipped
      ? [skippedRow('One list per tick (before turn 2)', a.listsOnly.skipped ? a.listsOnly : a.oneListsOnly, 6)]
      : [
          ['One resize, before turn 2: one list per tick, x1.5 schedule', '1', n(a.oneListsOnly.pollRequests), reads(a.oneListsOnly), '', 'before'],
          [`${w} resizes, before turn 2: one list per tick, x1.5 schedule`, n(w), n(a.listsOnly.pollRequests), reads(a.listsOnly), times(a.listsOnly.pollRequests / a.oneListsOnly.pollRequests), 'before'],
        ]),
    [`${w} resizes, per-resource polling (reference)`, n(w), n(a.perResource.pollRequests), 'a GET each per look', times(a.perResource.pollRequests / a.one.pollRequests), ''],
    [`${w} resizes, naive: one at a time, per-resource polling (reference)`, '1 at a time', n(a.naive.pollRequests), 'a GET each per look', times(a.naive.pollRequests / a.one.pollRequests), ''],
  ];
  return [
    '### Waiting costs one request per poll tick, however many actions wait',
    '',
    `Engine, time scale ${a.settings.timeScale}, DBFORM_POLL_MS ${a.settings.pollMs}, the ${w} resizes sent together (parallelism ${w}). Poll requests = GETs made while waiting, from the emulator's stats. Each tick reads either the services list (every wait at once) or just the resources due, whichever costs less (src/api/service-reads.ts): one wait reads its own service, ${w} waits in a ${w}-service project one list. The bytes that costs in a large project are in the scale section below.`,
    '',
    table(['Apply', 'Waiting at once', 'Poll requests', 'Of which', 'vs one resize', 'Result'], rows),
  ].join('\n');
}

function bytesSection(b, v) {
  const rows = [];
  for (const s of b.sizes) {
    for (const variant of ['before', 'now']) {
      const r = s[variant];
      if (r.skipped) rows.push(skippedRow(n(s.services), r, 6));
      else rows.push([n(s.services), variant === 'now' ? 'now: list or GETs per tick' : 'before turn 2: one list per tick', kb(r.bytes.total), kb(r.bytes.down), n(r.pollRequests), ms(r.ms)]);
    }
  }
  const small = b.sizes[0];
  const large = b.sizes.at(-1);
  const ratio = large.now.bytes.total / small.now.bytes.total;
  const before = large.before.skipped || small.before.skipped ? NaN : large.before.bytes.total / small.before.bytes.total;
  rows.push([`${n(large.services)} / ${n(small.services)}`, 'now', times(ratio), '', '', judge(v, `one resize in ${n(large.services)} services transfers <= 2 x the bytes of ${n(small.services)}`, times(ratio), ratio <= 2)]);
  rows.push([`${n(large.services)} / ${n(small.services)}`, 'before turn 2', times(before), '', '', '']);
  return [
    '### Waiting costs requests and bytes in proportion to what waits, not to the project',
    '',
    `One resize of svc-0 waited for, in generated worlds (bench/world.js, two replica sets per service) of ${b.sizes.map((s) => n(s.services)).join(' and ')} services; emulator time scale ${b.settings.timeScale}, DBFORM_POLL_MS ${b.settings.pollMs}, one run each. Bytes are counted on the wire by a TCP relay between the client and the emulator (bench/proxy.js), both ways, headers included, for the whole apply (the resize request and its wait). Command: ${code('npm run bench -- --only scale')}.`,
    '',
    table(['Services', 'Reads', 'Bytes (both ways)', 'Of which answers', 'Poll requests', 'Wall'], rows),
  ].join('\n');
}

function createsSection(c, v) {
  const count = n(c.settings.count);
  const cmd = code('npm run bench -- --only scale');
  const row = (name, r, verdict) => [name, settingsCell(r), ms(r.criticalMs), ms(r.sendSpanMs), ms(r.ms), times(r.ms / r.criticalMs), r.cpuMs === undefined ? 'n/a' : ms(r.cpuMs), verdict, cmd];
  const rows = [
    row(`${count} creates, every default (engine)`, c.now, judge(v, `${count} creates at the default --parallelism <= 1.3 x critical path`, times(c.now.ms / c.now.criticalMs), c.now.ms <= 1.3 * c.now.criticalMs)),
    c.bookkeepingFirst.skipped
      ? skippedRow(`${count} creates, before turn 2`, c.bookkeepingFirst, 9)
      : row(`${count} creates, before turn 2: lockfile and pgpass written before each first poll, among the rest`, c.bookkeepingFirst, 'before'),
    c.before.skipped ? skippedRow(`${count} creates, before turn 2 (compressed)`, c.before, 9) : row(`${count} creates, every behaviour before turn 2 (compressed)`, c.before, 'before'),
    row(`${count} creates, now (compressed)`, c.nowCompressed, ''),
    [`${count} creates, \`dbform apply\` end to end, every default (CLI)`, '1 / 1000 ms / 10', ms(c.cli.criticalMs), '', ms(c.cli.ms), times(c.cli.ms / c.cli.criticalMs), `${ms(c.cli.cpuMs)}, peak ${mib(c.cli.maxRssKb)}`, '', code(`dbform apply -f ${c.cli.config} --auto-approve`)],
  ];
  return [
    `### ${count} creates at the default --parallelism within 1.3 x the critical path`,
    '',
    `Engine rows as above, one run each, on a fresh emulator; the pgpass file and the plain progress view (to a counting sink) wired in, as \`dbform apply\` does. "Sends answered within": when the last create was answered; CPU: the bench process during the apply (the engine; the emulator is another process). The compressed pair (time scale ${c.settings.compressed.timeScale}, DBFORM_POLL_MS ${c.settings.compressed.pollMs}) shows the baseline build's engine, every behaviour of before turn 2 at once (waits holding their slots, the x1.5 schedule, one list per tick, bookkeeping before the first poll), against today's without taking minutes; at that scale the sends, not the waits, are the longest part, so only the before/after ratio means something there. Progress written by the view: ${kb(c.now.progressBytes)} for the default run.`,
    '',
    table(['Run', 'Scale / poll / par.', 'Critical path', 'Sends answered within', 'Wall', 'vs critical path', 'CPU', 'Result', 'Command'], rows),
  ].join('\n');
}

export function scaleSections(s, v) {
  return [bytesSection(s.bytes, v), createsSection(s.creates, v)];
}
