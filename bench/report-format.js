// Number formats, tables and verdicts shared by the report's sections.
export const ms = (x) => (x === undefined || !Number.isFinite(x) ? 'n/a' : x >= 100 ? `${Math.round(x).toLocaleString('en-US')} ms` : `${x.toFixed(1)} ms`);
export const mib = (kb) => (kb === undefined ? 'n/a' : `${(kb / 1024).toFixed(1)} MiB`);
export const times = (x) => (Number.isFinite(x) ? `${x.toFixed(2)}x` : 'n/a');
export const n = (x) => (x === undefined ? 'n/a' : x.toLocaleString('en-US'));
export const code = (s) => `\`${s}\``;

export function table(headers, rows) {
  const line = (cells) => `| ${cells.join(' | ')} |`;
  return [line(headers), line(headers.map(() => '---')), ...rows.map(line)].join('\n');
}

/** Collects verdicts; returns the cell text. */
export function judge(verdicts, target, measured, pass) {
  verdicts.push({ target, measured, pass });
  return pass ? 'pass' : '**MISS**';
}

