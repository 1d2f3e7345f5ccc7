// The desired state the loader builds: defaults, `null` semantics, references, interpolation,
// anchors, several files, positions.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fileOf, loadConfig, loadConfigInputs, loadConfigText } from '../../../src/config/index.js';
import type { DesiredState } from '../../../src/model/resources.js';
import { formatDiagnostic } from '../../../src/model/diagnostics.js';
import { removeTempDirs, tempDir } from '../../support/temp-dir.js';

afterAll(removeTempDirs);

const HEAD = 'version: 1\nproject_id: proj-demo\n';

function load(text: string, env: NodeJS.ProcessEnv = {}): DesiredState {
  const result = loadConfigText(text, 'dbform.yaml', { env });
  if (!result.ok) throw new Error(result.errors.map(formatDiagnostic).join('\n'));
  return result.value;
}

function errorsOf(text: string, env: NodeJS.ProcessEnv = {}): string[] {
  const result = loadConfigText(text, 'dbform.yaml', { env });
  return result.ok ? [] : result.errors.map(formatDiagnostic);
}

describe('loadConfigText: normalization', () => {
  it('a minimal config is an empty desired state', () => {
    expect(load(HEAD)).toEqual({ projectId: 'proj-demo', vpcs: [], services: [], moved: [], files: ['dbform.yaml'] });
  });

  it('defaults name to the key and leaves unwritten settings undefined (unmanaged)', () => {
    const state = load(`${HEAD}services:\n  db: {}\n`);
    expect(state.services).toEqual([
      { kind: 'service', address: 'service.db', key: 'db', name: 'db', replicaSets: [], source: { file: 'dbform.yaml', line: 4, col: 3 } },
    ]);
  });

  it('reads an empty section (every entry commented out) as none', () => {
    const d = load(`${HEAD}vpcs:\n  main:\n    cidr: 10.0.0.0/16\n    region_code: us-east-1\n    peerings:\n    # - none yet\nservices:\n  db:\n    replica_sets:\n      # r: {cpu_millis: 500, memory_gbs: 2, nodes: 1}\nmoved:\n`);
    expect(d.vpcs.map((v) => [v.address, v.peerings])).toEqual([['vpc.main', []]]);
    expect(d.services.map((s) => [s.address, s.replicaSets])).toEqual([['service.db', []]]);
    expect(d.moved).toEqual([]);
    expect(load(`${HEAD}vpcs:\nservices:\n  # db: {}\n`)).toMatchObject({ vpcs: [], services: [] });
  });

  it('turns null into the absence it manages', () => {
    const [db] = load(`${HEAD}services:\n  db: {environment: null, ha: null, pooler: null, paused: null, vpc: null}\n`).services;
    expect(db).toMatchObject({ environment: 'DEV', ha: { replicas: 0, syncReplicas: 0 }, pooler: false, paused: false, vpc: null });
  });

  it('sorts and de-duplicates addons, and reads sizes, HA and password', () => {
    const [db] = load(
      `${HEAD}services:\n  db:\n    addons: [time-series, ai, time-series]\n    cpu_millis: 4000\n    memory_gbs: 16\n` +
        '    ha: {replicas: 2}\n    password: {from_env: DB_PW}\n',
    ).services;
    expect(db).toMatchObject({
      addons: ['ai', 'time-series'],
      size: { cpuMillis: 4000, memoryGbs: 16 },
      ha: { replicas: 2, syncReplicas: 0 },
      password: { fromEnv: 'DB_PW', version: 1 },
    });
    const [shared] = load(`${HEAD}services:\n  s: {cpu_millis: shared, memory_gbs: shared}\n`).services;
    expect(shared!.size).toEqual({ cpuMillis: 'shared', memoryGbs: 'shared' });
  });

  it('resolves both forms of vpc and fork.from', () => {
    const state = load(
      `${HEAD}vpcs:\n  main: {cidr: 10.0.0.0/16, region_code: us-east-1}\nservices:\n  a: {vpc: main}\n  b: {vpc: {id: "1234567890"}}\n` +
        '  c: {fork: {from: a, strategy: NOW}}\n  d: {fork: {from: {service_id: kd9w2xp4mz}, strategy: PITR, target_time: "2026-11-01T00:00:00+02:00"}}\n',
    );
    expect(state.services.map((s) => s.vpc)).toEqual([{ key: 'main' }, { id: '1234567890' }, undefined, undefined]);
    expect(state.services[2]!.fork).toEqual({ from: { key: 'a' }, strategy: 'NOW' });
    expect(state.services[3]!.fork).toEqual({ from: { serviceId: 'kd9w2xp4mz' }, strategy: 'PITR', targetTime: '2026-11-01T00:00:00+02:00' });
  });

  it('fills addresses and positions of VPCs, peerings, replica sets and moved entries', () => {
    const state = load(
      `${HEAD}vpcs:\n  main:\n    name: prod\n    cidr: 10.0.0.0/16\n    region_code: us-east-1\n    protect: true\n    peerings:\n` +
        '      - {peer_account_id: "123456789012", peer_region_code: us-west-2, peer_vpc_id: vpc-1}\n' +
        'services:\n  db:\n    replica_sets:\n      r1: {cpu_millis: 500, memory_gbs: 2, nodes: 3, pooler: null, environment: null}\n' +
        'moved:\n  - {from: service.old, to: service.db}\n',
    );
    expect(state.vpcs[0]).toEqual({
      kind: 'vpc', address: 'vpc.main', key: 'main', name: 'prod', cidr: '10.0.0.0/16', regionCode: 'us-east-1', protect: true,
      source: { file: 'dbform.yaml', line: 4, col: 3 },
      peerings: [{
        kind: 'peering', address: 'peering.main.vpc-1', vpcKey: 'main', peerAccountId: '123456789012', peerRegionCode: 'us-west-2',
        peerVpcId: 'vpc-1', source: { file: 'dbform.yaml', line: 10, col: 9 },
      }],
    });
    expect(state.services[0]!.replicaSets).toEqual([{
      kind: 'replica_set', address: 'replica_set.db.r1', serviceKey: 'db', key: 'r1', name: 'r1', cpuMillis: 500, memoryGbs: 2,
      nodes: 3, pooler: false, environment: 'DEV', source: { file: 'dbform.yaml', line: 14, col: 7 },
    }]);
    expect(state.moved).toEqual([{ from: 'service.old', to: 'service.db', source: { file: 'dbform.yaml', line: 16, col: 5 } }]);
  });

  it('ignores top-level x- blocks, whose anchors and merges land where they are used', () => {
    const state = load(`${HEAD}x-small: &small\n  cpu_millis: 500\n  memory_gbs: 2\nservices:\n  a:\n    <<: *small\n    environment: PROD\n  b: *small\n`);
    expect(state.services.map((s) => [s.key, s.size, s.environment])).toEqual([
      ['a', { cpuMillis: 500, memoryGbs: 2 }, 'PROD'],
      ['b', { cpuMillis: 500, memoryGbs: 2 }, undefined],
    ]);
  });

  it('expands one anchor used by thousands of services', () => {
    let text = `${HEAD}x-small: &small\n  cpu_millis: 500\n  memory_gbs: 2\nservices:\n`;
    for (let i = 0; i < 3000; i++) text += `  s${i}: *small\n`;
    const state = load(text);
    expect(state.services).toHaveLength(3000);
    expect(state.services[2999]!.size).toEqual({ cpuMillis: 500, memoryGbs: 2 });
  });

  it('reports a problem inside an anchor once, where the anchor is', () => {
    let text = `${HEAD}x-small: &small\n  cpu_millis: 500\n  memory_gbs: 2\n  region_code: \${env:REGION}\nservices:\n`;
    for (let i = 0; i < 50; i++) text += `  s${i}: *small\n`;
    expect(errorsOf(text)).toEqual(['dbform.yaml:6:16: services.s0.region_code: environment variable REGION is not set (used as ${env:REGION})']);
  });

  it('places what a list of merges brings in where each anchor is, in a file with or without a YAML problem', () => {
    const text = `${HEAD}x-env: &env {environment: PRDO}\nx-size: &size {cpu_millis: 500, memory_gbs: 9}\nservices:\n  db:\n    <<: [*env, *size]\n`;
    const placed = [
      'dbform.yaml:3:27: services.db.environment: "PRDO" is not an environment tag; use DEV or PROD (null means DEV); did you mean PROD?',
      expect.stringMatching(/^dbform\.yaml:4:45: services\.db\.memory_gbs: 9 is not an allowed size/),
    ];
    expect(errorsOf(text)).toEqual(placed);
    // A duplicate key makes the file read event by event: the same places, and the duplicate's.
    expect(errorsOf(`${text}    pooler: true\n    pooler: false\n`)).toEqual([...placed, expect.stringMatching(/^dbform\.yaml:9:5: duplicate key `pooler`/)]);
  });

  it('places what an alias brings in where the data takes it from when its anchor was redefined in a merge left out', () => {
    // The merge of a list of scalars is refused and left out, and with it `&ha [1]`: `*ha` reads the first `&ha`.
    const text = `${HEAD}x-ha: &ha {replicas: 3, sync_replicas: 0}\nservices:\n  db:\n    <<: &ha [1]\n    ha: *ha\n`;
    expect(errorsOf(text)).toEqual([
      'dbform.yaml:3:22: services.db.ha.replicas: 3 is out of range; replicas is 0-2',
      'dbform.yaml:6:13: `<<` merges a mapping: write `<<: *anchor` (or a list of anchors of mappings)',
    ]);
  });

  it('places a key written as nothing at its value, or at its mapping when it has none: never at column 0', () => {
    expect(errorsOf(`${HEAD}services:\n  db:\n    name: a\n    : 5\n`)[0]).toMatch(/^dbform\.yaml:6:7: unknown key `` under services\.db;/);
    expect(errorsOf(`${HEAD}services:\n  db:\n    : x\n    : y\n`)).toEqual(['dbform.yaml:6:7: duplicate key `` under services.db (first defined on line 5)']);
    expect(errorsOf(`${HEAD}services:\n  db:\n    :\n    :\n`)).toEqual(['dbform.yaml:5:5: duplicate key `` under services.db (first defined on line 5)']);
    // Placed at the start of the file, the two empty keys' range hid every problem between them.
    expect(errorsOf(`:\n${HEAD}vpcs:\n  s:\n    memory_gbs: 9\n: ~\n`)).toEqual([
      expect.stringMatching(/^dbform\.yaml:6:5: unknown key `memory_gbs` under vpcs\.s;/),
      'dbform.yaml:6:5: vpcs.s: missing required keys `cidr` and `region_code`',
      'dbform.yaml:7:3: duplicate key `` at the top level (first defined on line 1)',
    ]);
  });

  it('keeps what follows a duplicate key written with neither key text nor value out of its suspect range', () => {
    // Two `:` under db: the duplicate says where, and the setting between them is still checked.
    expect(errorsOf(`${HEAD}services:\n  db:\n    :\n    environment: PRDO\n    :\n`)).toContain(
      'dbform.yaml:6:18: services.db.environment: "PRDO" is not an environment tag; use DEV or PROD (null means DEV); did you mean PROD?',
    );
  });

  it('reads CRLF line endings, a UTF-8 byte order mark and non-ASCII names', () => {
    const bytes = new TextEncoder().encode(`\uFEFF${HEAD}services:\r\n  db:\r\n    name: "café-ü"\r\n`.replace(/\n/g, '\r\n').replace(/\r\r/g, '\r'));
    const result = loadConfigText(bytes, 'dbform.yaml', { env: {} });
    expect(result.ok && result.value.services[0]!.name).toBe('café-ü');
  });

  it('accepts YAML 1.1 spellings only as strings (yes is not a boolean)', () => {
    expect(errorsOf(`${HEAD}services:\n  db: {pooler: on}\n`)).toEqual([
      'dbform.yaml:4:16: services.db.pooler: expected true, false or null, found the string "on"; YAML 1.2 reads on as a string: write true or false',
    ]);
  });

  it('warns, without failing, about a peer account ID that is not 12 digits', () => {
    const result = loadConfigText(
      `${HEAD}vpcs:\n  main:\n    cidr: 10.0.0.0/16\n    region_code: us-east-1\n    peerings:\n      - {peer_account_id: "12345", peer_region_code: us-east-1, peer_vpc_id: v}\n`,
      'dbform.yaml',
      { env: {} },
    );
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.warnings.map(formatDiagnostic)).toEqual([
        'dbform.yaml:8:27: warning: vpcs.main.peerings[0].peer_account_id: "12345" is not a 12-digit account ID; the peering will fail',
      ]);
    }
  });
});

