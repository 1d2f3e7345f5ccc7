// Every value the API client puts in a URL path (a project ID, a resource ID) goes through here
// (SPEC section 13). Percent-encoding keeps `/`, `?`, `#` and `%` inside their segment; a segment
// that is `.` or `..` cannot be kept there by any encoding (URL parsers resolve `%2E%2E` as `..`
// too), so it is refused: `GET /projects/../services` must never become `GET /services`. An empty
// segment would name the collection instead.
import { DbformError } from './errors.js';

export function pathSegment(value: string, what = 'ID'): string {
  if (value === '' || value === '.' || value === '..') {
    throw new DbformError(`the ${what} ${JSON.stringify(value)} cannot be sent to the API: in a URL path it would name another endpoint. Check where it came from (the config's project_id, a flag, or the state)`);
  }
  return encodeURIComponent(value);
}
