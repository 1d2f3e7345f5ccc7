// Checks every kind's field set must pass (src/model/fields): its order lists hold every field
// with a create or replace hook, export reads back as no change, and drift agrees with the plan.
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { driftedFields, exportFields, readDesiredFields, recordFields, replaceChanges, updateSteps, type ApiCapabilities, type ExportContext, type ExportValue, type FieldSet } from '../../../src/model/index.js';

/** An API that can do nothing it need not (cloud-api.md), and one that can do all a field may ask (SPEC section 15). */
const APIS: readonly ApiCapabilities[] = [{}, { renamesServices: true }];

/** An exported value as the config loader reads it back. */
export function asConfig(v: ExportValue): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(asConfig);
  if ('quoted' in v) return v.quoted;
  return Object.fromEntries(Object.entries((v as { map: Record<string, ExportValue> }).map).map(([k, x]) => [k, asConfig(x)]));
}

export interface FieldSetCase<D, L, W> {
  set: FieldSet<D, L, W>;
  ctx: ExportContext;
  /** A desired resource with only its identity set: what readDesiredFields fills in. */
  blank(): D;
  /** Live resources with every field varied. */
  live: fc.Arbitrary<L>;
  /** Desired resources with every field varied, managed or not. */
  desired: fc.Arbitrary<D>;
}

export function checkFieldSet<D, L, W>(c: FieldSetCase<D, L, W>): void {
  it('lists every field with a create or replace hook in that order list, once', () => {
    for (const f of c.set.fields) {
      if (f.create) expect(c.set.create, f.id).toContain(f);
      if (f.replace) expect(c.set.replace, f.id).toContain(f);
    }
    expect(new Set(c.set.fields.map((f) => f.id)).size).toBe(c.set.fields.length);
    const keys = c.set.fields.flatMap((f) => Object.keys(f.schema));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('exports every live value so that reading it back plans no change and records no drift', () => {
    fc.assert(
      fc.property(c.live, (live) => {
        const { fields } = exportFields(c.set, live, c.ctx);
        const raw = Object.fromEntries(fields.filter((f) => !f.commented).map((f) => [f.key, asConfig(f.value)]));
        const desired = c.blank();
        readDesiredFields(c.set, raw, desired, c.ctx.key);
        for (const api of APIS) {
          expect(replaceChanges(c.set, desired, live, api)).toEqual([]);
          expect(updateSteps(c.set, desired, live, undefined, api)).toEqual([]);
        }
        expect(driftedFields(c.set, recordFields(c.set, desired), live)).toEqual([]);
      }),
    );
  });

  it('records a field as drifted exactly when the plan would change it (record and live agree with compare)', () => {
    fc.assert(
      fc.property(c.desired, c.live, (desired, live) => {
        const drifted = new Set(driftedFields(c.set, recordFields(c.set, desired), live));
        for (const f of c.set.fields) {
          if (f.plannedBy !== undefined || f.live === undefined) continue;
          for (const api of APIS) {
            const planned = f.update?.(desired, live, undefined, api) !== undefined || (f.replace?.(desired, live, api)?.length ?? 0) > 0;
            expect(drifted.has(f.id), `${f.id}: ${JSON.stringify(f.record(desired))} vs ${JSON.stringify(f.live(live))} (${JSON.stringify(api)})`).toBe(planned);
          }
        }
      }),
    );
  });
}