describe('loadConfigText: ${env:NAME} interpolation', () => {
  it('substitutes variables in any string value, several per string', () => {
    const state = load(`version: 1\nproject_id: \${env:PROJECT}\nservices:\n  db:\n    name: "\${env:APP}-\${env:STAGE}"\n`, {
      PROJECT: 'proj-x',
      APP: 'shop',
      STAGE: 'prod',
    });
    expect(state.projectId).toBe('proj-x');
    expect(state.services[0]!.name).toBe('shop-prod');
  });

  it('writes $${ as a literal ${ and leaves a lone $ alone', () => {
    const [db] = load(`${HEAD}services:\n  db:\n    name: "cost-$5-$\${env:X}"\n`, { X: 'unused' }).services;
    expect(db!.name).toBe('cost-$5-${env:X}');
  });

  it('interpolates a ${ that a double-quoted escape writes (\\u0024{), though the text has no ${', () => {
    // The loader skips the walk of a text with neither `${` nor a backslash: this one has a backslash.
    const [db] = load(`${HEAD}services:\n  db:\n    name: "\\u0024{env:APP}"\n`, { APP: 'from-env' }).services;
    expect(db!.name).toBe('from-env');
  });

  it('leaves a text with nothing to interpolate as written: $ and { apart, no escape', () => {
    const [db] = load(`${HEAD}services:\n  db:\n    name: cost-$5-{x}\n    replica_sets:\n      r: {name: '$', cpu_millis: 500, memory_gbs: 2, nodes: 1}\n`).services;
    expect(db!.name).toBe('cost-$5-{x}');
    expect(db!.replicaSets[0]!.name).toBe('$');
  });

  it('does not interpolate keys', () => {
    expect(errorsOf(`${HEAD}services:\n  \${env:KEY}: {}\n`, { KEY: 'db' })[0]).toContain('is not a valid service key');
  });

  it('names every unset variable and where it is used', () => {
    expect(errorsOf(`${HEAD}services:\n  a: {name: "\${env:A_NAME}"}\n  b:\n    password: {from_env: PW}\n    name: x\${env:B_NAME}\n`)).toEqual([
      'dbform.yaml:4:13: services.a.name: environment variable A_NAME is not set (used as ${env:A_NAME})',
      'dbform.yaml:7:11: services.b.name: environment variable B_NAME is not set (used as ${env:B_NAME})',
    ]);
  });

  // The loader reads only the environment it is given: the CLI passes its process's
  // (test/e2e/validate/validate-cli.test.ts: `${env:DBFORM_E2E_PROJECT}` set in the environment of
  // `dbform validate` makes the file valid).
  it('reads only the environment it is given, never process.env', () => {
    const text = 'version: 1\nproject_id: ${env:DBFORM_TEST_LOADER_PROJECT}\n';
    process.env.DBFORM_TEST_LOADER_PROJECT = 'proj-from-process';
    try {
      const result = loadConfigText(text, 'x.yaml');
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.errors.map((d) => d.message)).toEqual([expect.stringContaining('environment variable DBFORM_TEST_LOADER_PROJECT is not set')]);
      const given = loadConfigText(text, 'x.yaml', { env: { DBFORM_TEST_LOADER_PROJECT: 'proj-given' } });
      expect(given.ok && given.value.projectId).toBe('proj-given');
    } finally {
      delete process.env.DBFORM_TEST_LOADER_PROJECT;
    }
  });
});

