// Who is asking: a Bearer token (a PAT sees one project, an OAuth user token the projects it
// belongs to) or, where the dialect takes it, an HTTP Basic key pair (`public_key:secret_key`,
// scoped to one project like a PAT). A credential is never echoed in an answer.
import type { AuthScheme, Dialect } from './dialect.js';
import { HttpError, notFound } from './errors.js';
import type { ProjectRecord, TokenRecord, World } from './store.js';

/** Who asks: a token, or a key pair (then `publicKey` is set; it sees one project, like a PAT). */
export type Principal = TokenRecord & { publicKey?: string };

function unauthorized(dialect: Dialect, message: string): HttpError {
  const challenge = dialect.authSchemes.map((s) => (s === 'Basic' ? 'Basic realm="api"' : s)).join(', ');
  return new HttpError(401, 'UNAUTHORIZED', message, { headers: { 'www-authenticate': challenge } });
}

const EXPECTED: Record<AuthScheme, string> = { Bearer: '"Bearer <token>"', Basic: '"Basic base64(public_key:secret_key)"' };

export function authenticate(world: World, header: string | undefined, dialect: Dialect): Principal {
  const expected = dialect.authSchemes.map((s) => EXPECTED[s]).join(' or ');
  if (header === undefined || header.trim() === '') throw unauthorized(dialect, `missing Authorization header (expected ${expected})`);
  const m = /^(\S+)\s+(\S+)\s*$/.exec(header);
  const scheme = dialect.authSchemes.find((s) => s.toLowerCase() === m?.[1]!.toLowerCase());
  if (!m || !scheme) throw unauthorized(dialect, `malformed Authorization header (expected ${expected})`);
  const principal = scheme === 'Bearer' ? world.tokens.get(m[2]!) : keyPairPrincipal(world, m[2]!);
  if (!principal) throw unauthorized(dialect, scheme === 'Bearer' ? 'unknown or revoked API token' : 'unknown or revoked key pair');
  return principal;
}

function keyPairPrincipal(world: World, encoded: string): Principal | undefined {
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  const pair = world.keyPairs.get(decoded.slice(0, colon));
  if (!pair || pair.secretKey !== decoded.slice(colon + 1)) return undefined;
  return { token: pair.publicKey, kind: 'pat', projectId: pair.projectId, publicKey: pair.publicKey };
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
