// `dbform policy test FILE... --plan PLAN.json` end to end: plans saved by `dbform plan --out`
// against the emulator, the built CLI, every example of examples/policies.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmulatorHandle } from '../../../src/emulator/index.js';
import { runCli, type CliResult } from '../../support/cli.js';
import { AUTH_ENV, startTestEmulator } from '../../support/dialect.js';
import { removeTempDirs, tempDir } from '../../support/temp-dir.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const EXAMPLES = join(ROOT, 'examples', 'policies');
const example = (name: string) => join(EXAMPLES, name);

/** The examples each test below uses; a new example must be added here and tested. */
const COVERED = ['friday-freeze.yaml', 'no-pause-prod.yaml', 'no-prod-data-loss.yaml', 'region-allow-list.yaml', 'small-previews.yaml'];

const LIVE = `version: 1
project_id: proj-demo
services:
  orders:
    region_code: us-east-1
    cpu_millis: 2000
    memory_gbs: 8
    environment: PROD
  scratch:
    region_code: us-east-1
    cpu_millis: 1000
    memory_gbs: 4
    environment: DEV
`;

/** orders (PROD) removed, scratch grown with an HA replica, reports created outside the allowed regions. */
const CHANGED = `version: 1
project_id: proj-demo
services:
  scratch:
    region_code: us-east-1
    cpu_millis: 4000
    memory_gbs: 16
    environment: DEV
    ha: { replicas: 1 }
  reports:
    region_code: ap-south-1
    cpu_millis: 1000
    memory_gbs: 4
`;

const pausing = (key: 'orders' | 'scratch') => LIVE.replace(`  ${key}:\n`, `  ${key}:\n    paused: true\n`);

let em: EmulatorHandle;
let dir: string;
let env: Record<string, string>;
/** Saved plans: the changes above, and pausing each service. */
const plans = { changed: '', pauseOrders: '', pauseScratch: '' };
const configs = { changed: '', pauseOrders: '', pauseScratch: '' };

async function cli(args: string[]): Promise<CliResult> {
  return runCli(args, { cwd: dir, env });
}

async function savePlan(name: keyof typeof plans, yaml: string): Promise<void> {
  configs[name] = join(dir, `${name}.yaml`);
  writeFileSync(configs[name], yaml);
  plans[name] = join(dir, `${name}.plan.json`);
  const r = await cli(['plan', '-f', configs[name], '--lockfile', join(dir, 'dbform.lock.json'), '--out', plans[name]]);
  // The delete of orders is blocked by the data-loss guard (exit 3); the plan is saved all the same.
  expect([0, 3], r.stderr).toContain(r.code);
}

beforeAll(async () => {
  em = await startTestEmulator({ host: '127.0.0.1', port: 0, timeScale: 0 });
  env = { DBFORM_API_URL: em.url, ...AUTH_ENV };
  dir = tempDir('dbform-policy-e2e-');
  writeFileSync(join(dir, 'dbform.yaml'), LIVE);
  const applied = await cli(['apply', '--auto-approve']);
  expect(applied.code, applied.stderr).toBe(0);
  await savePlan('changed', CHANGED);
  await savePlan('pauseOrders', pausing('orders'));
  await savePlan('pauseScratch', pausing('scratch'));
});

afterAll(async () => {
  await em.close();
  removeTempDirs();
});

/** The verdict lines of the text output: `address op: effect rule`. */
function verdicts(stdout: string): string[] {
  const out: string[] = [];
  let current = '';
  for (const line of stdout.split('\n')) {
    const head = /^(\S+)  (\S+)  \(a\d+, risk [a-z-]+\)$/.exec(line);
    if (head) current = `${head[1]} ${head[2]}`;
    else if (line === 'plan') current = 'plan';
    const v = /^ {2}(deny|warn|pass) {2}([a-z0-9_-]+)/.exec(line);
    if (v) out.push(`${current}: ${v[1]} ${v[2]}`);
  }
  return out;
}

