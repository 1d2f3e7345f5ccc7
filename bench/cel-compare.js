#!/usr/bin/env node
// `node bench/cel-compare.js [--out FILE]`: the measurement behind dbform's choice of CEL library
// (SPEC section 16, issue 26). Not part of `npm test` or `npm run bench`: it installs the
// candidates, pinned, into bench/out/cel-candidates/ with npm (the first run only) and compares
//   - conformance: the official cel-spec conformance tests (shipped by @bufbuild/cel-spec, from
//     google/cel-spec) of the standard-library suites, and cel-go's parser tests: pass rates, all
//     tests and the tests that need no protobuf message (what dbform's variables are);
//   - type checking: whether a checker exists, how many well-typed conformance expressions it
//     accepts, and how many of cel-go's ill-typed checker cases it rejects;
//   - speed: 10 realistic rules compiled once, evaluated over 1,000 actions;
//   - maintenance and size: release dates from `npm view`, bytes on disk with dependencies.
// Prints a markdown table and writes the raw figures as JSON (default bench/out/cel-compare.json).
// Times are CPU times (the machine is shared); build first (`npm run build`): one row uses dist/.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = join(import.meta.dirname, '..');
const DIR = join(ROOT, 'bench', 'out', 'cel-candidates');
const CANDIDATES = { '@bufbuild/cel': '0.6.1', '@marcbachmann/cel-js': '8.0.0', 'cel-js': '0.8.2' };
/** Installed beside them: the conformance data and @bufbuild/cel's peer dependency. */
const SUPPORT = { '@bufbuild/cel-spec': '0.6.1', '@bufbuild/protobuf': '2.17.0' };
// The suites of the language and its standard library (cel-spec's tests/simple/testdata); left
// out: extensions (bindings_ext, block_ext, encoders_ext, math_ext, string_ext, macros2's
// two-variable comprehensions, optionals) and protobuf-only suites (proto2, proto3, enums,
// wrappers, dynamic, namespace).
const SUITES = ['basic', 'comparisons', 'conversions', 'fields', 'fp_math', 'integer_math', 'lists', 'logic', 'macros', 'parse', 'plumbing', 'string', 'timestamps', 'type_deductions'];

const log = (line) => process.stderr.write(`[cel-compare] ${line}\n`);

function install() {
  const wanted = { ...CANDIDATES, ...SUPPORT };
  const missing = Object.keys(wanted).filter((n) => !existsSync(join(DIR, 'node_modules', n, 'package.json')));
  if (missing.length === 0) return;
  mkdirSync(DIR, { recursive: true });
  writeFileSync(join(DIR, 'package.json'), `${JSON.stringify({ name: 'cel-candidates', private: true, type: 'module' })}\n`);
  log(`npm install into ${DIR}: ${Object.entries(wanted).map(([n, v]) => `${n}@${v}`).join(' ')}`);
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefix', DIR, ...Object.entries(wanted).map(([n, v]) => `${n}@${v}`)], { stdio: 'inherit' });
}

/** Modules resolved from the candidates' folder (a bare specifier resolves from the importing file). */
async function loadModules() {
  const loader = join(DIR, 'load.mjs');
  writeFileSync(
    loader,
    [
      "export * as buf from '@bufbuild/cel';",
      "export * as bufExt from '@bufbuild/cel/ext';",
      "export * as marc from '@marcbachmann/cel-js';",
      "export * as chrome from 'cel-js';",
      "export * as spec from '@bufbuild/cel-spec/testdata/tests.js';",
      "export * as registry from '@bufbuild/cel-spec/testdata/registry.js';",
      "export * as pb from '@bufbuild/protobuf';",
      "export * as wkt from '@bufbuild/protobuf/wkt';",
      '',
    ].join('\n'),
  );
  return import(pathToFileURL(loader).href);
}

// ---- the expected values, in one neutral form ------------------------------------------------

const hex = (bytes) => Buffer.from(bytes).toString('hex');

/** A result that is a plain JavaScript value, in the comparison's form (undefined: not one). */
function plainOut(v, out) {
  if (v === null || v === undefined) return ['null'];
  if (typeof v === 'boolean') return ['bool', v];
  if (typeof v === 'bigint') return ['int', v];
  if (typeof v === 'number') return ['double', v];
  if (typeof v === 'string') return ['string', v];
  if (v instanceof Uint8Array) return ['bytes', hex(v)];
  if (v instanceof Date) {
    const ms = v.getTime();
    return ['timestamp', BigInt(Math.floor(ms / 1000)), (((ms % 1000) + 1000) % 1000) * 1e6];
  }
  if (Array.isArray(v)) return ['list', v.map(out)];
  if (v instanceof Map) return ['map', [...v].map(([k, x]) => [out(k), out(x)])];
  return undefined;
}

