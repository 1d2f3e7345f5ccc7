import { beforeAll, describe, expect, it } from 'vitest';
import { apiOf, expectError, P, useEmulator } from './helpers.js';

interface Entry {
  message: string;
  severity: string;
  timestamp: string;
}

describe('service logs', () => {
  const em = useEmulator({ timeScale: 0 });
  const api = apiOf(em);
  let id = '';
  let created = 0;
  let other = '';
  let all: Entry[] = [];
  let pages = 0;

  const logsPath = (params: Array<[string, string]> = [], svc = id) => {
    const q = new URLSearchParams(params).toString();
    return `${P}/services/${svc}/logs${q ? `?${q}` : ''}`;
  };

  /** Follows last_cursor to the end; checks every page's shape on the way. */
  async function readAll(params: Array<[string, string]> = []): Promise<{ entries: Entry[]; pages: number }> {
    const entries: Entry[] = [];
    let cursor: string | undefined;
    let count = 0;
    for (;;) {
      const res = await api('GET', logsPath(cursor ? [...params, ['cursor', cursor]] : params));
      expect(res.status, res.text).toBe(200);
      const page = res.body;
      count++;
      expect(page.entries.length).toBeLessThanOrEqual(500);
      expect(page.logs).toEqual(page.entries.map((e: Entry) => e.message));
      expect(page.lastCursor).toBe(page.last_cursor);
      entries.push(...page.entries);
      if (page.last_cursor === undefined) {
        expect('last_cursor' in page).toBe(false);
        return { entries, pages: count };
      }
      expect(page.entries.length).toBe(500);
      cursor = page.last_cursor;
      if (count > 50) throw new Error('paging does not end');
    }
  }

  beforeAll(async () => {
    const svc = (await api('POST', `${P}/services`, { name: 'logged' })).body;
    id = svc.service_id;
    created = Date.parse(svc.created);
    other = (await api('POST', `${P}/services`, { name: 'other' })).body.service_id;
    ({ entries: all, pages } = await readAll());
  });

  it('serves a few thousand entries newest first, 500 a page, across several pages', () => {
    expect(all.length).toBeGreaterThanOrEqual(3000);
    expect(pages).toBe(Math.ceil(all.length / 500));
    expect(pages).toBeGreaterThanOrEqual(6);
    for (let i = 1; i < all.length; i++) expect(Date.parse(all[i - 1]!.timestamp)).toBeGreaterThan(Date.parse(all[i]!.timestamp));
    expect(new Set(all.map((e) => e.severity))).toEqual(new Set(['LOG', 'INFO', 'WARNING', 'ERROR', 'FATAL']));
    for (const e of all) expect(e.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    // The history ends at the service's creation: nothing is dated in the future.
    expect(Date.parse(all[0]!.timestamp)).toBeLessThan(created);
    expect(Date.parse(all[all.length - 1]!.timestamp)).toBeGreaterThanOrEqual(created - all.length * 1000);
  });

  it('is stable: the same read gives the same entries; another service has another history', async () => {
    const again = await api('GET', logsPath());
    expect(again.body.entries).toEqual(all.slice(0, 500));
    const theirs = await api('GET', `${P}/services/${other}/logs`);
    expect(theirs.body.entries).not.toEqual(all.slice(0, 500));
  });

  it('filters by severities (repeated), across 3+ pages', async () => {
    const { entries, pages: n } = await readAll([['severities', 'LOG']]);
    expect(n).toBeGreaterThanOrEqual(3);
    expect(entries).toEqual(all.filter((e) => e.severity === 'LOG'));
    const two = await readAll([
      ['severities', 'ERROR'],
      ['severities', 'fatal'],
    ]);
    expect(two.entries).toEqual(all.filter((e) => e.severity === 'ERROR' || e.severity === 'FATAL'));
    expect(two.entries.length).toBeGreaterThan(0);
  });

  it('filters by search terms (repeated: all must appear, case-insensitive)', async () => {
    const one = await readAll([['search', 'Checkpoint']]);
    expect(one.entries.length).toBeGreaterThan(0);
    expect(one.entries).toEqual(all.filter((e) => e.message.toLowerCase().includes('checkpoint')));
    const both = await readAll([
      ['search', 'checkpoint'],
      ['search', 'complete'],
    ]);
    expect(both.entries.length).toBeGreaterThan(0);
    expect(both.entries.length).toBeLessThan(one.entries.length);
    expect(both.entries).toEqual(all.filter((e) => e.message.includes('checkpoint') && e.message.includes('complete')));
    expect((await readAll([['search', 'no-such-words-anywhere']])).entries).toEqual([]);
  });

  it('filters by node: nodes 0-2 partition the history', async () => {
    const byNode = await Promise.all(['0', '1', '2'].map((n) => readAll([['node', n]])));
    for (const r of byNode) expect(r.entries.length).toBeGreaterThan(500);
    const merged = byNode.flatMap((r) => r.entries).sort((a, b) => Date.parse(b.timestamp) - Date.parse(a.timestamp));
    expect(merged).toEqual(all);
  });

  it('filters by since (inclusive) and until (exclusive)', async () => {
    const since = all[2000]!.timestamp;
    const until = all[300]!.timestamp;
    const window = await readAll([
      ['since', since],
      ['until', until],
    ]);
    expect(window.entries).toEqual(all.slice(301, 2001));
    expect(window.pages).toBe(4);
    expect((await readAll([['since', since]])).entries).toEqual(all.slice(0, 2001));
    expect((await readAll([['until', until]])).entries).toEqual(all.slice(301));
    const offset = new Date(Date.parse(since)).toISOString().replace('Z', '+00:00');
    expect((await readAll([['since', offset]])).entries.length).toBe(2001);
  });

  it('combines filters with paging', async () => {
    const since = all[all.length - 1]!.timestamp;
    const res = await readAll([
      ['severities', 'LOG'],
      ['severities', 'INFO'],
      ['node', '1'],
      ['since', since],
    ]);
    expect(res.entries.length).toBeGreaterThan(500);
    const full = await readAll([['node', '1']]);
    expect(res.entries).toEqual(full.entries.filter((e) => e.severity === 'LOG' || e.severity === 'INFO'));
  });

  it('a bad cursor, node, severity or timestamp is a 400 BAD_REQUEST', async () => {
    const first = (await api('GET', logsPath())).body.last_cursor as string;
    const theirs = (await api('GET', `${P}/services/${other}/logs`)).body.last_cursor as string;
    const bad: Array<[Array<[string, string]>, string]> = [
      [[['cursor', 'garbage!']], 'cursor'],
      [[['cursor', 'AAAA']], 'cursor'],
      [[['cursor', theirs]], 'cursor'],
      [[['cursor', first.slice(0, -2)]], 'cursor'],
      [[['node', '3']], 'node'],
      [[['node', 'primary']], 'node'],
      [[['node', '-1']], 'node'],
      [[['severities', 'LOUD']], 'severities'],
      // A blank search term would match everything; the OpenAPI asks for a non-space character.
      [[['search', '']], 'search'],
      [[['search', '   ']], 'search'],
      [[['search', 'checkpoint'], ['search', '']], 'search'],
      [[['since', 'yesterday']], 'since'],
      [[['since', '2026-02-30T25:00:00Z']], 'since'],
      [[['since', '2026-02-30T00:00:00Z']], 'since'],
      [[['since', '2026-04-31T00:00:00Z']], 'since'],
      [[['until', '2026-01-01T24:00:00Z']], 'until'],
      [[['until', '2026-01-01']], 'until'],
      [
        [
          ['since', '2026-01-02T00:00:00Z'],
          ['until', '2026-01-01T00:00:00Z'],
        ],
        'until',
      ],
    ];
    for (const [params, name] of bad) {
      const err = expectError(await api('GET', logsPath(params)), 400, 'BAD_REQUEST');
      expect(err.message, JSON.stringify(params)).toContain(`"${name}"`);
    }
    expect(theirs).not.toBe(first);
  });

  it('logs of an unknown service are 404', async () => {
    expectError(await api('GET', logsPath([], 'nosuchsvc9')), 404, 'NOT_FOUND');
  });
});
