// The lines of a pgpass file as dbform changes them: each line parsed once per rewrite and indexed
// by login and by host, so a rewrite carrying 2,000 new passwords costs 2,000 lookups, not
// 2,000 passes over the file. Comments, blanks and lines dbform did not write (fewer than five fields,
// a port that is not a number) stay as they are.
import { formatPgpassLine, parsePgpassLine, type PgpassEntry } from '../model/index.js';

interface Row {
  text: string;
  entry: PgpassEntry | undefined;
}

const loginOf = (e: PgpassEntry) => `${e.host}\u0000${e.port}\u0000${e.database}\u0000${e.user}`;

export class PgpassLines {
  /** undefined: a line removed by this rewrite. */
  private readonly rows: Array<Row | undefined>;
  private readonly byLogin = new Map<string, number[]>();
  private readonly byHost = new Map<string, number[]>();

  constructor(lines: string[]) {
    this.rows = lines.map((text) => ({ text, entry: parsePgpassLine(text) }));
    this.rows.forEach((row, i) => this.index(row!, i));
  }

  /** Sets the password of the entry's login: the first line of that login gets it (libpq reads the first), later ones go; else a new line at the end. */
  save(entry: PgpassEntry): void {
    const text = formatPgpassLine(entry);
    const same = (this.byLogin.get(loginOf(entry)) ?? []).filter((i) => this.rows[i] !== undefined);
    if (same.length === 0) {
      this.rows.push({ text, entry });
      this.index(this.rows.at(-1)!, this.rows.length - 1);
      return;
    }
    this.rows[same[0]!] = { text, entry };
    for (const i of same.slice(1)) this.rows[i] = undefined;
  }

  /** Removes the `tsdb`/`tsdbadmin` lines of `host`, any port. */
  removeHost(host: string): void {
    for (const i of this.byHost.get(host) ?? []) {
      const entry = this.rows[i]?.entry;
      if (entry && entry.database === 'tsdb' && entry.user === 'tsdbadmin') this.rows[i] = undefined;
    }
  }

  /**
   * Moves the `tsdb`/`tsdbadmin` lines of `from` (any port) to `to`: the endpoint of their service
   * moved. A line `to` already had for that login is replaced.
   */
  moveHost(from: string, to: { host: string; port: number }): void {
    for (const i of this.byHost.get(from) ?? []) {
      const entry = this.rows[i]?.entry;
      if (!entry || entry.database !== 'tsdb' || entry.user !== 'tsdbadmin') continue;
      this.rows[i] = undefined;
      this.save({ ...entry, host: to.host, port: to.port });
    }
  }

  /** The file's new content ('' when no line is left). */
  text(): string {
    const kept = this.rows.filter((r): r is Row => r !== undefined).map((r) => r.text);
    return kept.length === 0 ? '' : `${kept.join('\n')}\n`;
  }

  private index(row: Row, i: number): void {
    if (!row.entry) return;
    push(this.byLogin, loginOf(row.entry), i);
    push(this.byHost, row.entry.host, i);
  }
}

function push(map: Map<string, number[]>, key: string, value: number): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
