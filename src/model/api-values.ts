// Values the API reports that dbform reads with one meaning, whatever the spelling: cloud-api.md
// (the emulator's default) and the real service's OpenAPI document differ here (SPEC section 12).
// Every reader (planner, executor, waiters, export) asks these helpers instead of comparing
// strings; what a kind's statuses mean is declared with the kind (src/kinds/<kind>).

/** `TIMESERIESDB` (cloud-api.md) and `TIMESCALEDB` (the real service) name one type. */
const TIME_SERIES_TYPES: ReadonlySet<string> = new Set(['TIMESERIESDB', 'TIMESCALEDB']);

export function isTimeSeriesType(serviceType: string): boolean {
  return TIME_SERIES_TYPES.has(serviceType);
}

/** Whether two live service types are the same type (never a change between the two spellings). */
export function sameServiceType(a: string, b: string): boolean {
  return a === b || (isTimeSeriesType(a) && isTimeSeriesType(b));
}

/** Region codes: an open pattern, the API decides which exist (`us-east-1`, `az-eastus2`). */
export const REGION_CODE_PATTERN = '^[a-z]{2,}(-[a-z0-9]+)+$';
export const REGION_CODE_REGEX = new RegExp(REGION_CODE_PATTERN);
/** The narrower region codes of cloud-api.md (`us-east-1`), which the emulator's seed dialect checks. */
export const SEED_REGION_CODE_REGEX = /^[a-z]{2}(-[a-z]+)+-[0-9]+$/;