/** A cel.expr.Value as a comparable tree: [tag, ...]. */
function expectedOf(value, m) {
  const k = value.kind;
  switch (k.case) {
    case 'nullValue': return ['null'];
    case 'boolValue': return ['bool', k.value];
    case 'int64Value': return ['int', BigInt(k.value)];
    case 'uint64Value': return ['uint', BigInt(k.value)];
    case 'doubleValue': return ['double', k.value];
    case 'stringValue': return ['string', k.value];
    case 'bytesValue': return ['bytes', hex(k.value)];
    case 'listValue': return ['list', k.value.values.map((v) => expectedOf(v, m))];
    case 'mapValue': return ['map', k.value.entries.map((e) => [expectedOf(e.key, m), expectedOf(e.value, m)])];
    case 'typeValue': return ['type', k.value];
    case 'enumValue': return ['int', BigInt(k.value.value)];
    case 'objectValue': return expectedMessage(k.value, m);
    default: return ['unsupported', k.case];
  }
}

function expectedMessage(any, m) {
  const name = any.typeUrl.slice(any.typeUrl.lastIndexOf('/') + 1);
  if (name === 'google.protobuf.Timestamp') {
    const ts = m.pb.fromBinary(m.wkt.TimestampSchema, any.value);
    return ['timestamp', BigInt(ts.seconds), ts.nanos];
  }
  if (name === 'google.protobuf.Duration') {
    const d = m.pb.fromBinary(m.wkt.DurationSchema, any.value);
    return ['duration', BigInt(d.seconds), d.nanos];
  }
  return ['message', name, hex(any.value)];
}

