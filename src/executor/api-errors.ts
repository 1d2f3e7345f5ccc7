// How the engine reads the client's errors. Kept in one place so the rest of the engine asks
// questions (is it a 404? a 409?) instead of inspecting error classes.
export function statusOf(err: unknown): number | undefined {
  const status = (err as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
}

export function isNotFound(err: unknown): boolean {
  return statusOf(err) === 404;
}

export function isConflict(err: unknown): boolean {
  return statusOf(err) === 409;
}
