// `GET /auth/info` (the real service's OpenAPI; SPEC section 15), in dialects that serve it: who
// the credential is. A key pair gets `apiKey` with its project (what Timescale's tiger CLI reads
// to find the project it works in); a Bearer token gets `oauth` with a user, since the document's
// bearerAuth is a user's token. The secret key and a Bearer token are never echoed.
import type { AuthInfoApiKeyDto, AuthInfoDto, AuthInfoUserDto } from '../../api/dto.js';
import type { Route } from '../router.js';
import { ok } from './common.js';

const USER: AuthInfoUserDto = { id: '1000001', name: 'Emulator User', email: 'user@tsdb.cloud.example' };
/** Seeded key pairs carry no creation time; one fixed instant keeps the answer stable. */
const KEY_PAIRS_CREATED = '2026-01-01T00:00:00Z';

export const authInfoRoute: Route = {
  method: 'GET',
  template: '/auth/info',
  handle(ctx) {
    const { principal, world } = ctx;
    if (principal.publicKey === undefined || principal.kind !== 'pat') return ok({ type: 'oauth', oauth: { user: { ...USER } } } satisfies AuthInfoDto);
    const project = world.projects.get(principal.projectId)!;
    const apiKey: AuthInfoApiKeyDto = {
      public_key: principal.publicKey,
      name: `emulator key pair ${principal.publicKey}`,
      created: KEY_PAIRS_CREATED,
      project: { id: project.id, name: project.name, plan_type: 'FREE' },
      issuing_user: { ...USER },
    };
    // `apiKey` is the deprecated spelling the document still lists: older tiger CLIs read it.
    return ok({ type: 'apiKey', api_key: apiKey, apiKey: structuredClone(apiKey) } satisfies AuthInfoDto);
  },
};