/** Equal as CEL values; `loose`: one number type (cel-js has only JavaScript numbers). */
function same(expected, actual, loose) {
  if (!Array.isArray(actual)) return false;
  const [t, ...a] = expected;
  const [u, ...b] = actual;
  if (loose && ['int', 'uint', 'double'].includes(t) && ['int', 'uint', 'double'].includes(u)) return Number(a[0]) === Number(b[0]) || (Number.isNaN(Number(a[0])) && Number.isNaN(Number(b[0])));
  if (t !== u) return false;
  if (t === 'double') return a[0] === b[0] || (Number.isNaN(a[0]) && Number.isNaN(b[0]));
  if (t === 'list') return a[0].length === b[0].length && a[0].every((x, i) => same(x, b[0][i], loose));
  if (t === 'map') {
    if (a[0].length !== b[0].length) return false;
    // Keys compared by their printed value: one library keeps map keys as object property names.
    const key = (k) => String(k[1]);
    return a[0].every(([k, v]) => {
      const found = b[0].find(([k2]) => (k2[0] === 'anykey' ? k2[1] === key(k) : same(k, k2, loose)));
      return found !== undefined && same(v, found[1], loose);
    });
  }
  if (t === 'type') return normalType(a[0]) === normalType(b[0]);
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

const TYPE_ALIASES = { 'google.protobuf.Timestamp': 'timestamp', 'google.protobuf.Duration': 'duration', null_type: 'null_type', 'null': 'null_type' };
const normalType = (name) => TYPE_ALIASES[name] ?? name;

// ---- which tests need protobuf messages -----------------------------------------------------

function declTypeNeedsProto(type) {
  if (!type) return false;
  const t = type.typeKind;
  if (t.case === 'messageType' || t.case === 'wrapper') return true;
  if (t.case === 'listType') return declTypeNeedsProto(t.value.elemType);
  if (t.case === 'mapType') return declTypeNeedsProto(t.value.keyType) || declTypeNeedsProto(t.value.valueType);
  return false;
}

function valueNeedsProto(v) {
  const k = v?.kind;
  if (!k) return false;
  if (k.case === 'objectValue') return !/google\.protobuf\.(Timestamp|Duration)$/.test(k.value.typeUrl);
  if (k.case === 'listValue') return k.value.values.some(valueNeedsProto);
  if (k.case === 'mapValue') return k.value.entries.some((e) => valueNeedsProto(e.key) || valueNeedsProto(e.value));
  return false;
}

/** True when the test builds or reads a protobuf message other than Timestamp and Duration. */
function needsProto(t) {
  if (t.container !== '') return true;
  if (/TestAllTypes|NestedTestAllTypes|google\.protobuf\.(?!Timestamp\b|Duration\b)|cel\.expr\.|\.conformance\./.test(t.expr)) return true;
  if (t.typeEnv.some((d) => d.declKind.case === 'ident' && declTypeNeedsProto(d.declKind.value.type))) return true;
  if (Object.values(t.bindings).some((b) => valueNeedsProto(b.kind?.value))) return true;
  const r = t.resultMatcher;
  if (r.case === 'value') return valueNeedsProto(r.value);
  if (r.case === 'typedResult') return valueNeedsProto(r.value.result) || declTypeNeedsProto(r.value.deducedType);
  return false;
}

// ---- one adapter per library ----------------------------------------------------------------

class Unsupported extends Error {}

function bufAdapter(m) {
  const { buf } = m;
  const registry = m.registry.getTestRegistry();
  const input = (v) => {
    const k = v.kind;
    switch (k.case) {
      case 'nullValue': return null;
      case 'boolValue': case 'stringValue': case 'doubleValue': return k.value;
      case 'int64Value': return BigInt(k.value);
      case 'uint64Value': return buf.celUint(BigInt(k.value));
      case 'bytesValue': return k.value;
      case 'listValue': return k.value.values.map(input);
      case 'mapValue': return new Map(k.value.entries.map((e) => [input(e.key), input(e.value)]));
      case 'objectValue': return m.pb.anyUnpack(k.value, registry);
      default: throw new Unsupported(k.case);
    }
  };
  const out = (v) => {
    if (v === null) return ['null'];
    if (typeof v === 'boolean') return ['bool', v];
    if (typeof v === 'bigint') return ['int', v];
    if (typeof v === 'number') return ['double', v];
    if (typeof v === 'string') return ['string', v];
    if (v instanceof Uint8Array) return ['bytes', hex(v)];
    if (buf.isCelUint(v)) return ['uint', v.value];
    if (buf.isCelList(v)) return ['list', [...v].map(out)];
    if (buf.isCelMap(v)) return ['map', [...v].map(([k, x]) => [out(k), out(x)])];
    if (buf.isCelType(v)) return ['type', v.name];
    if (v && typeof v === 'object' && 'desc' in v && 'message' in v) return messageOut(v.desc.typeName, v.message, v.desc);
    if (v && typeof v === 'object' && '$typeName' in v) return messageOut(v.$typeName, v);
    return ['unknown', String(v)];
  };
  const messageOut = (name, msg, desc) => {
    if (name === 'google.protobuf.Timestamp') return ['timestamp', BigInt(msg.seconds), msg.nanos];
    if (name === 'google.protobuf.Duration') return ['duration', BigInt(msg.seconds), msg.nanos];
    const schema = desc ?? registry.getMessage(name);
    return ['message', name, schema ? hex(m.pb.toBinary(schema, msg)) : '?'];
  };
  return {
    name: '@bufbuild/cel',
    evaluate(t) {
      const env = buf.celEnv({ namespace: t.container, registry, funcs: m.bufExt.strings });
      const bindings = Object.fromEntries(Object.entries(t.bindings).map(([k, b]) => [k, input(b.kind.value)]));
      let program;
      try {
        program = buf.plan(env, buf.parse(t.expr));
      } catch (e) {
        return { error: e };
      }
      const r = program(bindings);
      return buf.isCelError(r) ? { error: r } : { value: out(r) };
    },
    parses(expr) {
      try {
        buf.parse(expr);
        return true;
      } catch {
        return false;
      }
    },
    /** @bufbuild/cel 0.6.1 has a checker (dist/esm/check.js) but does not export it. */
    checker: undefined,
    compile: (expr) => {
      const env = buf.celEnv({ funcs: m.bufExt.strings });
      const program = buf.plan(env, buf.parse(expr));
      return (vars) => program(vars);
    },
    runtimeValue: (v) => v,
  };
}

/** @marcbachmann/cel-js: its type names for a cel.expr.Type, or undefined when it has none. */
function marcTypeName(type) {
  const t = type?.typeKind;
  if (!t) return 'dyn';
  switch (t.case) {
    case 'primitive': return ['', 'bool', 'int', 'uint', 'double', 'string', 'bytes'][t.value];
    case 'dyn': return 'dyn';
    case 'null': return 'null_type';
    case 'listType': return `list<${marcTypeName(t.value.elemType)}>`;
    case 'mapType': return `map<${marcTypeName(t.value.keyType)}, ${marcTypeName(t.value.valueType)}>`;
    case 'wellKnown': return ['dyn', 'dyn', 'google.protobuf.Timestamp', 'google.protobuf.Duration'][t.value];
    case 'type': return 'type';
    default: throw new Unsupported(`type ${t.case}`);
  }
}

function marcAdapter(m) {
  const { marc } = m;
  const input = (v) => {
    const k = v.kind;
    switch (k.case) {
      case 'nullValue': return null;
      case 'boolValue': case 'stringValue': case 'doubleValue': return k.value;
      case 'int64Value': return BigInt(k.value);
      case 'bytesValue': return k.value;
      case 'listValue': return k.value.values.map(input);
      case 'mapValue': return new Map(k.value.entries.map((e) => [input(e.key), input(e.value)]));
      case 'objectValue': {
        const x = expectedMessage(k.value, m);
        if (x[0] === 'timestamp') return new Date(Number(x[1]) * 1000 + Math.floor(x[2] / 1e6));
        throw new Unsupported('message binding');
      }
      default: throw new Unsupported(k.case);
    }
  };
  const out = (v) => {
    const plain = plainOut(v, out);
    if (plain) return plain;
    const ctor = v.constructor?.name;
    if (ctor === 'UnsignedInt' || ctor === 'UnsignedInteger') return ['uint', BigInt(v.value)];
    if (ctor === 'Type') return ['type', String(v).replace(/^Type<|>$/g, '').replace(/^\[Type<|>\]$/g, '')];
    if (ctor === 'Duration') return ['duration', BigInt(v.seconds), v.nanos];
    if (ctor === 'Object' || ctor === undefined) return ['map', Object.entries(v).map(([k, x]) => [['anykey', k], out(x)])];
    return ['unknown', `${ctor}:${String(v)}`];
  };
  const envFor = (t) => {
    const env = new marc.Environment({ unlistedVariablesAreDyn: true, homogeneousAggregateLiterals: false, enableOptionalTypes: true });
    for (const d of t.typeEnv) if (d.declKind.case === 'ident') env.registerVariable(d.name, marcTypeName(d.declKind.value.type));
    return env;
  };
  return {
    name: '@marcbachmann/cel-js',
    evaluate(t) {
      let program;
      try {
        const env = envFor(t);
        program = env.parse(t.expr);
      } catch (e) {
        if (e instanceof Unsupported) throw e;
        return { error: e };
      }
      const bindings = Object.fromEntries(Object.entries(t.bindings).map(([k, b]) => [k, input(b.kind.value)]));
      try {
        return { value: out(program(bindings)) };
      } catch (e) {
        return { error: e };
      }
    },
    parses(expr) {
      try {
        marc.parse(expr);
        return true;
      } catch {
        return false;
      }
    },
    checker(t) {
      const env = new marc.Environment({ unlistedVariablesAreDyn: false, homogeneousAggregateLiterals: false, enableOptionalTypes: true });
      for (const d of t.typeEnv) if (d.declKind.case === 'ident') env.registerVariable(d.name, marcTypeName(d.declKind.value.type));
      const r = env.check(t.expr);
      return r.valid ? { ok: true, type: String(r.type) } : { ok: false, error: r.error };
    },
    // As dbform compiles a rule: parsed and type-checked once.
    compile: (expr, env) => {
      const program = env.parse(expr);
      const checked = program.check();
      if (!checked.valid) throw checked.error;
      return program;
    },
    makeEnv: () =>
      new marc.Environment({ homogeneousAggregateLiterals: false })
        .registerVariable('action', 'map<string, dyn>')
        .registerVariable('resource', 'map<string, dyn>')
        .registerVariable('plan', 'map<string, int>')
        .registerVariable('workspace', 'string')
        .registerVariable('project_id', 'string')
        .registerVariable('now', 'google.protobuf.Timestamp'),
  };
}

function chromeAdapter(m) {
  const { chrome } = m;
  const input = (v) => {
    const k = v.kind;
    switch (k.case) {
      case 'nullValue': return null;
      case 'boolValue': case 'stringValue': case 'doubleValue': return k.value;
      case 'int64Value': case 'uint64Value': return Number(k.value);
      case 'listValue': return k.value.values.map(input);
      case 'mapValue': return Object.fromEntries(k.value.entries.map((e) => [String(input(e.key)), input(e.value)]));
      default: throw new Unsupported(k.case);
    }
  };
  const out = (v) => {
    const plain = plainOut(v, out);
    if (plain) return plain;
    if (typeof v === 'object') return ['map', Object.entries(v).map(([k, x]) => [['anykey', k], out(x)])];
    return ['unknown', String(v)];
  };
  return {
    name: 'cel-js',
    loose: true,
    evaluate(t) {
      const parsed = chrome.parse(t.expr);
      if (!parsed.isSuccess) return { error: new Error(parsed.errors.join('; ')) };
      const bindings = Object.fromEntries(Object.entries(t.bindings).map(([k, b]) => [k, input(b.kind.value)]));
      try {
        return { value: out(chrome.evaluate(parsed.cst, bindings)) };
      } catch (e) {
        return { error: e };
      }
    },
    parses: (expr) => chrome.parse(expr).isSuccess,
    checker: undefined,
    compile: (expr) => {
      const parsed = chrome.parse(expr);
      if (!parsed.isSuccess) throw new Error(parsed.errors.join('; '));
      return (vars) => chrome.evaluate(parsed.cst, vars);
    },
  };
}

// ---- conformance ----------------------------------------------------------------------------

function flatten(suite, path = []) {
  const here = [...path, suite.name];
  return [...suite.tests.map((t) => ({ path: here.join('/'), test: t })), ...suite.suites.flatMap((s) => flatten(s, here))];
}

/** pass | fail | unsupported (the library cannot be given the test's inputs; counted as a fail). */
function runOne(adapter, t, m) {
  const r = t.resultMatcher;
  if (t.checkOnly) return undefined;
  let got;
  try {
    got = adapter.evaluate(t);
  } catch (e) {
    if (e instanceof Unsupported) return 'unsupported';
    got = { error: e };
  }
  if (r.case === 'evalError' || r.case === 'anyEvalErrors') return 'error' in got ? 'pass' : 'fail';
  const expected = r.case === 'value' ? r.value : r.case === 'typedResult' ? r.value.result : undefined;
  if (!expected) return undefined;
  if ('error' in got) return 'fail';
  return same(expectedOf(expected, m), got.value, adapter.loose) ? 'pass' : 'fail';
}

function conformance(adapters, m) {
  const root = m.spec.getConformanceSuite();
  const rows = {};
  for (const name of SUITES) {
    const suite = root.suites.find((s) => s.name === name);
    const tests = flatten(suite).map((x) => x.test.original);
    rows[name] = {};
    for (const a of adapters) {
      const tally = { all: 0, allPass: 0, plain: 0, plainPass: 0 };
      for (const t of tests) {
        const result = runOne(a, t, m);
        if (result === undefined) continue;
        const plain = !needsProto(t);
        tally.all++;
        if (result === 'pass') tally.allPass++;
        if (plain) {
          tally.plain++;
          if (result === 'pass') tally.plainPass++;
        }
      }
      rows[name][a.name] = tally;
    }
  }
  return rows;
}

/** cel-go's parser tests: what cel-go's parser accepts (it gives an AST) parses, what it refuses is refused. */
function parsing(adapters, m) {
  const tests = flatten(m.spec.getParsingSuite()).map((x) => x.test);
  const out = {};
  for (const a of adapters) {
    let pass = 0;
    for (const t of tests) if (a.parses(t.original.expr) === (t.ast !== undefined)) pass++;
    out[a.name] = { total: tests.length, pass };
  }
  return out;
}

/** The checker: accepts the well-typed conformance expressions (no protobuf messages), rejects cel-go's ill-typed ones. */
function checking(adapters, m) {
  const root = m.spec.getConformanceSuite();
  const typed = SUITES.flatMap((n) => flatten(root.suites.find((s) => s.name === n)))
    .map((x) => x.test)
    .filter((x) => !x.original.disableCheck && !needsProto(x.original) && (x.original.resultMatcher.case === 'value' || x.original.resultMatcher.case === 'typedResult'));
  const illTyped = flatten(m.spec.getCheckingSuite())
    .map((x) => x.test)
    .filter((x) => x.error !== undefined && !needsProto(x.original) && !/unsupported syntax/.test(x.error) && x.original.typeEnv.every((d) => d.declKind.case === 'ident'));
  const out = {};
  for (const a of adapters) {
    if (!a.checker) {
      out[a.name] = undefined;
      continue;
    }
    let accepted = 0;
    let sameType = 0;
    let withType = 0;
    for (const t of typed) {
      let r;
      try {
        r = a.checker(t.original);
      } catch {
        r = { ok: false };
      }
      if (r.ok) accepted++;
      if (t.type !== undefined) {
        withType++;
        if (r.ok && celGoType(r.type) === t.type) sameType++;
      }
    }
    let rejected = 0;
    for (const t of illTyped) {
      let r;
      try {
        r = a.checker(t.original);
      } catch {
        r = { ok: false };
      }
      if (!r.ok) rejected++;
    }
    out[a.name] = { wellTyped: typed.length, accepted, withType, sameType, illTyped: illTyped.length, rejected };
  }
  return out;
}

/** A type name as cel-go prints it: list(int), map(string, dyn), google.protobuf.Timestamp. */
function celGoType(name) {
  return name.replace(/</g, '(').replace(/>/g, ')').replace(/^null_type$/, 'null').replace(/\btype$/, 'type(dyn)');
}

// ---- speed ----------------------------------------------------------------------------------

/** Ten rules of the kind SPEC section 16 shows, over the variables dbform binds. */
const SPEED_RULES = [
  'action.risk == "data-loss" && resource.environment == "PROD"',
  'workspace.startsWith("pr-") && action.op in ["createService", "forkService", "resizeService"] && int(resource.cpu_millis) > 2000',
  'action.op == "stopService" && resource.environment == "PROD"',
  '!(resource.region_code in ["us-east-1", "eu-central-1"])',
  'has(resource.ha) && resource.ha.replicas == 0 && resource.environment == "PROD"',
  'action.changes.exists(c, c.path == "cpu_millis" && int(c.after) > 8000)',
  'action.op == "deleteVPC" && project_id.startsWith("prod")',
  'now.getDayOfWeek("Europe/Berlin") == 5 && now.getHours("Europe/Berlin") >= 15',
  'plan.delete > 10 && action.op.startsWith("delete")',
  'action.kind == "service" && resource.name.size() > 40',
];
/** The rule that reads a time zone's wall clock: each library builds a date formatter per call. */
const ZONE_RULE = SPEED_RULES[7];

function speedInput(i, flavour) {
  const big = flavour === 'number' ? Number : BigInt;
  const resource = { name: `svc-${i}`, environment: i % 3 === 0 ? 'PROD' : 'DEV', cpu_millis: big(1000 + (i % 8) * 1000), memory_gbs: big(4), region_code: 'us-east-1', ha: { replicas: big(i % 2) }, paused: false };
  const action = { op: i % 2 ? 'resizeService' : 'createService', address: `service.svc-${i}`, kind: 'service', risk: 'none', changes: [{ path: 'cpu_millis', before: big(1000), after: big(2000) }] };
  const plan = { create: big(500), update: big(500), replace: big(0), delete: big(0) };
  return { action, resource, plan };
}

/** CPU milliseconds (user + system) of `fn`: the machine is shared, and wall time carries the others' load. */
function timeIt(fn) {
  const t = process.cpuUsage();
  fn();
  const d = process.cpuUsage(t);
  return (d.user + d.system) / 1000;
}

/** Median of 7 timed passes (after one untimed) of every program over every activation. */
function timeRules(programs, vars, errors) {
  const once = () => {
    for (const v of vars) {
      for (const p of programs) {
        try {
          const r = p(v);
          if (r instanceof Error) errors.add(r.message.split('\n')[0]);
        } catch (e) {
          errors.add(e.message.split('\n')[0]);
        }
      }
    }
  };
  once();
  return Array.from({ length: 7 }, () => timeIt(once)).sort((x, y) => x - y)[3];
}

/** dbform's `now` binding, from the build; undefined before src/policy was built. */
async function dbformRunInstant() {
  try {
    return (await import('../dist/policy/cel-env.js')).runInstant;
  } catch {
    return undefined;
  }
}

async function speed(m, adapters) {
  const out = {};
  for (const a of adapters) {
    const env = a.makeEnv?.();
    const flavour = a.loose ? 'number' : 'bigint';
    let compileMs;
    let programs;
    try {
      compileMs = timeIt(() => {
        programs = SPEED_RULES.map((r) => a.compile(r, env));
      });
    } catch (e) {
      out[a.name] = { error: e.message.split('\n')[0] };
      continue;
    }
    const inputs = Array.from({ length: 1000 }, (_, i) => speedInput(i, flavour));
    const now = a.name === '@bufbuild/cel' ? m.wkt.timestampFromDate(new Date('2026-05-15T14:00:00Z')) : new Date('2026-05-15T14:00:00Z');
    const vars = inputs.map((x) => ({ ...x, workspace: 'pr-12', project_id: 'prod-1', now }));
    const errors = new Set();
    const zone = SPEED_RULES.indexOf(ZONE_RULE);
    const allMs = timeRules(programs, vars, errors);
    const withoutZoneMs = timeRules(programs.filter((_, i) => i !== zone), vars, errors);
    out[a.name] = { compileMs, allMs, withoutZoneMs, errors: [...errors].slice(0, 3) };
    const runInstant = await dbformRunInstant();
    if (a.name === '@marcbachmann/cel-js' && runInstant) {
      // As dbform binds it: one Date per run that keeps its readings in each zone (src/policy/cel-env.ts).
      const instant = runInstant(new Date('2026-05-15T14:00:00Z'));
      out[a.name].allWithRunInstantMs = timeRules(programs, inputs.map((x) => ({ ...x, workspace: 'pr-12', project_id: 'prod-1', now: instant })), errors);
    }
  }
  return out;
}

// ---- size and maintenance -------------------------------------------------------------------

function dirBytes(dir) {
  let total = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    total += e.isDirectory() ? dirBytes(p) : statSync(p).size;
  }
  return total;
}

