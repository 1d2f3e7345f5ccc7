#!/usr/bin/env node
// `npm run demo`: the README quickstart, end to end, against the in-process emulator.
// Runs in a temporary directory so the repository stays clean. Exits non-zero on any failed step.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'yaml';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'bin', 'dbform.js');
const work = mkdtempSync(join(tmpdir(), 'dbform-demo-'));
const config = join(work, 'dbform.yaml');
copyFileSync(join(root, 'examples', 'quickstart.yaml'), config);

// A fast emulator, frequent polls, and passwords kept out of the real ~/.pgpass.
const env = { ...process.env, DBFORM_EMULATOR_TIME_SCALE: '0.1', DBFORM_POLL_MS: '100', PGPASSFILE: join(work, 'pgpass') };
// The emulator's own token (demo-pat) is used only when no other token is set.
delete env.DBFORM_API_KEY;
delete env.DBFORM_API_URL;

let step = 0;
const bold = process.stdout.isTTY && !process.env.NO_COLOR ? (s) => `\x1b[1m${s}\x1b[0m` : (s) => s;
function header(title) {
  step++;
  process.stdout.write(`\n${bold(`== ${step}. ${title}`)}\n`);
}

function fail(message) {
  process.stderr.write(`\ndemo failed: ${message} (work directory: ${work})\n`);
  process.exit(1);
}

function dbform(...args) {
  process.stdout.write(`$ dbform ${args.join(' ')}\n`);
  const started = Date.now();
  const run = spawnSync(process.execPath, [bin, ...args], { cwd: work, env, stdio: 'inherit' });
  if (run.status !== 0) fail(`\`dbform ${args.join(' ')}\` exited with ${run.status ?? run.signal}`);
  process.stdout.write(`(${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
}

/** Resizes the first service with a dedicated size to the next allowed size, keeping comments. */
function resizeOneService() {
  const sizes = [500, 1000, 2000, 4000, 8000, 16000, 32000];
  const doc = parseDocument(readFileSync(config, 'utf8'));
  for (const pair of doc.get('services').items) {
    const key = pair.key.value;
    const cpu = doc.getIn(['services', key, 'cpu_millis']);
    const at = sizes.indexOf(cpu);
    if (at === -1 || at === sizes.length - 1) continue;
    const next = sizes[at + 1];
    doc.setIn(['services', key, 'cpu_millis'], next);
    doc.setIn(['services', key, 'memory_gbs'], next / 250);
    writeFileSync(config, String(doc));
    return `services.${key}: cpu_millis ${cpu} -> ${next}, memory_gbs ${cpu / 250} -> ${next / 250}`;
  }
  return fail('examples/quickstart.yaml has no service with a dedicated size to resize');
}

process.stdout.write(`dbform demo in ${work} (a copy of examples/quickstart.yaml as dbform.yaml)\n`);

header('Validate the config (no network)');
dbform('validate');

header('Plan against the local emulator (reads live state, changes nothing)');
dbform('plan', '--emulator');

header('Apply: create everything, in dependency order, waiting for each resource');
dbform('apply', '--emulator', '--auto-approve');

header('Edit one field');
let edit;
try {
  edit = resizeOneService();
} catch (err) {
  fail(`could not edit dbform.yaml: ${err.message}`);
}
process.stdout.write(`edited dbform.yaml: ${edit}\n`);

header('Plan the change: exactly one resize');
dbform('plan', '--emulator');

header('Apply the change');
dbform('apply', '--emulator', '--auto-approve');

header('The lockfile: addresses bound to IDs, no secrets; commit it with the config');
process.stdout.write(readFileSync(join(work, 'dbform.lock.json'), 'utf8'));

header('Nothing left to do');
dbform('plan', '--emulator', '--detailed-exitcode');

header('How to connect: endpoints from the live resources (passwords stay in the pgpass file)');
dbform('output', '--emulator');

header('What next');
process.stdout.write(
  [
    `- The files of this demo are in ${work}: dbform.yaml, dbform.lock.json, the pgpass file with`,
    '  the initial passwords, and the emulator world in .dbform/emulator-state.json.',
    `- \`dbform export --emulator -o exported.yaml\` in ${work} writes the live world back as YAML.`,
    `- \`dbform output --emulator --with-password --pgpass pgpass\` adds each password, from that file.`,
    '- examples/full.yaml shows every field: peerings, HA, pooler, forks, passwords, protect.',
    '- README.md, "Quickstart": these steps by hand; docs/apply-in-pipelines.md: approvals, saved plans,',
    '  exit codes, interrupted applies, the apply lock and destroy. `dbform <command> --help` lists every flag.',
    '',
  ].join('\n'),
);
