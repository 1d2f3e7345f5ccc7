// RFC 3339 timestamps, read one way wherever dbform meets one: the config's fork.target_time, the
// `logs --since/--until` flags, and the emulator's since, until and target_time.

/**
 * The shape of an RFC 3339 date-time as a JSON Schema `pattern` (the config schema's target_time,
 * which editors check); the calendar and the ranges are checked by parseRfc3339 below.
 */
export const RFC3339_SHAPE_REGEX = '^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?([Zz]|[+-][0-9]{2}:[0-9]{2})$';
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})([Tt ])(\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

const isLeapYear = (y: number): boolean => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const daysInMonth = (year: number, month: number): number => (month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1]!);

/**
 * Epoch ms of an RFC 3339 timestamp, or undefined when it is not one. Impossible dates (February
 * 30th, hour 24) are refused rather than rolled over; a leap second (:60) is read as the instant
 * after :59. RFC 3339 lets a space stand for the `T`; `space: false` refuses it (the config
 * asks for the one spelling its schema and messages show).
 */
export function parseRfc3339(text: string, options: { space?: boolean } = {}): number | undefined {
  const m = RFC3339.exec(text);
  if (!m || (m[4] === ' ' && options.space === false)) return undefined;
  const [year, month, day] = m.slice(1, 4).map(Number) as [number, number, number];
  const [hour, minute, second] = m.slice(5, 8).map(Number) as [number, number, number];
  const [sign, offsetHours, offsetMinutes] = [m[9], Number(m[10] ?? 0), Number(m[11] ?? 0)];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 60 || offsetHours > 23 || offsetMinutes > 59) return undefined;
  const fraction = m[8] ? Math.floor(Number(m[8]) * 1000) : 0;
  const offset = (sign === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000;
  const midnight = new Date(0);
  midnight.setUTCFullYear(year, month - 1, day); // not Date.UTC, which reads years 0-99 as 1900-1999
  return midnight.getTime() + ((hour * 60 + minute) * 60 + second) * 1000 + fraction - offset;
}
