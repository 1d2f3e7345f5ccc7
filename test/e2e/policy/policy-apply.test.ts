// Policies on every plan and apply (SPEC section 16), end to end: the built CLI against the
// emulator over real HTTP, with the rules of examples/policies and a few written here. A deny
// blocks like the data-loss guard (exit 3, nothing sent), a warn is printed and the apply goes on,
// an error in a policy file is FILE:LINE:COL before anything is read, and a saved plan runs only
// under the policies it was made under.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EmulatorHandle } from '../../../src/emulator/index.js';
import { startTestEmulator } from '../../support/dialect.js';
import { removeTempDirs } from '../../support/temp-dir.js';
import { runCli, workspace, type Workspace } from '../apply/cli-harness.js';

const EXAMPLES = join(import.meta.dirname, '..', '..', '..', 'examples', 'policies');
const example = (name: string) => join(EXAMPLES, name);

const BASE = `version: 1
project_id: proj-demo
services:
  orders:
    region_code: us-east-1
    cpu_millis: 500
    memory_gbs: 2
    environment: PROD
  scratch:
    region_code: us-east-1
    cpu_millis: 500
    memory_gbs: 2
    environment: DEV
`;

let em: EmulatorHandle;
let ws: Workspace;

afterAll(removeTempDirs);

beforeEach(async () => {
  em = await startTestEmulator({ timeScale: 0.01 });
  ws = workspace(BASE, em.url);
  const applied = await runCli(ws, ['apply', '--auto-approve']);
  expect(applied.code, applied.stderr).toBe(0);
  em.resetStats();
});

afterEach(async () => {
  await em.close();
});

/** The requests that change something, since the last reset. */
const mutations = () => Object.keys(em.stats().requests).filter((k) => !k.startsWith('GET'));

async function live(): Promise<Array<{ name: string; status: string; resources: Array<{ spec: { cpu_millis: number } }> }>> {
  const res = await fetch(`${em.url}/projects/proj-demo/services`, { headers: { authorization: 'Bearer demo-pat' } });
  return ((await res.json()) as Array<{ name: string; status: string; resources: Array<{ spec: { cpu_millis: number } }> }>).filter((s) => s.status !== 'DELETING');
}

const liveNames = async () => (await live()).map((s) => s.name).sort();

/** A policy file written beside the config. */
function policyFile(name: string, text: string): string {
  const path = join(ws.dir, name);
  writeFileSync(path, text);
  return path;
}

const DENY_ORDERS = 'policy no-prod-data-loss: PROD services are never deleted or replaced by dbform; ask the platform team to do it by hand';

describe('a deny blocks its action, and nothing is sent', () => {
  it('no-prod-data-loss: the delete of the PROD service is blocked even with --allow-data-loss; apply --auto-approve exits 3 and both services survive', async () => {
    // orders (PROD) and scratch (DEV) leave the config; the data-loss guard is lifted, the policy is not.
    writeFileSync(ws.config, 'version: 1\nproject_id: proj-demo\nservices: {}\n');
    const policy = ['--policy', example('no-prod-data-loss.yaml')];
    const applied = await runCli(ws, ['apply', '--auto-approve', '--allow-data-loss', ...policy]);
    expect(applied.code, applied.stderr).toBe(3);
    expect(applied.stdout).toContain(`  - service.orders  (no longer in the config; data-loss risk; deleteService)\n      blocked: ${DENY_ORDERS}\n`);
    // scratch is DEV: the rule lets its delete through, but a blocked plan sends nothing at all.
    expect(applied.stdout).toContain('  - service.scratch  (no longer in the config; data-loss risk; deleteService)\n\n');
    expect(applied.stdout).toContain('Blocked: 1 action may not run (see above); apply refuses this plan.');
    expect(applied.stderr).toContain(`service.orders deleteService: ${DENY_ORDERS}`);
    expect(mutations()).toEqual([]);
    expect(await liveNames()).toEqual(['orders', 'scratch']);

    // The same verdict in the JSON plan, beside its action.
    const json = JSON.parse((await runCli(ws, ['plan', '--json', '--allow-data-loss', ...policy])).stdout) as { actions: Array<{ address: string; op: string; blocked?: string; policy?: unknown[] }> };
    const byAddress = Object.fromEntries(json.actions.map((a) => [a.address, a]));
    expect(byAddress['service.orders']).toMatchObject({ op: 'deleteService', blocked: DENY_ORDERS, policy: [{ rule: 'no-prod-data-loss', effect: 'deny', message: expect.stringMatching(/^PROD services are never deleted/) }] });
    expect(byAddress['service.scratch']!.blocked).toBeUndefined();
    expect(byAddress['service.scratch']!.policy).toBeUndefined();
  });

  it('no-pause-prod: pausing the PROD service is blocked, pausing the DEV one is not', async () => {
    writeFileSync(ws.config, BASE.replace('  orders:\n', '  orders:\n    paused: true\n'));
    const denied = await runCli(ws, ['apply', '--auto-approve', '--policy', example('no-pause-prod.yaml')]);
    expect(denied.code, denied.stderr).toBe(3);
    expect(denied.stdout).toContain('blocked: policy no-pause-prod: PROD services stay running; set environment DEV first if this one is not PROD\n');
    expect(mutations()).toEqual([]);

    writeFileSync(ws.config, BASE.replace('  scratch:\n', '  scratch:\n    paused: true\n'));
    const allowed = await runCli(ws, ['apply', '--auto-approve', '--policy', example('no-pause-prod.yaml')]);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stdout).not.toContain('policy');
    expect(mutations()).toEqual(['POST /projects/{project_id}/services/{service_id}/stop']);
  });
});

