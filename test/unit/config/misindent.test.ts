// Mis-indented settings are named as such; a resource that merely shares a setting's name is not.
import { describe, expect, it } from 'vitest';
import { loadConfigText } from '../../../src/config/index.js';

const HEAD = 'version: 1\nproject_id: proj-demo\n';
const messages = (text: string) => {
  const r = loadConfigText(text, 'x.yaml', { env: {} });
  return r.ok ? [] : r.errors.map((d) => d.message);
};

describe('mis-indented settings', () => {
  it('leaves a valid service whose key is also a setting name alone', () => {
    const r = loadConfigText(`${HEAD}services:\n  db: {}\n  pooler:\n    environment: DEV\n`, 'x.yaml', { env: {} });
    expect(r.ok).toBe(true);
  });

  it('names the service above as the place of a setting written as a service', () => {
    expect(messages(`${HEAD}services:\n  db:\n    environment: DEV\n  cpu_millis: 1000\n`)).toEqual([
      '`cpu_millis` under services looks mis-indented: it is a service setting, not a service; indent it under services.db, the service above it',
    ]);
  });

  it('still suggests a spelling for a misspelt key', () => {
    expect(messages(`${HEAD}services:\n  db:\n    enviroment: DEV\n`)).toEqual(['unknown key `enviroment` under services.db; did you mean `environment`?']);
  });

  it('reads a wrong key of a reference form as a wrong form, not as indentation', () => {
    expect(messages(`${HEAD}services:\n  db:\n    vpc: { name: main }\n`)).toContain('unknown key `name` under services.db.vpc; allowed keys: id');
  });

  it('drops the missing keys of the replica set that a mis-indented setting was meant for', () => {
    const text = `${HEAD}services:\n  db:\n    replica_sets:\n      r:\n        cpu_millis: 1000\n        memory_gbs: 4\n      nodes: 2\n`;
    expect(messages(text)).toEqual([
      '`nodes` under services.db.replica_sets looks mis-indented: it is a replica set setting, not a replica set; indent it under services.db.replica_sets.r, the replica set above it',
    ]);
  });
});
