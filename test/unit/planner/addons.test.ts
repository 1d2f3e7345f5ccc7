// The `ai` addon changes no field the service type shows, so a plan names the addons themselves
// on the create (and replace) line; a plain time-series service keeps its one service_type line.
import { describe, expect, it } from 'vitest';
import { renderPlanText } from '../../../src/cli/render/index.js';
import { action, desiredService, desiredState, liveService, liveState, lockfile, plan } from './builders.js';

describe('addons in a plan', () => {
  it('a create with ai lists the addons and sends them', () => {
    const p = plan(desiredState({ services: [desiredService('vec', { addons: ['ai'] }), desiredService('both', { addons: ['ai', 'time-series'] })] }), liveState());
    const create = action(p, 'service.vec', 'createService');
    expect(create.request).toMatchObject({ addons: ['ai'] });
    expect(create.changes.slice(0, 3).map((c) => [c.path, c.after])).toEqual([
      ['name', 'vec'],
      ['addons', ['ai']],
      ['service_type', 'POSTGRES'],
    ]);
    const text = renderPlanText(p, { color: false });
    expect(text).toContain('  + service.vec  (createService)\n      name: "vec"\n      addons: ["ai"]\n      service_type: "POSTGRES"\n');
    expect(text).toContain('  + service.both  (createService)\n      name: "both"\n      addons: ["ai","time-series"]\n      service_type: "TIMESERIESDB"\n');
  });

  it('a replace with ai lists them too', () => {
    const p = plan(
      desiredState({ services: [desiredService('db', { addons: ['ai', 'time-series'] })] }),
      liveState({ services: [liveService('db')] }),
      lockfile({ 'service.db': 'svc-db' }),
      { replace: ['service.db'], allowDataLoss: true },
    );
    expect(renderPlanText(p, { color: false })).toContain('      addons: ["ai","time-series"]\n');
  });

  it('time-series alone is said by the service type, once', () => {
    const p = plan(desiredState({ services: [desiredService('ts', { addons: ['time-series'] })] }), liveState());
    expect(action(p, 'service.ts', 'createService').changes.map((c) => c.path)).toEqual(['name', 'service_type']);
  });

  it('ai never plans a change to a live service (the real API does not report it)', () => {
    const p = plan(desiredState({ services: [desiredService('db', { addons: ['ai'] })] }), liveState({ services: [liveService('db', { addons: [] })] }), lockfile({ 'service.db': 'svc-db' }));
    expect(p.actions).toEqual([]);
  });
});
