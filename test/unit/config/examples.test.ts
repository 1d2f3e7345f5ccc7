// Every example validates, points editors at the schema, and loads into the desired state the
// planner expects; the CI example does what the README promises.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/index.js';

const EXAMPLES = join(import.meta.dirname, '..', '..', '..', 'examples');
const configs = readdirSync(EXAMPLES).filter((f) => f.endsWith('.yaml'));

describe('examples', () => {
  it('include the quickstart and the full reference', () => {
    expect(configs).toEqual(expect.arrayContaining(['quickstart.yaml', 'full.yaml']));
  });

  it.each(configs)('%s validates and names the schema for editors', async (name) => {
    const text = readFileSync(join(EXAMPLES, name), 'utf8');
    expect(text.split('\n')[0]).toBe('# yaml-language-server: $schema=../schemas/dbform.schema.json');
    const result = await loadConfig([join(EXAMPLES, name)], { env: {} });
    expect(result.ok ? [] : result.errors.map((e) => e.message)).toEqual([]);
    if (result.ok) {
      expect(result.warnings).toEqual([]);
      expect(result.value.projectId).toBe('proj-demo');
    }
  });

  it('quickstart: a VPC with a peering, two services (one attached, with a replica set) and a fork', async () => {
    const result = await loadConfig([join(EXAMPLES, 'quickstart.yaml')], { env: {} });
    if (!result.ok) throw new Error(result.errors.map((e) => e.message).join('\n'));
    const { vpcs, services } = result.value;
    expect(vpcs).toHaveLength(1);
    expect(vpcs[0]!.peerings).toHaveLength(1);
    expect(vpcs[0]!.regionCode).toBe('us-east-1');
    expect(vpcs[0]!.peerings[0]!.peerAccountId).toMatch(/^\d{12}$/);
    const attached = services.filter((s) => s.vpc && 'key' in s.vpc);
    expect(attached).toHaveLength(1);
    expect(attached[0]!.replicaSets.length).toBeGreaterThanOrEqual(1);
    const forks = services.filter((s) => s.fork);
    expect(forks).toHaveLength(1);
    expect(services.filter((s) => !s.fork).length).toBeGreaterThanOrEqual(2);
    for (const s of services) if (s.regionCode) expect(s.regionCode).toBe('us-east-1');
  });

  it('full: uses every field of the format', async () => {
    const result = await loadConfig([join(EXAMPLES, 'full.yaml')], { env: {} });
    if (!result.ok) throw new Error(result.errors.map((e) => e.message).join('\n'));
    const { vpcs, services, moved } = result.value;
    const serviceFields = new Set(services.flatMap((s) => Object.keys(s)));
    for (const field of ['name', 'addons', 'regionCode', 'size', 'environment', 'ha', 'pooler', 'vpc', 'paused', 'password', 'protect', 'fork']) {
      expect(serviceFields, field).toContain(field);
    }
    const rsFields = new Set(services.flatMap((s) => s.replicaSets.flatMap((r) => Object.keys(r))));
    for (const field of ['name', 'cpuMillis', 'memoryGbs', 'nodes', 'pooler', 'environment', 'protect']) expect(rsFields, field).toContain(field);
    expect(vpcs.some((v) => v.protect === true && v.peerings.length > 0 && v.name !== v.key)).toBe(true);
    expect(services.some((s) => s.size?.cpuMillis === 'shared')).toBe(true);
    expect(services.some((s) => s.vpc === null && s.environment === 'DEV' && s.ha?.replicas === 0 && s.pooler === false && s.paused === false)).toBe(true);
    expect(services.find((s) => s.password)?.password).toEqual({ fromEnv: 'METRICS_DB_PASSWORD', version: 1 });
    expect(moved).toHaveLength(1);
  });

  it('the GitHub Actions workflow plans on pull requests and applies on merge to main', () => {
    const text = readFileSync(join(EXAMPLES, 'ci', 'github-actions.yml'), 'utf8');
    const workflow = parse(text) as {
      on: { pull_request: unknown; push: { branches: string[] } };
      concurrency: { group: string; 'cancel-in-progress': boolean };
      env: Record<string, string>;
      jobs: Record<string, { if: string; steps: Array<{ run?: string; uses?: string }> }>;
    };
    expect(workflow.on.pull_request).toBeDefined();
    expect(workflow.on.push.branches).toEqual(['main']);
    expect(workflow.concurrency.group).toContain('dbform');
    expect(workflow.concurrency['cancel-in-progress']).toBe(false);
    expect(workflow.env.DBFORM_API_KEY).toBe('${{ secrets.DBFORM_API_KEY }}');
    // Without the URL every dbform command that reads the API stops at once.
    expect(workflow.env.DBFORM_API_URL).toBe('${{ vars.DBFORM_API_URL }}');
    const runs = (job: string) => workflow.jobs[job]!.steps.map((s) => s.run ?? s.uses ?? '').join('\n');
    expect(workflow.jobs.plan!.if).toContain('pull_request');
    expect(runs('plan')).toContain('dbform plan --format markdown');
    expect(runs('plan')).toContain('actions/github-script');
    expect(workflow.jobs.apply!.if).toContain("refs/heads/main");
    expect(runs('apply')).toContain('dbform apply --auto-approve');
    expect(runs('apply')).toMatch(/git add dbform\.lock\.json[\s\S]*git push/);
  });
});