describe('several files', () => {
  it('merge their vpcs, services and moved entries in the order given', () => {
    const result = loadConfigInputs(
      [
        { file: 'net.yaml', content: `${HEAD}vpcs:\n  main: {cidr: 10.0.0.0/16, region_code: us-east-1}\nmoved:\n  - {from: service.x, to: service.db}\n` },
        { file: 'db.yaml', content: `${HEAD}services:\n  db: {vpc: main}\nmoved:\n  - {from: service.y, to: service.web}\n` },
        { file: 'web.yaml', content: `${HEAD}services:\n  web: {}\n` },
      ],
      { env: {} },
    );
    if (!result.ok) throw new Error(result.errors.map(formatDiagnostic).join('\n'));
    expect(result.value.files).toEqual(['net.yaml', 'db.yaml', 'web.yaml']);
    expect(result.value.services.map((s) => [s.key, s.source?.file])).toEqual([['db', 'db.yaml'], ['web', 'web.yaml']]);
    expect(result.value.moved.map((m) => [m.to, m.source?.file])).toEqual([['service.db', 'net.yaml'], ['service.web', 'db.yaml']]);
  });

  it('report problems of every file, in the order the files were given', () => {
    const result = loadConfigInputs(
      [
        { file: 'b.yaml', content: `${HEAD}services:\n  db: {environment: live}\n` },
        { file: 'a.yaml', content: 'version: 1\nproject_id: proj-demo\nservices: [\n' },
      ],
      { env: {} },
    );
    expect(result.ok ? [] : result.errors.map((e) => e.source?.file)).toEqual(['b.yaml', 'a.yaml']);
  });
});