describe('a warn is printed and the apply goes on', () => {
  it('small-previews (from DBFORM_POLICY): a big service in workspace pr-9 warns beside its create, and is created', async () => {
    // A preview's config names its services after the workspace, as examples/preview.yaml does.
    writeFileSync(ws.config, 'version: 1\nproject_id: proj-demo\nservices:\n  big:\n    name: big-${workspace}\n    region_code: us-east-1\n    cpu_millis: 4000\n    memory_gbs: 16\n  small:\n    name: small-${workspace}\n    region_code: us-east-1\n    cpu_millis: 500\n    memory_gbs: 2\n');
    const applied = await runCli(ws, ['apply', '--auto-approve', '--workspace', 'pr-9'], { env: { DBFORM_POLICY: example('small-previews.yaml') } });
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toMatch(/ {2}\+ service\.big .*\n(?: {6}.*\n)*? {6}policy warn small-previews: preview databases stay at 2000 millicores or less\n/);
    // Beside big's create only: small's lines end with the plan.
    expect(applied.stdout).toContain('  + service.small  (createService)\n      name: "small-pr-9"\n      cpu_millis: 500\n      memory_gbs: 2\n      region_code: "us-east-1"\n\nPlan:');
    expect(applied.stdout).toContain('Apply complete: 2 created');
    expect((await live()).filter((s) => s.name === 'big-pr-9').map((s) => s.resources[0]!.spec.cpu_millis)).toEqual([4000]);
    expect(await liveNames()).toEqual(['big-pr-9', 'orders', 'scratch', 'small-pr-9']);
  });
});

describe('now: the time of the run', () => {
  /** A change freeze over [from, to), as a release calendar would write it. */
  const freeze = (from: Date, to: Date) =>
    `version: 1\nrules:\n  - name: change-freeze\n    plan_deny: >-\n      plan.create + plan.update + plan.replace + plan.delete > 0 &&\n      now >= timestamp("${from.toISOString()}") && now < timestamp("${to.toISOString()}")\n    message: the change freeze of the release holds\n`;
  const DAY = 24 * 3600_000;

  it('a freeze window around now blocks the apply (exit 3, nothing sent); one that has ended lets it through', async () => {
    writeFileSync(ws.config, BASE.replace('    cpu_millis: 500\n    memory_gbs: 2\n    environment: DEV', '    cpu_millis: 1000\n    memory_gbs: 4\n    environment: DEV'));
    // Windows a day wide on either side of the test's clock: no run is that slow.
    const now = Date.now();
    const during = policyFile('freeze-now.yaml', freeze(new Date(now - DAY), new Date(now + DAY)));
    const blocked = await runCli(ws, ['apply', '--auto-approve', '--policy', during]);
    expect(blocked.code, blocked.stderr).toBe(3);
    expect(blocked.stdout).toContain('policy deny change-freeze: the change freeze of the release holds\n');
    expect(blocked.stderr).toContain('policy change-freeze: the change freeze of the release holds');
    expect(mutations()).toEqual([]);

    const ended = policyFile('freeze-ended.yaml', freeze(new Date(now - 3 * DAY), new Date(now - 2 * DAY)));
    const applied = await runCli(ws, ['apply', '--auto-approve', '--policy', ended]);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).not.toContain('change-freeze');
    expect(mutations()).toEqual(['POST /projects/{project_id}/services/{service_id}/resize']);
  });
});

