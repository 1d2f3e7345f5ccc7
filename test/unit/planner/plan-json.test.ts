// The plan JSON (SPEC section 3): schema-valid, round-trips, and a bad saved plan is refused
// with messages naming the field.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { renderPlanValidatorSource } from '../../../src/codegen/validators.js';
import { validate as generatedValidate } from '../../../src/planner/generated/plan-validator.js';
import { fromPlanJson, toPlanJson } from '../../../src/planner/index.js';
import { desiredService, desiredState, liveState, plan } from './builders.js';
import { oneChangePlan, richPlan } from './scenarios.js';

const schema = JSON.parse(readFileSync(join(import.meta.dirname, '../../../schemas/plan.schema.json'), 'utf8'));
const validate = new Ajv2020.default({ allErrors: true, strict: true }).compile(schema);

const cases = {
  rich: richPlan(),
  'rich, data loss allowed': richPlan(true),
  'one change': oneChangePlan(3),
  empty: plan(desiredState(), liveState()),
  'create with password': plan(desiredState({ services: [desiredService('db', { password: { fromEnv: 'PW', version: 1 } })] }), liveState()),
};

describe('plan JSON', () => {
  it.each(Object.entries(cases))('%s validates against schemas/plan.schema.json', (_n, p) => {
    const json = JSON.parse(JSON.stringify(toPlanJson(p)));
    const ok = validate(json);
    expect(validate.errors ?? [], JSON.stringify(validate.errors)).toEqual([]);
    expect(ok).toBe(true);
  });

  it('the schema rejects a secret in a request body and an unknown field', () => {
    const json = JSON.parse(JSON.stringify(toPlanJson(richPlan())));
    json.actions[0].request = { password: 'hunter2' };
    expect(validate(json)).toBe(false);
    const other = JSON.parse(JSON.stringify(toPlanJson(richPlan())));
    other.surprise = 1;
    expect(validate(other)).toBe(false);
  });

  it('has the SPEC key order and snake_case', () => {
    const json = toPlanJson(richPlan());
    expect(Object.keys(json)).toEqual(['format_version', 'project_id', 'summary', 'drift', 'actions', 'bindings', 'fingerprints', 'state_fingerprint', 'diagnostics']);
    expect(Object.keys(json.actions[0]!).slice(0, 8)).toEqual(['id', 'address', 'kind', 'op', 'reason', 'risk', 'depends_on', 'changes']);
    const pw = json.actions.find((a) => a.op === 'updatePassword')!;
    expect(pw.password).toEqual({ from_env: 'DB_PASSWORD', version: 2 });
    expect(pw.changes).toEqual([
      { path: 'password', before: '(sensitive)', after: '(sensitive)', sensitive: true },
      { path: 'password.version', before: 1, after: 2 },
    ]);
  });

  it.each(Object.entries(cases))('%s round-trips through fromPlanJson', (_n, p) => {
    const back = fromPlanJson(JSON.parse(JSON.stringify(toPlanJson(p))));
    expect(back.ok).toBe(true);
    if (back.ok) expect(back.value).toEqual(p);
  });

  it('keeps config_hash', () => {
    // A saved plan: config_hash comes with lineage, serial and options (the schema's dependentRequired).
    const p = { ...oneChangePlan(1), configHash: `sha256:${'a'.repeat(64)}`, lineage: null, serial: 0, options: { replace: [], target: [], allowDataLoss: false } };
    const json = toPlanJson(p);
    expect(json.config_hash).toBe(p.configHash);
    const back = fromPlanJson(JSON.parse(JSON.stringify(json)));
    expect(back.ok && back.value.configHash).toBe(p.configHash);
  });

  it.each([
    ['not an object', () => 3, ['plan: must be an object']],
    ['format version', (j: any) => ({ ...j, format_version: 2 }), ['format_version: this dbform reads plan format 1 (found 2); create the plan again with this version']],
    ['unknown op', (j: any) => ({ ...j, actions: [{ ...j.actions[0], op: 'explode' }] }), ['actions[0].op: must be one of']],
    ['dependency on a later action', (j: any) => ({ ...j, actions: [{ ...j.actions[0], depends_on: ['a9'] }] }), ['actions[0].depends_on: "a9" is not an earlier action']],
    ['kind/address mismatch', (j: any) => ({ ...j, actions: [{ ...j.actions[0], kind: 'vpc' }] }), ['actions[0].address: "service.svc-0000" is not a vpc address']],
    ['bad fingerprint', (j: any) => ({ ...j, fingerprints: { 'service.x': 'md5:1' } }), ['fingerprints["service.x"]: must be "sha256:<64 hex digits>"']],
    ['missing summary count', (j: any) => ({ ...j, summary: { ...j.summary, create: -1 } }), ['summary.create: must be a non-negative integer']],
    ['move binding without from', (j: any) => ({ ...j, bindings: [{ kind: 'move', address: 'service.a', id: 'x' }] }), ['bindings[0].from: must be an address']],
  ])('refuses %s', (_n, mutate, expected) => {
    const json = JSON.parse(JSON.stringify(toPlanJson(oneChangePlan(1))));
    const back = fromPlanJson(mutate(json));
    expect(back.ok).toBe(false);
    if (!back.ok) for (const e of expected) expect(back.errors.join('\n')).toContain(e);
  });

  it.each([
    ['an unknown field', (j: any) => ({ ...j, surprise: 1 }), ['surprise: is not a field of a dbform plan']],
    ['a secret in a request body', (j: any) => ({ ...j, actions: [{ ...j.actions[0], request: { password: 'hunter2' } }] }), ['actions[0].request.password: must not be in a plan: a plan never holds a secret']],
    ['a ref with neither address nor id', (j: any) => ({ ...j, actions: [{ ...j.actions[0], refs: { target: {} } }] }), ['actions[0].refs.target: needs an address or an id']],
    ['a dependency listed twice', (j: any) => ({ ...j, actions: [{ ...j.actions[0], id: 'a1', depends_on: [] }, { ...j.actions[0], id: 'a2', depends_on: ['a1', 'a1'] }] }), ['actions[1].depends_on: lists "a1" twice']],
    ['a duplicate action id', (j: any) => ({ ...j, actions: [{ ...j.actions[0], id: 'a1' }, { ...j.actions[0], id: 'a1', depends_on: [] }] }), ['actions[1].id: duplicate id "a1"']],
    ['a sensitive change that shows its value', (j: any) => ({ ...j, actions: [{ ...j.actions[0], changes: [{ path: 'password', before: 'old', after: '(sensitive)', sensitive: true }] }] }), ['actions[0].changes[0].before: must be "(sensitive)"']],
    ['a saved plan without its options', (j: any) => ({ ...j, lineage: null, serial: 0, config_hash: `sha256:${'c'.repeat(64)}` }), ['options: missing: a saved plan with config_hash also records lineage, serial, options']],
    ['a settling VPC', (j: any) => ({ ...j, settling: [{ address: 'vpc.main', id: 'v1', status: 'CREATING' }] }), ['settling[0].address: a VPC has no transitional status to wait for']],
    ['a missing project_id', (j: any) => ({ ...j, project_id: undefined }), ['project_id: must be a non-empty string']],
    [
      'a drift value that is not a scalar',
      (j: any) => ({ ...j, drift: [{ address: 'service.a', id: 'x', deleted: false, changes: [{ path: 'size', before: { cpu_millis: 500 }, after: 2 }] }] }),
      ['drift[0].changes[0].before: must be a string or a number or true or false or null'],
    ],
    ['a drift entry without deleted', (j: any) => ({ ...j, drift: [{ address: 'service.a', id: 'x', changes: [] }] }), ['drift[0].deleted: must be true or false']],
  ])('refuses %s, naming the field', (_n, mutate, expected) => {
    const json = JSON.parse(JSON.stringify(toPlanJson(oneChangePlan(1))));
    const back = fromPlanJson(JSON.parse(JSON.stringify(mutate(json))));
    expect(back.ok ? [] : back.errors).toEqual(expected);
  });

  it('says every problem at once, one line each, in the order of the file', () => {
    const json = JSON.parse(JSON.stringify(toPlanJson(oneChangePlan(1))));
    const back = fromPlanJson({ ...json, summary: { ...json.summary, create: 'many' }, actions: [{ ...json.actions[0], op: 'explode', risk: 'some' }], state_fingerprint: 'x' });
    expect(back.ok).toBe(false);
    if (!back.ok) {
      expect(back.errors.map((e) => e.split(':')[0])).toEqual(['summary.create', 'actions[0].op', 'actions[0].risk', 'state_fingerprint']);
      for (const e of back.errors) expect(e).not.toContain('\n');
    }
  });

  // The saved plan is read by ajv's code for the schema, generated into the planner as plain code.
  it('reads with the validator ajv compiles from schemas/plan.schema.json, committed as generated', () => {
    expect(readFileSync(join(import.meta.dirname, '../../../src/planner/generated/plan-validator.ts'), 'utf8')).toBe(renderPlanValidatorSource());
    const json = JSON.parse(JSON.stringify(toPlanJson(richPlan())));
    expect(generatedValidate(json)).toBe(validate(json));
    json.actions[0].request = { initial_password: 'x' };
    expect(generatedValidate(json)).toBe(false);
    expect(validate(json)).toBe(false);
  });
});