describe('one problem, one message', () => {
  it('a service written without settings still exists for references to it', () => {
    expect(errorsOf(`${HEAD}services:\n  db:\n  preview: {fork: {from: db, strategy: NOW}}\n`)).toEqual([
      'dbform.yaml:4:3: services.db: expected the settings of the service as a mapping, found nothing; write `db: {}` for a service that takes every default',
    ]);
  });

  it('a project_id whose variable is unset does not disagree with the other files', () => {
    const result = loadConfigInputs(
      [
        { file: 'a.yaml', content: 'version: 1\nproject_id: ${env:DBFORM_TEST_UNSET}\n' },
        { file: 'b.yaml', content: `${HEAD}services:\n  db: {}\n` },
      ],
      { env: {} },
    );
    expect(result.ok ? [] : result.errors.map(formatDiagnostic)).toEqual([
      'a.yaml:2:13: project_id: environment variable DBFORM_TEST_UNSET is not set (used as ${env:DBFORM_TEST_UNSET})',
    ]);
  });

  it('a file that does not parse does not make the others look wrong', () => {
    const result = loadConfigInputs(
      [
        { file: 'net.yaml', content: `${HEAD}vpcs:\n  main: {cidr: 10.0.0.0/16, region_code: us-east-1\n` },
        { file: 'db.yaml', content: `${HEAD}services:\n  db: {vpc: main}\n` },
      ],
      { env: {} },
    );
    expect(result.ok ? [] : result.errors.map((e) => [e.source?.file, e.code])).toEqual([['net.yaml', 'yaml-syntax']]);
  });
});

