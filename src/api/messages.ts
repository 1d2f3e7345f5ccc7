// Turning an API answer into a message a person can act on. Pure: no I/O.
import { childKinds, TOP_KINDS } from '../kinds/index.js';
import { nounOf } from '../model/address.js';
import type { ErrorDto } from './dto.js';

/** What a path below the base URL acts on, in words: `service kd9w2xp4mz`, `project p1`. */
export function describeTarget(path: string): string {
  const s = path.split('?')[0]!.split('/').filter((x) => x !== '').map(decodeSegment);
  if (s[0] !== 'projects' || s.length < 2) return 'the project list';
  // A kind's route segment is its list key: /projects/{p}/<top>/{id}[/<child>/{id}].
  const top = TOP_KINDS.find((k) => k.listKey === s[2]);
  if (top === undefined || s[3] === undefined) return `project ${s[1]}`;
  const child = childKinds(top.kind).find((k) => k.listKey === s[4]);
  if (child !== undefined && s[5] !== undefined) return `${nounOf(child.kind)} ${s[5]} of ${nounOf(top.kind)} ${s[3]}`;
  return `${nounOf(top.kind)} ${s[3]}`;
}

/** The project ID of a path, when the path is project-scoped. */
export function projectOf(path: string): string | undefined {
  const s = path.split('?')[0]!.split('/').filter((x) => x !== '');
  return s[0] === 'projects' && s[1] !== undefined ? decodeSegment(s[1]) : undefined;
}

function decodeSegment(x: string): string {
  try {
    return decodeURIComponent(x);
  } catch {
    return x;
  }
}

/** Reads an error body tolerantly: the API's JSON shape, or a short excerpt of whatever came. */
export function readErrorBody(text: string, status: number): ErrorDto {
  const fallback = `HTTP_${status}`;
  if (text.trim() === '') return { code: fallback, message: 'no error body' };
  try {
    const data = JSON.parse(text) as Partial<Record<keyof ErrorDto, unknown>>;
    if (typeof data === 'object' && data !== null) {
      const code = typeof data.code === 'string' && data.code !== '' ? data.code : fallback;
      const message = typeof data.message === 'string' && data.message !== '' ? data.message : 'no message';
      const out: ErrorDto = { code, message };
      if (typeof data.details === 'string' && data.details !== '') out.details = data.details;
      return out;
    }
  } catch {
    // not JSON: fall through to the excerpt
  }
  return { code: fallback, message: `the error body is not JSON: ${excerpt(text)}` };
}

/** First 80 characters of a body on one line, for messages about unusable answers. */
export function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return JSON.stringify(flat.length > 80 ? `${flat.slice(0, 80)}...` : flat);
}

/** Replaces every occurrence of each secret by `[redacted]`. */
export function scrub(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length > 0) out = out.split(secret).join('[redacted]');
  }
  return out;
}

export interface HttpErrorFacts {
  op: string;
  path: string;
  status: number;
  error: ErrorDto;
  attempts: number;
  /** What the request authenticated with; default `token`. */
  credential?: 'token' | 'key pair';
}

/** The message of an ApiError for an HTTP error answer. */
export function describeHttpError(f: HttpErrorFacts): string {
  const target = describeTarget(f.path);
  const tag = `${f.status} ${f.error.code}`;
  const details = f.error.details === undefined ? '' : ` (${f.error.details})`;
  const api = `${f.error.message}${details}`;
  const tries = f.attempts > 1 ? ` after ${f.attempts} attempts` : '';
  switch (f.status) {
    case 401:
      return f.credential === 'key pair'
        ? `the API rejected the key pair (${tag}: ${api}); check DBFORM_ACCESS_KEY and DBFORM_SECRET_KEY or the file given to --api-key-file`
        : `the API rejected the token (${tag}: ${api}); check DBFORM_API_KEY or the file given to --api-key-file`;
    case 403:
      return `${f.op}: the ${f.credential ?? 'token'} is not allowed to act on ${target} (${tag}: ${api})`;
    case 404: {
      const project = projectOf(f.path);
      if (target.startsWith('project ') && project !== undefined) {
        return `${f.op}: project "${project}" does not exist or the ${f.credential ?? 'token'} cannot see it (${tag}: ${api})`;
      }
      // The project list always exists: its 404 means the base URL is not the API's.
      if (f.path === '/projects') return `${f.op}: ${target} was not found (${tag}: ${api}); is --api-url (DBFORM_API_URL) the API's base URL, ending in /public/api/v1?`;
      return `${f.op}: ${target} was not found (${tag}: ${api})`;
    }
    case 409:
      return `${f.op} on ${target} was refused: ${api} (${tag})`;
    case 400:
    case 413:
    case 415:
      return `${f.op} on ${target}: the API refused the request: ${api} (${tag})`;
    case 429:
      return `${f.op} on ${target}: the API kept throttling the request${tries} (${tag}: ${api})`;
    default:
      return `${f.op} on ${target} failed${tries}: ${api} (${tag})`;
  }
}
