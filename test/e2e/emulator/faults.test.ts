import { describe, expect, it } from 'vitest';
import { startEmulator, type EmulatorHandle } from '../../../src/emulator/index.js';
import { apiOf, P } from './helpers.js';

async function withEmulator<T>(options: Parameters<typeof startEmulator>[0], run: (em: EmulatorHandle) => Promise<T>): Promise<T> {
  const em = await startEmulator({ timeScale: 0, ...options });
  try {
    return await run(em);
  } finally {
    await em.close();
  }
}

describe('fault injection', () => {
  it('--fault-rate 1 answers every API request 500 or 503 before doing anything', async () => {
    await withEmulator({ faultRate: 1, faultSeed: 7 }, async (em) => {
      const api = apiOf(() => em);
      const codes = new Set<number>();
      for (let i = 0; i < 30; i++) {
        const res = await api('POST', `${P}/services`, { name: `f${i}` });
        codes.add(res.status);
        expect(res.headers.get('content-type')).toBe('application/json');
        expect(['INTERNAL_ERROR', 'SERVICE_UNAVAILABLE']).toContain(res.body.code);
      }
      expect(codes).toEqual(new Set([500, 503]));
      // Even unauthenticated: the fault comes first.
      expect([500, 503]).toContain((await api('GET', '/projects', undefined, { token: null })).status);
      em.setFaults({ faultRate: 0 });
      expect((await api('GET', `${P}/services`)).body).toEqual([]);
      // Control endpoints are never faulted.
      em.setFaults({ faultRate: 1 });
      const stats = await fetch(`${em.origin}/__emulator/stats`);
      expect(stats.status).toBe(200);
      expect((await stats.json()).requests['POST /projects/{project_id}/services']).toBe(30);
    });
  });

  it('--throttle-rate 1 answers 429 RATE_LIMITED with Retry-After: 1', async () => {
    // At time scale 1: the delay scales like every duration (test/e2e/api/retry-after.test.ts).
    await withEmulator({ throttleRate: 1, timeScale: 1 }, async (em) => {
      const res = await apiOf(() => em)('GET', '/projects');
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBe('1');
      expect(res.body.code).toBe('RATE_LIMITED');
    });
  });

  it('--lost-response-rate 1 performs the mutation and destroys the connection without answering', async () => {
    await withEmulator({ lostResponseRate: 1 }, async (em) => {
      const api = apiOf(() => em);
      await expect(api('POST', `${P}/services`, { name: 'ghost' })).rejects.toThrow();
      await expect(api('POST', `${P}/vpcs`, { name: 'ghost-vpc', cidr: '10.0.0.0/16', region_code: 'us-east-1' })).rejects.toThrow();
      em.setFaults({ lostResponseRate: 0 });
      const services = (await api('GET', `${P}/services`)).body;
      expect(services.map((s: any) => s.name)).toEqual(['ghost']);
      expect((await api('GET', `${P}/vpcs`)).body.map((v: any) => v.name)).toEqual(['ghost-vpc']);
    });
  });

  it('a fault rate between 0 and 1 hits about that share, reproducibly for one --fault-seed', async () => {
    const run = () =>
      withEmulator({ faultRate: 0.3, throttleRate: 0.2, faultSeed: 42 }, async (em) => {
        const api = apiOf(() => em);
        const out: number[] = [];
        for (let i = 0; i < 200; i++) out.push((await api('GET', '/projects')).status);
        return out;
      });
    const a = await run();
    const b = await run();
    expect(a).toEqual(b);
    const errors = a.filter((s) => s === 500 || s === 503).length;
    const throttled = a.filter((s) => s === 429).length;
    expect(errors).toBeGreaterThan(35);
    expect(errors).toBeLessThan(85);
    // 20% of the ~70% not failed.
    expect(throttled).toBeGreaterThan(12);
    expect(throttled).toBeLessThan(50);
    expect(a.filter((s) => s === 200).length).toBe(200 - errors - throttled);
    const other = await withEmulator({ faultRate: 0.3, throttleRate: 0.2, faultSeed: 43 }, async (em) => {
      const api = apiOf(() => em);
      const out: number[] = [];
      for (let i = 0; i < 200; i++) out.push((await api('GET', '/projects')).status);
      return out;
    });
    expect(other).not.toEqual(a);
  });

  it('a random fault seed is reported so a failing chaos run can be replayed', async () => {
    await withEmulator({}, async (em) => {
      expect(Number.isInteger(em.faultSeed)).toBe(true);
    });
  });

  it('--latency-ms delays every API answer but not the control endpoints', async () => {
    await withEmulator({ latencyMs: 120 }, async (em) => {
      const t0 = Date.now();
      expect((await apiOf(() => em)('GET', '/projects')).status).toBe(200);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(115);
      // The control endpoint answers while an API request is still held by the latency (5 s:
      // longer than any stall of this process; ordering, not a stopwatch, is what is checked).
      em.setFaults({ latencyMs: 5000 });
      const controller = new AbortController();
      let answered = false;
      const held = fetch(`${em.url}/projects`, { headers: { authorization: 'Bearer demo-pat' }, signal: controller.signal }).then(
        () => (answered = true),
        () => undefined,
      );
      while ((em.stats().requests['GET /projects'] ?? 0) < 2) await new Promise((r) => setTimeout(r, 2));
      const stats = (await (await fetch(`${em.origin}/__emulator/stats`)).json()) as { requests: Record<string, number> };
      expect(answered).toBe(false);
      expect(stats.requests['GET /projects']).toBe(2);
      controller.abort();
      await held;
    });
  });

  it('rejects rates outside 0..1 and negative latency', async () => {
    await expect(startEmulator({ faultRate: 1.5 })).rejects.toThrow(/faultRate must be a number from 0 to 1/);
    await expect(startEmulator({ throttleRate: -0.1 })).rejects.toThrow(/throttleRate/);
    await expect(startEmulator({ lostResponseRate: Number.NaN })).rejects.toThrow(/lostResponseRate/);
    await expect(startEmulator({ latencyMs: -1 })).rejects.toThrow(/latencyMs/);
    await expect(startEmulator({ timeScale: -1 })).rejects.toThrow(/timeScale/);
  });

  it('close() releases the port: a new emulator can listen on it at once', async () => {
    const first = await startEmulator({});
    const port = first.port;
    await first.close();
    const second = await startEmulator({ port });
    try {
      expect(second.port).toBe(port);
      expect((await apiOf(() => second)('GET', '/projects')).status).toBe(200);
    } finally {
      await second.close();
    }
  });
});
