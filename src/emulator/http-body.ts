import type { IncomingMessage } from 'node:http';
import { badRequest, HttpError } from './errors.js';

export const MAX_BODY_BYTES = 1024 * 1024;
/** Beyond this the rest of an oversized body is not even drained: the connection is closed. */
const MAX_DRAIN_BYTES = 16 * MAX_BODY_BYTES;

const tooLarge = (close: boolean) =>
  new HttpError(413, 'PAYLOAD_TOO_LARGE', `request body exceeds ${MAX_BODY_BYTES} bytes`, close ? { headers: { connection: 'close' } } : undefined);

/**
 * Reads a request body as JSON. An empty body is undefined. A body of another media type is a
 * 415, malformed JSON a 400, more than 1 MiB a 413 (drained first, so the client can read it).
 */
export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_DRAIN_BYTES) throw tooLarge(true);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_DRAIN_BYTES) throw tooLarge(true);
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  }
  if (size > MAX_BODY_BYTES) throw tooLarge(false);
  if (size === 0) return undefined;
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json' && !/^application\/[a-z0-9.+-]+\+json$/.test(type)) {
    throw new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', `request bodies must be JSON with Content-Type: application/json (got ${type === '' ? 'no Content-Type' : `"${type}"`})`);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw badRequest(`malformed JSON body: ${(err as Error).message}`);
  }
}
