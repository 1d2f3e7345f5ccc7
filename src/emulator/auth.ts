// Bearer tokens: a PAT sees one project, an OAuth user token the projects it belongs to.
import { HttpError, notFound } from './errors.js';
import type { ProjectRecord, TokenRecord, World } from './store.js';

export type Principal = TokenRecord;

const unauthorized = (message: string) =>
  new HttpError(401, 'UNAUTHORIZED', message, { headers: { 'www-authenticate': 'Bearer' } });

export function authenticate(world: World, header: string | undefined): Principal {
  if (header === undefined || header.trim() === '') throw unauthorized('missing Authorization header (expected "Bearer <token>")');
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!m) throw unauthorized('malformed Authorization header (expected "Bearer <token>")');
  const principal = world.tokens.get(m[1]!);
  // Never echo the token: it is a secret.
  if (!principal) throw unauthorized('unknown or revoked API token');
  return principal;
}

export function visibleProjectIds(principal: Principal): string[] {
  return principal.kind === 'pat' ? [principal.projectId] : principal.projectIds;
}

/** The project if the principal can see it; otherwise 404, so existence never leaks. */
export function requireProject(world: World, principal: Principal, projectId: string): ProjectRecord {
  const visible = principal.kind === 'pat' ? principal.projectId === projectId : principal.projectIds.includes(projectId);
  const project = visible ? world.projects.get(projectId) : undefined;
  if (!project) throw notFound(`project "${projectId}" not found`);
  return project;
}
