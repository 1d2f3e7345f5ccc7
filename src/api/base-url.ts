// The API's base URL as given by --api-url / DBFORM_API_URL: checked before any credential is sent.
import { DbformError } from '../model/errors.js';

/** The base URL, checked: http(s) only, plain http only to loopback unless allowed. */
export function parseBaseUrl(raw: string, allowInsecureHttp: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new DbformError(`the API URL "${raw}" is not a valid URL (expected e.g. https://api.example.com/public/api/v1)`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new DbformError(`the API URL "${raw}" must start with https:// (or http:// for a local emulator)`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new DbformError('the API URL must not carry credentials; give them with DBFORM_API_KEY, DBFORM_ACCESS_KEY and DBFORM_SECRET_KEY, or --api-key-file');
  }
  if (url.protocol === 'http:' && !allowInsecureHttp && !isLoopback(url.hostname)) {
    throw new DbformError(
      `refusing to send the API credentials over plain http to ${url.host}; use https, or --allow-insecure-http if you really mean it`,
    );
  }
  // A bare origin gets the API prefix, so `--api-url http://127.0.0.1:4010` just works.
  if (url.pathname === '/' || url.pathname === '') url.pathname = '/public/api/v1';
  url.pathname = url.pathname.replace(/\/+$/, '');
  url.search = '';
  url.hash = '';
  return url;
}

export function isLoopback(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}