function sizes() {
  const nm = join(DIR, 'node_modules');
  const bytes = (n) => dirBytes(join(nm, n));
  return {
    '@bufbuild/cel': { own: bytes('@bufbuild/cel'), withDeps: bytes('@bufbuild/cel') + bytes('@bufbuild/cel-spec') + bytes('@bufbuild/re2') + bytes('@bufbuild/protobuf'), deps: '@bufbuild/cel-spec, @bufbuild/re2, peer @bufbuild/protobuf' },
    '@marcbachmann/cel-js': { own: bytes('@marcbachmann/cel-js'), withDeps: bytes('@marcbachmann/cel-js'), deps: 'none' },
    'cel-js': { own: bytes('cel-js'), withDeps: bytes('cel-js') + bytes('chevrotain') + bytes('@chevrotain') + bytes('ramda') + bytes('lodash-es'), deps: 'chevrotain, ramda' },
  };
}

function releases(name) {
  try {
    const time = JSON.parse(execFileSync('npm', ['view', name, 'time', '--json'], { encoding: 'utf8' }));
    const versions = Object.entries(time).filter(([k]) => k !== 'created' && k !== 'modified');
    const dates = versions.map(([, d]) => d).sort();
    const latest = dates.at(-1);
    const yearBefore = new Date(Date.parse(latest) - 365 * 86400e3).toISOString();
    return { versions: versions.length, latest: latest.slice(0, 10), inYearBeforeLatest: dates.filter((d) => d >= yearBefore).length };
  } catch (e) {
    return { error: e.message.split('\n')[0] };
  }
}