describe('loadConfig (files on disk)', () => {
  const dir = tempDir('dbform-config-');

  it('reads the files and reports a missing one by name', async () => {
    const good = join(dir, 'dbform.yaml');
    writeFileSync(good, `${HEAD}services:\n  db: {}\n`);
    const ok = await loadConfig([good], { env: {} });
    expect(ok.ok && ok.value.services.map((s) => s.source?.file)).toEqual([good]);
    const missing = await loadConfig([good, join(dir, 'nope.yaml')], { env: {} });
    expect(missing.ok ? [] : missing.errors.map((e) => [e.message, e.code])).toEqual([
      [`${join(dir, 'nope.yaml')}: no such file (pass the config with -f PATH, or run dbform where dbform.yaml is)`, 'file-not-found'],
    ]);
  });

  it('says so when a path is a directory', async () => {
    const result = await loadConfig([dir], { env: {} });
    expect(result.ok ? [] : result.errors.map((e) => e.message)).toEqual([`${dir}: is a directory, not a config file`]);
  });

  it('names the file of a problem with a whole file, which has no position', async () => {
    const missing = join(dir, 'missing.yaml');
    const result = await loadConfig([missing, dir], { env: {} });
    expect(result.ok ? [] : result.errors.map((e) => [fileOf(e), e.source])).toEqual([
      [missing, undefined],
      [dir, undefined],
    ]);
  });

  it('reads a file given twice once, and says so (by the same name or another path)', async () => {
    const file = join(dir, 'twice.yaml');
    writeFileSync(file, `${HEAD}vpcs:\n  main: {cidr: 10.0.0.0/16, region_code: us-east-1}\nmoved:\n  - {from: service.old, to: service.db}\nservices:\n  db: {}\n`);
    const other = `${dir}/sub/../twice.yaml`;
    mkdirSync(join(dir, 'sub'), { recursive: true });
    const result = await loadConfig([file, file, other], { env: {} });
    expect(result.ok ? [] : result.errors.map((e) => [e.message, e.code, fileOf(e)])).toEqual([
      [`${file} is given twice; give each config file once`, 'file-given-twice', file],
      [`${other} is ${file}, given twice; give each config file once`, 'file-given-twice', other],
    ]);
  });

  it('names an empty file name as such', async () => {
    const result = await loadConfig([''], { env: {} });
    expect(result.ok ? [] : result.errors.map((e) => e.message)).toEqual(['an empty file name was given (-f ""); pass the config with -f PATH']);
  });
});

