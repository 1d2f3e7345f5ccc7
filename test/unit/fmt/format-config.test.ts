// `dbform fmt`'s canonical form (src/fmt/format-config.ts): the schema's key order and
// two-space indentation, with every comment, quote and blank line the user wrote kept.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { formatConfigText } from '../../../src/fmt/format-config.js';

const EXAMPLES = join(import.meta.dirname, '..', '..', '..', 'examples');

function formatted(text: string): string {
  const r = formatConfigText(text);
  if (!r.ok) throw new Error(`${r.line}:${r.col}: ${r.message}`);
  return r.text;
}

const UGLY = `# top comment
services:
    db:   # the database
        replica_sets:
            r1:
                nodes: 1
                cpu_millis: 1000   # aligned
                memory_gbs: 4
        cpu_millis: 1000
        name: 'db'

        memory_gbs: 4
        notes: |
            kept
              as written
project_id: p
version: 1
vpcs:
    main:
        peerings:
        -   peer_vpc_id: vpc-1
            # the account
            peer_account_id: "123456789012"   # account
            peer_region_code: us-east-1
        region_code: us-east-1
        cidr: 10.0.0.0/16
`;

describe('formatConfigText', () => {
  it('orders keys as the schema does and indents by two, keeping comments, quotes and block scalars', () => {
    expect(formatted(UGLY)).toBe(`# top comment
version: 1
project_id: p
vpcs:
  main:
    cidr: 10.0.0.0/16
    region_code: us-east-1
    peerings:
      # the account
      - peer_account_id: "123456789012"   # account
        peer_region_code: us-east-1
        peer_vpc_id: vpc-1
services:
  db:   # the database
    name: 'db'
    cpu_millis: 1000

    memory_gbs: 4
    replica_sets:
      r1:
        cpu_millis: 1000   # aligned
        memory_gbs: 4
        nodes: 1
    notes: |
        kept
          as written
`);
  });

  it('means exactly what the input meant, and a second pass changes nothing', () => {
    const once = formatted(UGLY);
    expect(parse(once)).toEqual(parse(UGLY));
    expect(formatted(once)).toBe(once);
  });

  it('keeps the keys the user chose (service keys) in their order', () => {
    const text = 'version: 1\nproject_id: p\nservices:\n  zeta:\n    name: z\n  alpha:\n    name: a\n';
    expect(formatted(text)).toBe(text);
  });

  it('keeps an x- block of anchors ahead of the resources that use it', () => {
    const text = 'x-size: &size\n  cpu_millis: 1000\n  memory_gbs: 4\nservices:\n  a:\n    <<: *size\n    name: a\nversion: 1\nproject_id: p\n';
    const out = formatted(text);
    expect(out).toBe('version: 1\nproject_id: p\nx-size: &size\n  cpu_millis: 1000\n  memory_gbs: 4\nservices:\n  a:\n    <<: *size\n    name: a\n');
    expect(parse(out, { merge: true })).toEqual(parse(text, { merge: true }));
  });

  it('leaves the order as written where reordering would put an alias before its anchor', () => {
    const text = 'version: 1\nproject_id: p\nservices:\n    a:\n        memory_gbs: &m 4\n        cpu_millis: *m\n';
    expect(formatted(text)).toBe('version: 1\nproject_id: p\nservices:\n  a:\n    memory_gbs: &m 4\n    cpu_millis: *m\n');
  });

  it('refuses what is not YAML with a position, and changes nothing', () => {
    const r = formatConfigText('version: 1\nservices:\n  a: [1, 2\n');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.line).toBeGreaterThan(1);
  });

  it.each(readdirSync(EXAMPLES).filter((f) => f.endsWith('.yaml')))('examples/%s is already canonical', (file) => {
    const text = readFileSync(join(EXAMPLES, file), 'utf8');
    expect(formatted(text)).toBe(text);
  });
});
