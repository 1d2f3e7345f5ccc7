// Allowed service sizes (SPEC section 9).
export const ALLOWED_SERVICE_SIZES: ReadonlyArray<{ cpuMillis: number; memoryGbs: number }> = [
  { cpuMillis: 500, memoryGbs: 2 },
  { cpuMillis: 1000, memoryGbs: 4 },
  { cpuMillis: 2000, memoryGbs: 8 },
  { cpuMillis: 4000, memoryGbs: 16 },
  { cpuMillis: 8000, memoryGbs: 32 },
  { cpuMillis: 16000, memoryGbs: 64 },
  { cpuMillis: 32000, memoryGbs: 128 },
];

export function isAllowedServiceSize(cpuMillis: number | 'shared', memoryGbs: number | 'shared'): boolean {
  if (cpuMillis === 'shared' || memoryGbs === 'shared') return cpuMillis === 'shared' && memoryGbs === 'shared';
  return ALLOWED_SERVICE_SIZES.some((s) => s.cpuMillis === cpuMillis && s.memoryGbs === memoryGbs);
}

export function describeAllowedSizes(): string {
  return [...ALLOWED_SERVICE_SIZES.map((s) => `${s.cpuMillis}/${s.memoryGbs}`), 'shared/shared'].join(', ');
}
