// The precompiled schema validator (src/codegen/validators.ts), behind a typed function.
import { validate } from './generated/config-validator.js';
import type { KeywordError } from './schema-messages.js';

type CompiledValidator = ((data: unknown) => boolean) & { errors?: KeywordError[] | null };

/** Every schema error of one file's data (none when it conforms). */
export function findSchemaErrors(data: unknown): KeywordError[] {
  const run = validate as CompiledValidator;
  return run(data) ? [] : [...(run.errors ?? [])];
}
