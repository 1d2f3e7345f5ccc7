// Shared set-up of the API tests: a real emulator on 127.0.0.1:0 and the real client.
import { startEmulator, type EmulatorHandle, type EmulatorOptions } from '../../../src/emulator/index.js';
import { ApiClient, type ApiClientOptions } from '../../../src/api/client.js';

export const PROJECT = 'proj-demo';
export const PAT = 'demo-pat';

export async function emulator(options: EmulatorOptions = {}): Promise<EmulatorHandle> {
  return startEmulator({ host: '127.0.0.1', port: 0, timeScale: 0, ...options });
}

export function clientFor(em: EmulatorHandle, options: Partial<ApiClientOptions> = {}): ApiClient {
  // Short backoff keeps fault tests fast; Retry-After still applies in full.
  return new ApiClient({ baseUrl: em.url, token: PAT, retry: { baseDelayMs: 20, maxDelayMs: 200 }, ...options });
}

/** Request count of one route template, e.g. `POST /projects/{project_id}/services`. */
export function countOf(em: EmulatorHandle, key: string): number {
  return em.stats().requests[key] ?? 0;
}

/** Reads the stats over HTTP, as an outside observer would. */
export async function fetchStats(em: EmulatorHandle): Promise<{ requests: Record<string, number>; total: number }> {
  const res = await fetch(`${em.origin}/__emulator/stats`);
  return (await res.json()) as { requests: Record<string, number>; total: number };
}
