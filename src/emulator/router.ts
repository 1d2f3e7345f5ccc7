// Route table: templates exactly as in cloud-api.md (they are also the stats keys).
import type { Clock } from './clock.js';
import type { Principal } from './auth.js';
import type { Dialect } from './dialect.js';
import type { World } from './store.js';

export type Method = 'GET' | 'POST' | 'DELETE';

export interface RequestContext {
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  principal: Principal;
  world: World;
  clock: Clock;
  /** How answers are spelled (dialect.ts). */
  dialect: Dialect;
  /** The request's instant: every status in one answer is computed at the same time. */
  now: number;
}

export interface RouteResult {
  status: number;
  body?: unknown;
  /** False for answers that changed nothing (reads); mutations are persisted before answering. */
  mutated: boolean;
}

export interface Route {
  method: Method;
  template: string;
  handle(ctx: RequestContext): RouteResult | Promise<RouteResult>;
}

interface CompiledRoute extends Route {
  segments: string[];
}

export type RouteMatch =
  | { kind: 'found'; route: Route; params: Record<string, string> }
  | { kind: 'wrong-method'; allow: string[] }
  | { kind: 'none' };

export class Router {
  private readonly routes: CompiledRoute[] = [];

  add(routes: Route[]): this {
    for (const r of routes) this.routes.push({ ...r, segments: r.template.split('/').slice(1) });
    return this;
  }

  /** Matches a path relative to the API prefix. */
  match(method: string, path: string): RouteMatch {
    const parts = path.split('/').slice(1);
    const allow = new Set<string>();
    for (const route of this.routes) {
      const params = matchSegments(route.segments, parts);
      if (!params) continue;
      if (route.method === method) return { kind: 'found', route, params };
      allow.add(route.method);
    }
    return allow.size > 0 ? { kind: 'wrong-method', allow: [...allow].sort() } : { kind: 'none' };
  }
}

function matchSegments(segments: string[], parts: string[]): Record<string, string> | undefined {
  if (segments.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    const part = parts[i]!;
    if (seg.startsWith('{')) {
      if (part === '') return undefined;
      let value: string;
      try {
        value = decodeURIComponent(part);
      } catch {
        return undefined;
      }
      params[seg.slice(1, -1)] = value;
    } else if (seg !== part) return undefined;
  }
  return params;
}