describe('an error in a policy file: exit 1, FILE:LINE:COL, nothing read or sent', () => {
  it('a CEL syntax error, on plan and on apply', async () => {
    const file = policyFile('syntax.yaml', 'version: 1\nrules:\n  - name: broken\n    deny: >-\n      action.op == "deleteService" &&\n      (resource.environment == "PROD"\n    message: m\n');
    for (const command of [['plan'], ['apply', '--auto-approve']]) {
      const r = await runCli(ws, [...command, '--policy', file]);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`^${escape(file)}:6:\\d+: rule broken \\(deny\\): CEL syntax error: .+\\n$`));
    }
    expect(mutations()).toEqual([]);
  });

  it('a CEL type error, each rule at its own place', async () => {
    const file = policyFile('types.yaml', 'version: 1\nrules:\n  - name: typed\n    warn: action.risk == 3\n    message: m\n  - name: misspelt\n    deny: action.opp == "deleteService"\n    message: m\n');
    const r = await runCli(ws, ['apply', '--auto-approve', '--policy', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`${file}:4:11: rule typed (warn): CEL type error: no such overload: string == int\n${file}:7:18: rule misspelt (deny): CEL type error: No such key: opp; did you mean op?\n`);
    expect(mutations()).toEqual([]);
  });
});

describe('a saved plan runs only under the policies it was made under', () => {
  it('apply PLAN refuses an edited policy file, and no policy at all; under the same file it applies', async () => {
    writeFileSync(ws.config, BASE.replace('    cpu_millis: 500\n    memory_gbs: 2\n    environment: DEV', '    cpu_millis: 1000\n    memory_gbs: 4\n    environment: DEV'));
    const file = policyFile('team.yaml', readFileSync(example('small-previews.yaml'), 'utf8'));
    const planFile = join(ws.dir, 'resize.plan.json');
    const planned = await runCli(ws, ['plan', '--out', planFile, '--policy', file]);
    expect(planned.code, planned.stderr).toBe(0);
    const saved = JSON.parse(readFileSync(planFile, 'utf8')) as { policies_hash?: string };
    expect(saved.policies_hash).toMatch(/^sha256:[0-9a-f]{64}$/);

    const original = readFileSync(file, 'utf8');
    writeFileSync(file, original.replace('preview databases stay at 2000 millicores or less', 'preview databases stay at 1000 millicores or less'));
    const edited = await runCli(ws, ['apply', planFile, '--policy', file]);
    expect(edited.code).toBe(1);
    expect(edited.stderr).toMatch(/^error: .*resize\.plan\.json was made under other policies than this apply's \(policies sha256:[0-9a-f]{12} in the plan file, policies sha256:[0-9a-f]{12} now; --policy and DBFORM_POLICY\)\. Nothing was changed/);
    const none = await runCli(ws, ['apply', planFile]);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/in the plan file, no policy now;/);
    expect(mutations()).toEqual([]);

    writeFileSync(file, original);
    const applied = await runCli(ws, ['apply', planFile, '--policy', file]);
    expect(applied.code, applied.stderr).toBe(0);
    expect(mutations()).toEqual(['POST /projects/{project_id}/services/{service_id}/resize']);
  });
});

describe('the markdown plan', () => {
  it('shows each verdict inside its own action, the deny as blocked and the warn beside it', async () => {
    writeFileSync(
      ws.config,
      'version: 1\nproject_id: proj-demo\nservices:\n  reports:\n    name: reports-${workspace}\n    region_code: ap-south-1\n    cpu_millis: 500\n    memory_gbs: 2\n  big:\n    name: big-${workspace}\n    region_code: us-east-1\n    cpu_millis: 4000\n    memory_gbs: 16\n',
    );
    const r = await runCli(ws, ['plan', '--format', 'markdown', '--workspace', 'pr-4', '--policy', example('region-allow-list.yaml'), '--policy', example('small-previews.yaml')]);
    expect(r.code, r.stderr).toBe(3);
    const section = (address: string) => {
      const start = r.stdout.indexOf(`<code>+ ${address}</code>`);
      expect(start, `${address} has a section`).toBeGreaterThan(-1);
      return r.stdout.slice(start, r.stdout.indexOf('</details>', start));
    };
    expect(section('service.reports')).toContain('🛑 blocked');
    expect(section('service.reports')).toContain('**Blocked:** policy region-allow-list: databases and VPCs are created only in us-east-1 and eu-central-1');
    expect(section('service.reports')).not.toContain('small-previews');
    expect(section('service.big')).toContain('⚠️ policy');
    expect(section('service.big')).toContain('**Policy warn:** <code>small-previews</code> preview databases stay at 2000 millicores or less');
    expect(section('service.big')).not.toContain('region-allow-list');
    expect(mutations()).toEqual([]);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
