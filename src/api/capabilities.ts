// What the API can do that decides how dbform makes a change (SPEC section 15), found out from
// what the API serves: never a setting, never guessed.
//
// The real service's published document (tiger-cli's openapi.yaml) has `POST .../services/{id}/rename`
// and, beside it, `GET /auth/info`; cloud-api.md (the emulator's seed dialect) has neither. So
// dbform asks `GET /auth/info`, a read the document answers with 200 for every credential it
// accepts: answered, the API is the one that renames services in place; 404 (no such route), it
// is not. Asking the rename route itself would need a request the document gives no answer for (a
// GET on a POST-only route: 405 from some servers, 404 from others) or a POST that renames. Any
// other answer (after the retries every read gets) is an error that says what was asked, never
// taken for either. One request per command, and only when a plan needs to know (a service whose
// name changes); `dbform projects` reads the same route for a key pair's project.
import type { ApiCapabilities } from '../model/plan.js';
import { DbformError } from '../model/errors.js';
import type { AuthInfoDto } from './dto.js';

export interface AuthInfoReader {
  /** `GET /auth/info`; undefined where the API does not serve it (404). */
  authInfo(): Promise<AuthInfoDto | undefined>;
}

/** Every capability, as the API serves them. */
export async function readCapabilities(client: AuthInfoReader): Promise<Required<ApiCapabilities>> {
  let info: AuthInfoDto | undefined;
  try {
    info = await client.authInfo();
  } catch (err) {
    throw new DbformError(`cannot tell whether the API renames services in place: GET /auth/info failed: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  return { renamesServices: info !== undefined };
}