describe('loadConfigText: values of the real service (SPEC section 12)', () => {
  it('accepts the sizes 48000/192 and 64000/256, for services and replica sets', () => {
    const [db] = load(`${HEAD}services:\n  db:\n    cpu_millis: 48000\n    memory_gbs: 192\n    replica_sets:\n      r: { cpu_millis: 64000, memory_gbs: 256, nodes: 1 }\n`).services;
    expect(db!.size).toEqual({ cpuMillis: 48000, memoryGbs: 192 });
    expect(db!.replicaSets[0]).toMatchObject({ cpuMillis: 64000, memoryGbs: 256 });
    expect(errorsOf(`${HEAD}services:\n  db: { cpu_millis: 48000, memory_gbs: 256 }\n`)).toEqual([
      'dbform.yaml:4:40: services.db.memory_gbs: 256 does not go with cpu_millis 48000; allowed cpu_millis/memory_gbs pairs are 500/2, 1000/4, 2000/8, 4000/16, 8000/32, 16000/64, 32000/128, 48000/192, 64000/256, shared/shared; cpu_millis 48000 goes with memory_gbs 192',
    ]);
  });

  it('takes any region code of the open pattern: the API decides which exist', () => {
    const d = load(
      `${HEAD}vpcs:\n  az:\n    cidr: 10.0.0.0/16\n    region_code: az-eastus2\n    peerings:\n      - { peer_account_id: "1", peer_region_code: gcp-europe-west4, peer_vpc_id: v }\nservices:\n  db: { region_code: az-eastus2, vpc: az }\n`,
    );
    expect(d.vpcs[0]).toMatchObject({ regionCode: 'az-eastus2', peerings: [{ peerRegionCode: 'gcp-europe-west4' }] });
    expect(d.services[0]).toMatchObject({ regionCode: 'az-eastus2' });
    for (const bad of ['useast1', 'US-East-1', 'us_east_1', 'u-east-1', 'us-', 'us--east']) {
      expect(errorsOf(`${HEAD}services:\n  db: { region_code: "${bad}" }\n`), bad).toEqual([
        `dbform.yaml:4:22: services.db.region_code: "${bad}" is not a region code; region codes look like us-east-1, eu-central-1 or az-eastus2`,
      ]);
    }
  });
});
