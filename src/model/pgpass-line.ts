// One line of a pgpass file, read the way libpq reads it and written so libpq reads it back: the
// writer of created services' passwords (executor), the PostgreSQL state's password lookup and
// `dbform output --with-password` all use these, so the three never disagree on a line.

/** A line's five fields; the port as written, since a lookup line may say `*`. */
export type PgpassFields = [host: string, port: string, database: string, user: string, password: string];

export interface PgpassEntry {
  host: string;
  port: number;
  database: string;
  user: string;
  password: string;
}

/** pgpass fields escape `\` and `:` with a backslash. */
export function escapePgpassField(value: string): string {
  return value.replace(/[\\:]/g, (c) => `\\${c}`);
}

export function formatPgpassLine(entry: PgpassEntry): string {
  return [entry.host, String(entry.port), entry.database, entry.user, entry.password].map(escapePgpassField).join(':');
}

/**
 * The five fields of a line, backslash escapes undone, or undefined for a comment, a blank or a
 * line of fewer than five fields. As in libpq, the password is the rest of the line after the
 * fourth unescaped colon, colons included.
 */
export function splitPgpassLine(line: string): PgpassFields | undefined {
  if (line.trim() === '' || line.startsWith('#')) return undefined;
  const fields: string[] = [''];
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === '\\' && i + 1 < line.length) fields[fields.length - 1] += line[++i];
    else if (c === ':' && fields.length < 5) fields.push('');
    else fields[fields.length - 1] += c;
  }
  return fields.length === 5 ? (fields as PgpassFields) : undefined;
}

/** A line dbform may rewrite: five fields with a numeric port (a `*` line is someone else's, kept as it is). */
export function parsePgpassLine(line: string): PgpassEntry | undefined {
  const fields = splitPgpassLine(line);
  if (!fields || !/^\d+$/.test(fields[1])) return undefined;
  const [host, port, database, user, password] = fields;
  return { host, port: Number(port), database, user, password };
}
