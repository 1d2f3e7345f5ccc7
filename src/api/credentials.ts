// How dbform proves who it is (SPEC sections 4 and 12): a Bearer token (cloud-api.md), or a client
// credential pair sent with HTTP Basic, as the real service takes it. Neither is ever printed: every
// value here is scrubbed from messages and debug lines.

export type ApiCredentials = { kind: 'bearer'; token: string } | { kind: 'key-pair'; publicKey: string; secretKey: string };

export function authorizationHeader(c: ApiCredentials): string {
  if (c.kind === 'bearer') return `Bearer ${c.token}`;
  return `Basic ${basicValue(c)}`;
}

/** Every string that would give the credential away, longest first (so a part never hides the whole). */
export function secretsOf(c: ApiCredentials): string[] {
  const values = c.kind === 'bearer' ? [c.token] : [basicValue(c), c.secretKey, c.publicKey];
  return values.filter((v) => v !== '').sort((a, b) => b.length - a.length);
}

/** What a message calls the credential: `the token`, `the key pair`. */
export function credentialNoun(c: ApiCredentials): 'token' | 'key pair' {
  return c.kind === 'bearer' ? 'token' : 'key pair';
}

function basicValue(c: { publicKey: string; secretKey: string }): string {
  return Buffer.from(`${c.publicKey}:${c.secretKey}`, 'utf8').toString('base64');
}