describe('dbform policy test', () => {
  it('no-prod-data-loss: the delete of a PROD service is denied, exit 3', async () => {
    const r = await cli(['policy', 'test', example('no-prod-data-loss.yaml'), '--plan', plans.changed]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(3);
    expect(verdicts(r.stdout)).toEqual(['service.orders deleteService: deny no-prod-data-loss']);
    expect(r.stdout).toContain('  deny  no-prod-data-loss: PROD services are never deleted or replaced by dbform; ask the platform team to do it by hand\n');
    expect(r.stdout).toContain(`  no-prod-data-loss (deny, ${example('no-prod-data-loss.yaml')}:11:7): holds for 1 of 4 actions\n`);
    expect(r.stdout).toMatch(/1 deny holds: plan and apply would refuse this plan \(exit 3\)\.\n$/);
  });

  it('--json gives the verdicts, the files and their hash', async () => {
    const r = await cli(['policy', 'test', example('no-prod-data-loss.yaml'), example('region-allow-list.yaml'), '--plan', plans.changed, '--json', '--now', '2026-05-14T10:00:00Z']);
    expect(r.code).toBe(3);
    const out = JSON.parse(r.stdout);
    expect(out.policies.map((p: { file: string; rules: number }) => [p.file, p.rules])).toEqual([
      [example('no-prod-data-loss.yaml'), 1],
      [example('region-allow-list.yaml'), 2],
    ]);
    expect(out.policies_hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(out.now).toBe('2026-05-14T10:00:00.000Z');
    expect(out.project_id).toBe('proj-demo');
    expect(out.actions.map((a: { address: string; op: string; verdicts: { rule: string; effect: string }[] }) => [a.address, a.op, a.verdicts.map((v) => `${v.effect} ${v.rule}`)])).toEqual([
      ['service.orders', 'deleteService', ['deny no-prod-data-loss']],
      ['service.reports', 'createService', ['deny region-allow-list']],
    ]);
    expect(out.actions[1].verdicts[0]).toMatchObject({ message: 'databases and VPCs are created only in us-east-1 and eu-central-1', file: example('region-allow-list.yaml'), line: 9, col: 7 });
    expect([out.denies, out.warns]).toEqual([2, 0]);
  });

  it('region-allow-list: a create outside the allowed regions is denied, the rest pass (--all)', async () => {
    const r = await cli(['policy', 'test', example('region-allow-list.yaml'), '--plan', plans.changed, '--all']);
    expect(r.code).toBe(3);
    expect(verdicts(r.stdout)).toEqual([
      'service.orders deleteService: pass region-allow-list',
      'service.orders deleteService: pass peer-regions',
      'service.reports createService: deny region-allow-list',
      'service.reports createService: pass peer-regions',
      'service.scratch resizeService: pass region-allow-list',
      'service.scratch resizeService: pass peer-regions',
      'service.scratch setHAReplica: pass region-allow-list',
      'service.scratch setHAReplica: pass peer-regions',
    ]);
  });

  describe('small-previews', () => {
    it('in a preview workspace: a big service warns, an HA replica is denied', async () => {
      const r = await cli(['policy', 'test', example('small-previews.yaml'), '--plan', plans.changed, '--workspace', 'pr-7', '-f', configs.changed]);
      expect(r.code).toBe(3);
      expect(verdicts(r.stdout)).toEqual([
        'service.scratch resizeService: warn small-previews',
        'service.scratch resizeService: deny no-ha-in-previews',
        'service.scratch setHAReplica: deny no-ha-in-previews',
      ]);
    });

    it('rules see the workspace the plan was made in, unless --workspace says another', async () => {
      const config = join(dir, 'preview.yaml');
      writeFileSync(config, 'version: 1\nproject_id: proj-demo\nservices:\n  preview-db:\n    cpu_millis: 4000\n    memory_gbs: 16\n    ha: { replicas: 1 }\n');
      const planFile = join(dir, 'preview.plan.json');
      const saved = await cli(['plan', '-f', config, '--workspace', 'pr-9', '--out', planFile]);
      expect(saved.code, saved.stderr).toBe(0);
      const r = await cli(['policy', 'test', example('small-previews.yaml'), '--plan', planFile]);
      expect(r.code).toBe(3);
      expect(r.stdout).toContain('Plan of project proj-demo, workspace pr-9,');
      expect(verdicts(r.stdout)).toEqual(['service.preview-db createService: warn small-previews', 'service.preview-db createService: deny no-ha-in-previews']);
      const elsewhere = await cli(['policy', 'test', example('small-previews.yaml'), '--plan', planFile, '--workspace', 'main']);
      expect(elsewhere.code).toBe(0);
    });

    it('anywhere else nothing holds, exit 0', async () => {
      const r = await cli(['policy', 'test', example('small-previews.yaml'), '--plan', plans.changed, '-f', configs.changed]);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('No per-action rule holds for any action.\n');
      expect(r.stdout).toMatch(/No deny holds\.\n$/);
    });
  });

  describe('friday-freeze: now is the time of the run, or --now', () => {
    it('on Friday after 15:00 in Berlin the plan is denied', async () => {
      const r = await cli(['policy', 'test', example('friday-freeze.yaml'), '--plan', plans.changed, '--now', '2026-05-15T16:30:00+02:00']);
      expect(r.code).toBe(3);
      expect(verdicts(r.stdout)).toEqual(['plan: deny friday-freeze']);
    });

    it('on Thursday it is not, and a risky change after 18:00 warns', async () => {
      const r = await cli(['policy', 'test', example('friday-freeze.yaml'), '--plan', plans.changed, '--now', '2026-05-14T18:30:00+02:00']);
      expect(r.code).toBe(0);
      expect(verdicts(r.stdout)).toEqual(['service.orders deleteService: warn late-risky-changes']);
      expect(r.stdout).toMatch(/No deny holds \(1 warning\)\.\n$/);
    });

    it('a preview workspace is exempt', async () => {
      const r = await cli(['policy', 'test', example('friday-freeze.yaml'), '--plan', plans.changed, '--now', '2026-05-16T11:00:00+02:00', '--workspace', 'pr-3']);
      expect(r.code).toBe(0);
    });
  });

  describe('no-pause-prod', () => {
    it('pausing the PROD service is denied', async () => {
      const r = await cli(['policy', 'test', example('no-pause-prod.yaml'), '--plan', plans.pauseOrders, '-f', configs.pauseOrders]);
      expect(r.code).toBe(3);
      expect(verdicts(r.stdout)).toEqual(['service.orders stopService: deny no-pause-prod']);
    });

    it('pausing a DEV service is not, when the config says it is DEV (-f)', async () => {
      const r = await cli(['policy', 'test', example('no-pause-prod.yaml'), '--plan', plans.pauseScratch, '-f', configs.pauseScratch]);
      expect(r.code).toBe(0);
    });

    it('without the config the plan file does not say, and the rule holds as written', async () => {
      const r = await cli(['policy', 'test', example('no-pause-prod.yaml'), '--plan', plans.pauseScratch]);
      expect(r.code).toBe(3);
      expect(verdicts(r.stdout)).toEqual(['service.scratch stopService: deny no-pause-prod']);
    });
  });

  it('a rule that cannot be evaluated denies, naming the error and its place', async () => {
    const file = join(dir, 'strict.yaml');
    writeFileSync(file, 'version: 1\nrules:\n  - name: prod-only-in-us\n    deny: resource.environment == "PROD" && resource.region_code != "us-east-1"\n    message: PROD stays in us-east-1\n');
    const r = await cli(['policy', 'test', file, '--plan', plans.changed]);
    expect(r.code).toBe(3);
    // The resize's changes carry no environment (without -f): the rule fails closed.
    expect(r.stdout).toContain(`  deny  prod-only-in-us: PROD stays in us-east-1 (the rule could not be evaluated, so it denies: No such key: environment at ${file}:4:20)\n`);
  });

  describe('errors in a file: exit 1, FILE:LINE:COL on stderr, nothing on stdout', () => {
    it('a CEL syntax error', async () => {
      const file = join(dir, 'syntax.yaml');
      writeFileSync(file, 'version: 1\nrules:\n  - name: broken\n    deny: >-\n      action.op == "deleteService" &&\n      (resource.environment == "PROD"\n    message: m\n');
      const r = await cli(['policy', 'test', file, '--plan', plans.changed]);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(new RegExp(`^${file.replace(/[.]/g, '\\.')}:6:\\d+: rule broken \\(deny\\): CEL syntax error: .+\\n$`));
    });

    it('a CEL type error', async () => {
      const file = join(dir, 'types.yaml');
      writeFileSync(file, 'version: 1\nrules:\n  - name: typed\n    warn: action.risk == 3\n    message: m\n  - name: misspelt\n    deny: action.opp == "deleteService"\n    message: m\n');
      const r = await cli(['policy', 'test', file, '--plan', plans.changed]);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        `${file}:4:11: rule typed (warn): CEL type error: no such overload: string == int\n` + `${file}:7:18: rule misspelt (deny): CEL type error: No such key: opp; did you mean op?\n`,
      );
    });

    it('a plan file that is not one, a bad --now', async () => {
      const missing = await cli(['policy', 'test', example('no-prod-data-loss.yaml'), '--plan', join(dir, 'nope.json')]);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toBe(`error: cannot read the plan file ${join(dir, 'nope.json')}: no such file\n`);
      const now = await cli(['policy', 'test', example('no-prod-data-loss.yaml'), '--plan', plans.changed, '--now', 'friday']);
      expect(now.code).toBe(1);
      expect(now.stderr).toBe('error: --now "friday" is not an RFC 3339 time such as 2026-05-15T16:00:00+02:00\n');
    });
  });

  it('every example of examples/policies is loaded and used by a test here, and names the schema', () => {
    expect(readdirSync(EXAMPLES).sort()).toEqual(COVERED);
    for (const name of COVERED) expect(readFileSync(example(name), 'utf8').split('\n')[0]).toBe('# yaml-language-server: $schema=../../schemas/policy.schema.json');
  });
});
