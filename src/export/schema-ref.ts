// Where the `# yaml-language-server: $schema=` comment of an export points. A committed file
// must not hold a path of one machine, so a relative path is used only when the schema shipped
// with this dbform lies in the same project as the output (e.g. node_modules/dbform/schemas, or
// a checkout of dbform itself); otherwise the schema's published URL (its `$id`).
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SCHEMA_URL = 'https://dbform.dev/schemas/dbform.schema.json';

/** The nearest directory at or above `dir` holding package.json or .git. */
function projectRoot(dir: string): string | undefined {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, 'package.json')) || existsSync(join(d, '.git'))) return d;
    if (dirname(d) === d) return undefined;
  }
}

/** `cwd`: the run's directory when it is not the process's own. */
export function schemaRefFor(yamlPath: string | undefined, cwd: string | undefined, schemaFile = fileURLToPath(new URL('../../schemas/dbform.schema.json', import.meta.url))): string {
  const dir = resolve(cwd ?? '', yamlPath === undefined ? '.' : dirname(yamlPath));
  const root = projectRoot(dir);
  if (root === undefined || !schemaFile.startsWith(root + sep) || !existsSync(schemaFile)) return SCHEMA_URL;
  return relative(dir, schemaFile).split(sep).join('/');
}
