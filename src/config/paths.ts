// Paths inside the config data: segments for walking, dotted text for messages.
import type { PathSeg } from './positions.js';
import { terminalLine } from '../model/terminal-text.js';

/** `services.db.ha.replicas`, `vpcs.main.<list>[0].<field>`, `moved[1].to`. */
export function formatPath(path: readonly PathSeg[]): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else out += out === '' ? terminalLine(seg) : `.${terminalLine(seg)}`;
  }
  return out;
}

/** Segments of a JSON pointer (`/vpcs/main/<list>/0`), with array indices as numbers. */
export function pointerToPath(pointer: string, data: unknown): PathSeg[] {
  if (pointer === '') return [];
  const path: PathSeg[] = [];
  let node = data;
  for (const raw of pointer.slice(1).split('/')) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) {
      path.push(Number(seg));
      node = node[Number(seg)];
    } else {
      path.push(seg);
      node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[seg] : undefined;
    }
  }
  return path;
}
