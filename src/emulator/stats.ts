import type { EmulatorStatsDto } from '../api/dto.js';

/** Request counts per "<METHOD> <route template>" (docs/api-behaviour.md). */
export class RequestStats {
  private counts = new Map<string, number>();
  private total = 0;

  count(key: string): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    this.total++;
  }

  snapshot(): EmulatorStatsDto {
    const requests: Record<string, number> = {};
    for (const key of [...this.counts.keys()].sort()) requests[key] = this.counts.get(key)!;
    return { requests, total: this.total };
  }

  reset(): void {
    this.counts = new Map();
    this.total = 0;
  }
}
