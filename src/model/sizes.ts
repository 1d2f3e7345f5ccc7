// Allowed service sizes: the pairs of SPEC section 9, and the two larger ones of section 12.
export interface DedicatedSize {
  cpuMillis: number;
  memoryGbs: number;
}

/** The cpu_millis/memory_gbs pairs of SPEC section 9 (cloud-api.md; the emulator's seed dialect). */
export const SECTION_9_SERVICE_SIZES: readonly DedicatedSize[] = [
  { cpuMillis: 500, memoryGbs: 2 },
  { cpuMillis: 1000, memoryGbs: 4 },
  { cpuMillis: 2000, memoryGbs: 8 },
  { cpuMillis: 4000, memoryGbs: 16 },
  { cpuMillis: 8000, memoryGbs: 32 },
  { cpuMillis: 16000, memoryGbs: 64 },
  { cpuMillis: 32000, memoryGbs: 128 },
];

/** Every pair dbform accepts: section 9's and the two larger ones the real service offers (section 12). */
export const ALLOWED_SERVICE_SIZES: readonly DedicatedSize[] = [...SECTION_9_SERVICE_SIZES, { cpuMillis: 48000, memoryGbs: 192 }, { cpuMillis: 64000, memoryGbs: 256 }];

export function isAllowedServiceSize(cpuMillis: number | 'shared', memoryGbs: number | 'shared'): boolean {
  if (cpuMillis === 'shared' || memoryGbs === 'shared') return cpuMillis === 'shared' && memoryGbs === 'shared';
  return ALLOWED_SERVICE_SIZES.some((s) => s.cpuMillis === cpuMillis && s.memoryGbs === memoryGbs);
}

export function describeAllowedSizes(): string {
  return [...ALLOWED_SERVICE_SIZES.map((s) => `${s.cpuMillis}/${s.memoryGbs}`), 'shared/shared'].join(', ');
}