/** CPU milliseconds to import the library in a fresh node (what `dbform plan --policy` would add). */
function importMs(spec) {
  const code = `const t=process.cpuUsage();await import(${JSON.stringify(spec)});const d=process.cpuUsage(t);console.log((d.user+d.system)/1000)`;
  const runs = Array.from({ length: 7 }, () => Number(execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: DIR, encoding: 'utf8' }))).sort((a, b) => a - b);
  return runs[3];
}

// ---- report ---------------------------------------------------------------------------------

const pct = (n, d) => (d === 0 ? '-' : `${((100 * n) / d).toFixed(1)}%`);

function render(r) {
  const names = Object.keys(CANDIDATES);
  const lines = [];
  lines.push(`| suite (cel-spec ${r.celSpec}) | ${names.map((n) => `${n} all | ${n} no-proto`).join(' | ')} |`);
  lines.push(`| --- | ${names.map(() => '--- | ---').join(' | ')} |`);
  const totals = Object.fromEntries(names.map((n) => [n, { all: 0, allPass: 0, plain: 0, plainPass: 0 }]));
  for (const [suite, row] of Object.entries(r.conformance)) {
    lines.push(`| ${suite} | ${names.map((n) => `${row[n].allPass}/${row[n].all} | ${row[n].plainPass}/${row[n].plain}`).join(' | ')} |`);
    for (const n of names) for (const k of Object.keys(totals[n])) totals[n][k] += row[n][k];
  }
  lines.push(`| **total** | ${names.map((n) => `**${pct(totals[n].allPass, totals[n].all)}** (${totals[n].allPass}/${totals[n].all}) | **${pct(totals[n].plainPass, totals[n].plain)}** (${totals[n].plainPass}/${totals[n].plain})`).join(' | ')} |`);
  lines.push(`| cel-go parser tests (valid parse, invalid refused) | ${names.map((n) => `${r.parsing[n].pass}/${r.parsing[n].total} | `).join(' | ')} |`);
  lines.push('');
  lines.push('| | ' + names.join(' | ') + ' |');
  lines.push('| --- | ' + names.map(() => '---').join(' | ') + ' |');
  const check = (n) => r.checking[n];
  lines.push(`| type checker (public API) | ${names.map((n) => (check(n) ? 'yes, positioned' : 'no')).join(' | ')} |`);
  lines.push(`| well-typed conformance exprs accepted | ${names.map((n) => (check(n) ? `${check(n).accepted}/${check(n).wellTyped}` : '-')).join(' | ')} |`);
  lines.push(`| ... with cel-go's type | ${names.map((n) => (check(n) ? `${check(n).sameType}/${check(n).withType}` : '-')).join(' | ')} |`);
  lines.push(`| cel-go's ill-typed cases rejected | ${names.map((n) => (check(n) ? `${check(n).rejected}/${check(n).illTyped}` : '-')).join(' | ')} |`);
  const sp = (n) => r.speed[n];
  lines.push(`| compile 10 rules (CPU ms) | ${names.map((n) => (sp(n).error ? `failed: ${sp(n).error}` : sp(n).compileMs.toFixed(1))).join(' | ')} |`);
  const evalCell = (n, key) => (sp(n).error ? '-' : `${sp(n)[key].toFixed(1)}${sp(n).errors.length ? ' (rules fail, see below)' : ''}`);
  lines.push(`| evaluate 10 rules x 1,000 actions (CPU ms, median of 7) | ${names.map((n) => evalCell(n, 'allMs')).join(' | ')} |`);
  lines.push(`| ... with dbform's \`now\` (src/policy/cel-env.ts runInstant) | ${names.map((n) => (sp(n).allWithRunInstantMs === undefined ? '-' : sp(n).allWithRunInstantMs.toFixed(1))).join(' | ')} |`);
  lines.push(`| ... the 9 without the time-zone rule | ${names.map((n) => evalCell(n, 'withoutZoneMs')).join(' | ')} |`);
  lines.push(`| rules that fail to evaluate | ${names.map((n) => (sp(n).error ? sp(n).error : sp(n).errors.length ? sp(n).errors.join('; ') : 'none')).join(' | ')} |`);
  lines.push(`| import in a fresh node (CPU ms, median of 7) | ${names.map((n) => r.importMs[n].toFixed(0)).join(' | ')} |`);
  lines.push(`| size on disk, own / with dependencies | ${names.map((n) => `${(r.sizes[n].own / 1024).toFixed(0)} KiB / ${(r.sizes[n].withDeps / 1024).toFixed(0)} KiB`).join(' | ')} |`);
  lines.push(`| dependencies | ${names.map((n) => r.sizes[n].deps).join(' | ')} |`);
  lines.push(`| releases: latest, count (in the year before the latest) | ${names.map((n) => (r.releases[n].error ? r.releases[n].error : `${CANDIDATES[n]} ${r.releases[n].latest}, ${r.releases[n].versions} (${r.releases[n].inYearBeforeLatest})`)).join(' | ')} |`);
  return lines.join('\n');
}

async function main() {
  const outIndex = process.argv.indexOf('--out');
  const outFile = outIndex > 0 ? process.argv[outIndex + 1] : join(ROOT, 'bench', 'out', 'cel-compare.json');
  install();
  const m = await loadModules();
  const adapters = [bufAdapter(m), marcAdapter(m), chromeAdapter(m)];
  log('conformance');
  const result = {
    node: process.version,
    celSpec: 'v0.25.1',
    versions: CANDIDATES,
    conformance: conformance(adapters, m),
    parsing: parsing(adapters, m),
    checking: checking(adapters, m),
  };
  log('speed');
  result.speed = await speed(m, adapters);
  result.importMs = Object.fromEntries(Object.keys(CANDIDATES).map((n) => [n, importMs(n)]));
  result.sizes = sizes();
  result.releases = Object.fromEntries(Object.keys(CANDIDATES).map((n) => [n, releases(n)]));
  writeFileSync(outFile, `${JSON.stringify(result, (k, v) => (typeof v === 'bigint' ? v.toString() : v), 2)}\n`);
  process.stdout.write(`${render(result)}\n`);
}

await main();
