/**
 * `--timeout` values: `30m`, `90s`, `1h`, `1h30m`, `500ms`, `3d`, or bare digits meaning milliseconds.
 * Returns undefined for anything else so the CLI can name the bad value.
 */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const unitMs: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
  const part = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/y;
  let total = 0;
  let at = 0;
  while (at < trimmed.length) {
    part.lastIndex = at;
    const m = part.exec(trimmed);
    if (!m) return undefined;
    total += Number(m[1]) * unitMs[m[2]!]!;
    at = part.lastIndex;
  }
  // A fraction of a millisecond rounds to 0, which would mean "no time at all": refused, as is a
  // duration no timer or date can hold.
  const ms = Math.round(total);
  return trimmed.length > 0 && ms > 0 && Number.isSafeInteger(ms) ? ms : undefined;
}

/** Short human form for progress lines and messages: `850ms`, `12s`, `3m05s`, `1h02m`. */
export function formatElapsed(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))}ms`;
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}
