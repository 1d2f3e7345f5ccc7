// What a tool's caller may pass, checked before anything runs. The JSON types are the SDK's (zod);
// the values are checked here, so a bad one is one line naming the input, and nothing reaches the
// CLI that it could read as an option: every option goes as `--name=value` and every positional
// after `--`.
import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { addressForms, kindOf, parseAddress, parseRfc3339 } from '../model/index.js';
import { isValidWorkspace } from '../state/index.js';

/** A refusal of an input: the tool answers with its message and runs nothing. */
export class InputError extends Error {}

/** The config files and workspace a call is about (absent: the server's own). */
export interface CallScope {
  files?: string[];
  workspace?: string;
}

// Control characters and whitespace have no place in any of these values; refusing them keeps a
// value on one line in every message and record.
const PLAIN = /^[^\s\p{Cc}]+$/u;

export function checkWorkspace(name: string): string {
  if (!isValidWorkspace(name)) {
    throw new InputError(`workspace ${JSON.stringify(name)} is not a valid workspace name: use 1-63 lowercase letters, digits and '-', starting with a letter or digit`);
  }
  return name;
}

export function checkAddress(input: string, address: string): string {
  if (address.length > 300 || !PLAIN.test(address) || kindOf(address) === undefined) {
    throw new InputError(`${input} ${JSON.stringify(clip(address))} is not an address: use ${addressForms('snake')}`);
  }
  return address;
}

/** `service.KEY`, or a service ID (as `dbform logs` takes). */
export function checkService(service: string): string {
  const address = parseAddress(service);
  if (address?.kind === 'service' || (address === undefined && /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/.test(service))) return service;
  throw new InputError(`service ${JSON.stringify(clip(service))} is neither a service address (service.KEY) nor a service ID`);
}

export function checkLimit(input: string, value: number, max: number): number {
  if (!Number.isSafeInteger(value) || value < 1 || value > max) throw new InputError(`${input} must be a whole number from 1 to ${max} (got ${value})`);
  return value;
}

export function checkNode(node: number): number {
  if (!Number.isSafeInteger(node) || node < 0 || node > 999) throw new InputError(`node must be a node number from 0 to 999 (got ${node})`);
  return node;
}

/** RFC 3339, or an age before now such as 15m, 2h, 7d (as `dbform logs --since` takes). */
export function checkTime(input: string, value: string): string {
  if (/^\d{1,9}[smhd]$/.test(value) || parseRfc3339(value) !== undefined) return value;
  throw new InputError(`${input} ${JSON.stringify(clip(value))} is not a time: use RFC 3339 (2026-01-02T03:04:05Z) or an age such as 30s, 15m, 2h, 7d`);
}

/** A word to search log lines for: printable, one line, not too long. */
export function checkWord(input: string, word: string): string {
  if (word.length === 0 || word.length > 200 || /\p{Cc}/u.test(word)) throw new InputError(`${input} must be 1-200 characters on one line`);
  return word;
}

export function checkSeverity(level: string): string {
  if (!/^[A-Za-z][A-Za-z0-9]{0,9}$/.test(level)) throw new InputError(`severity ${JSON.stringify(clip(level))} is not a log level such as ERROR, WARNING or LOG`);
  return level;
}

export function checkCount(input: string, list: readonly unknown[], max: number): void {
  if (list.length > max) throw new InputError(`${input} takes at most ${max} values (got ${list.length})`);
}

/**
 * A file the caller names must lie inside the directory the server runs in (symlinks followed):
 * the tools read config and plan files, and an error about a file that is not one quotes a bit of
 * it, so a path outside the project could read any file the server can.
 */
export async function checkProjectFile(input: string, path: string, root: string, extensions?: readonly string[]): Promise<string> {
  if (path.length === 0 || path.length > 1024 || /\p{Cc}/u.test(path)) throw new InputError(`${input} must be a file path on one line`);
  if (extensions && !extensions.some((e) => path.endsWith(e))) throw new InputError(`${input} ${JSON.stringify(clip(path))} must end in ${extensions.join(' or ')}`);
  const outside = () => new InputError(`${input} ${JSON.stringify(clip(path))} is outside the directory dbform mcp serves (${root}); name a file inside it`);
  if (!inside(root, resolve(root, path))) throw outside();
  const real = await realpath(resolve(root, path)).catch(() => undefined);
  // A file that does not exist is for the CLI to report; one that does must really be inside.
  if (real !== undefined && !inside(await realpath(root), real)) throw outside();
  return path;
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}

const clip = (text: string): string => (text.length > 80 ? `${text.slice(0, 77)}...` : text);
