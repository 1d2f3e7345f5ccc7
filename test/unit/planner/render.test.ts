// Renderers over one Plan value: deterministic, colour only when asked, short when quiet,
// bounded markdown, secrets as "(sensitive)".
import { describe, expect, it } from 'vitest';
import { MARKDOWN_LIMIT, renderPlanJson, renderPlanMarkdown, renderPlanText } from '../../../src/cli/render/index.js';
import { toPlanJson } from '../../../src/planner/index.js';
import { desiredService, desiredState, livePeering, liveReplicaSet, liveService, liveState, liveVpc, lockfile, plan } from './builders.js';
import { oneChangePlan, richPlan } from './scenarios.js';

const ANSI = /\x1b\[/;
const lines = (s: string) => s.trimEnd().split('\n');

function quietPlan(n: number) {
  const names = Array.from({ length: n }, (_, i) => `s${i}`);
  return plan(
    desiredState({ services: names.map((k) => desiredService(k)) }),
    liveState({ services: names.map((k) => liveService(k, { id: `id-${k}` })) }),
    lockfile(Object.fromEntries(names.map((k) => [`service.${k}`, `id-${k}`]))),
  );
}

describe('text', () => {
  it('a no-change plan of 1,000 services is at most 5 lines and says No changes.', () => {
    const out = renderPlanText(quietPlan(1000), { color: false });
    expect(lines(out).length).toBeLessThanOrEqual(5);
    expect(out).toBe('No changes. 1000 unchanged, 0 unmanaged (not in the config or state; left alone).\n');
  });

  it('a one-field change among 1,000 services is at most 15 lines', () => {
    const out = renderPlanText(oneChangePlan(1000), { color: false });
    expect(lines(out).length).toBeLessThanOrEqual(15);
    expect(out).toContain('  ~ service.svc-0000  (resizeService)\n      cpu_millis: 1000 -> 2000\n      memory_gbs: 4 -> 8\n');
    expect(out).toContain('Plan: 0 to create, 1 to update, 0 to replace, 0 to delete, 0 to adopt, 0 to move.\n999 unchanged');
  });

  it('uses the Terraform symbols and lists moves, adoptions and blocked actions', () => {
    const out = renderPlanText(richPlan(), { color: false });
    for (const line of [
      '  + vpc.main  (createVPC)',
      '  ~ vpc.edge  (renameVPC)',
      '  -/+ service.ts  (deleteService, createService)',
      '  - service.gone-soon  (no longer in the config; data-loss risk; deleteService)',
      '  -> service.renamed  (moved from service.old-name)',
      '      service_type: "POSTGRES" -> "TIMESERIESDB"  (forces replacement)',
      '      password: (sensitive)',
      '      blocked: data-loss: deleteService destroys service.ts and its data; re-run with --allow-data-loss to allow it',
      'Plan: 3 to create, 4 to update, 2 to replace, 3 to delete, 1 to adopt, 1 to move.',
    ]) {
      expect(out).toContain(line);
    }
    expect(out).toMatch(/~ service.adopted {2}\(adopt existing adadadadad; setEnvironment\)/);
    expect(out).not.toMatch(ANSI);
  });

  it('marks the risk of delete lines as it does on other lines', () => {
    const p = plan(
      desiredState(),
      liveState({
        vpcs: [liveVpc('old', { peerings: [livePeering('vpc-old', 'vpc-peer')] })],
        services: [liveService('db', { replicaSets: [liveReplicaSet('read')] })],
      }),
      lockfile({ 'vpc.old': 'vpc-old', 'peering.old.vpc-peer': 'pcx-vpc-peer', 'service.db': 'svc-db', 'replica_set.db.read': 'rs-read' }),
      { allowDataLoss: true },
    );
    const out = renderPlanText(p, { color: false });
    expect(out).toContain('  - vpc.old  (no longer in the config; connectivity risk; deleteVPC)\n');
    expect(out).toContain('  - peering.old.vpc-peer  (no longer in the config; connectivity risk; deleteVPCPeering)\n');
    // Allowed, a data-loss delete has no blocked line: the risk is its only mark.
    expect(out).toContain('  - service.db  (no longer in the config; data-loss risk; deleteService)\n');
    expect(out).not.toContain('blocked');
    expect(out).toContain('  - replica_set.db.read  (no longer in the config; availability risk; deleteReplicaSet)\n');
    const md = renderPlanMarkdown(p);
    expect(md).toContain('- <code>- vpc.old</code> delete · no longer in the config; connectivity risk; deleteVPC\n');
    expect(md).toContain('- <code>- peering.old.vpc-peer</code> delete · no longer in the config; connectivity risk; deleteVPCPeering\n');
    // Markdown flags data loss in the title already, so the notes do not repeat it.
    expect(md).toContain('- <code>- service.db</code> delete ⚠️ data loss · no longer in the config; deleteService\n');
    expect(md).toContain('- <code>- replica_set.db.read</code> delete · no longer in the config; availability risk; deleteReplicaSet\n');
  });

  it('an adoption alone uses <=', () => {
    const out = renderPlanText(plan(desiredState({ services: [desiredService('db')] }), liveState({ services: [liveService('db')] })), { color: false });
    expect(out).toContain('  <= service.db  (adopt existing svc-db)');
    expect(out).toContain('1 to adopt');
  });

  it('colours only when enabled: green create, yellow update, red delete/replace, cyan adopt/move, bold red blocked', () => {
    const out = renderPlanText(richPlan(), { color: true });
    expect(out).toContain('\x1b[32m+ vpc.main\x1b[39m');
    expect(out).toContain('\x1b[33m~ vpc.edge\x1b[39m');
    expect(out).toContain('\x1b[31m-/+ service.ts\x1b[39m');
    expect(out).toContain('\x1b[31m- service.gone-soon\x1b[39m');
    expect(out).toContain('\x1b[36m-> service.renamed\x1b[39m');
    expect(out).toMatch(/\x1b\[31m\x1b\[1mblocked: data-loss/);
    expect(renderPlanText(richPlan(), { color: false })).toBe(out.replace(/\x1b\[[0-9;]*m/g, ''));
  });

  it('is deterministic', () => {
    expect(renderPlanText(richPlan(), { color: false })).toBe(renderPlanText(richPlan(), { color: false }));
  });
});

describe('json', () => {
  it('prints the plan JSON with two-space indent and a trailing newline', () => {
    const p = richPlan();
    const out = renderPlanJson(p);
    expect(JSON.parse(out)).toEqual(JSON.parse(JSON.stringify(toPlanJson(p))));
    expect(out.endsWith('}\n')).toBe(true);
    expect(out).toBe(renderPlanJson(richPlan()));
    expect(out).not.toContain('hunter2');
  });
});

describe('markdown', () => {
  it('puts the summary table first and flags blocked and data-loss actions before the details', () => {
    const out = renderPlanMarkdown(richPlan());
    const first = lines(out).slice(0, 5).join('\n');
    expect(first).toBe(
      '### dbform plan for project <code>proj-demo</code>\n\n| create | update | replace | delete | adopt | move | unchanged | unmanaged |\n|---:|---:|---:|---:|---:|---:|---:|---:|\n| 3 | 4 | 2 | 3 | 1 | 1 | 0 | 1 |',
    );
    const blocked = out.indexOf('**Blocked:** 2 actions');
    const loss = out.indexOf('**Data loss:** 2 actions');
    const details = out.indexOf('<details>');
    expect(blocked).toBeGreaterThan(0);
    expect(loss).toBeGreaterThan(blocked);
    expect(details).toBeGreaterThan(loss);
    expect(out).toContain('<details><summary><code>-/+ service.ts</code> replace 🛑 blocked ⚠️ data loss · deleteService, createService</summary>');
    expect(out).toContain('| <code>password</code> | <em>(sensitive)</em> | <em>(sensitive)</em> |');
  });

  it('says No changes. for a quiet plan', () => {
    const out = renderPlanMarkdown(quietPlan(3));
    expect(out).toContain('**No changes.**');
    expect(out).not.toContain('<details>');
  });

  it('stays under 60,000 characters for a huge plan, folding the rest', () => {
    const names = Array.from({ length: 3000 }, (_, i) => `s${i}`);
    const huge = plan(desiredState({ services: names.map((k) => desiredService(k, { environment: 'PROD', pooler: true, size: { cpuMillis: 1000, memoryGbs: 4 } })) }), liveState());
    const out = renderPlanMarkdown(huge);
    expect(out.length).toBeLessThanOrEqual(MARKDOWN_LIMIT);
    expect(out).toMatch(/\.\.\. and \d+ more resources not shown here/);
    expect(out).toContain('| 3000 | 0 | 0 | 0 | 0 | 0 | 0 | 0 |');
  });

  it('folds long flagged lists', () => {
    const names = Array.from({ length: 50 }, (_, i) => `s${i}`);
    const p = plan(desiredState(), liveState({ services: names.map((k) => liveService(k, { id: `id-${k}` })) }), lockfile(Object.fromEntries(names.map((k) => [`service.${k}`, `id-${k}`]))));
    const out = renderPlanMarkdown(p);
    expect(out).toContain('> - ... and 30 more');
  });

  it('escapes HTML and table pipes in values', () => {
    const p = plan(desiredState({ services: [desiredService('db', { name: 'a|b<c>' })] }), liveState());
    expect(renderPlanMarkdown(p)).toContain('<code>"a&#124;b&lt;c&gt;"</code>');
  });
});
