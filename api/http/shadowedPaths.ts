import type { Context, Next } from 'koa';
import { methodNotAllowedError } from '../middleware/errors';
import type { HttpMethod, RouteDef } from './route';

/**
 * Literal paths that a parameterised path of another route matches too: `/api/v1/workflows/validate` (POST) is also
 * `/api/v1/workflows/{id}` with id "validate". The router runs every layer that matches path and method, so without
 * a guard `GET /api/v1/workflows/validate` reached getWorkflow and answered 404 "workflow not found", where any other
 * wrong method on a path answers 405 with Allow. Each such path maps to the methods declared for it.
 */
export function shadowedLiteralPaths(routes: readonly Pick<RouteDef, 'method' | 'path'>[]): Map<string, HttpMethod[]> {
  const declared = new Map<string, HttpMethod[]>();
  for (const { method, path } of routes) declared.set(path, [...(declared.get(path) ?? []), method]);
  const parameterised = [...declared.keys()].filter((path) => path.includes('{'));
  const shadowed = new Map<string, HttpMethod[]>();
  for (const [path, methods] of declared) {
    if (!path.includes('{') && parameterised.some((pattern) => matchesLiterally(pattern, path))) shadowed.set(path, methods);
  }
  return shadowed;
}

/** The routes in mounting order: fewer `{parameters}` first, otherwise as declared (a stable sort). */
export function literalFirst<R extends Pick<RouteDef, 'path'>>(routes: readonly R[]): R[] {
  const parameters = (path: string): number => path.split('{').length - 1;
  return [...routes].sort((a, b) => parameters(a.path) - parameters(b.path));
}

/** Whether the OpenAPI path `pattern` (`{name}` = one segment) matches the literal `path`. */
function matchesLiterally(pattern: string, path: string): boolean {
  const want = pattern.split('/');
  const have = path.split('/');
  return want.length === have.length && want.every((segment, i) => segment === have[i] || /^\{\w+\}$/.test(segment));
}

/** The Allow header for the declared methods, as the router writes it (a GET route answers HEAD too). */
export function allowHeader(methods: readonly HttpMethod[]): string {
  const upper = methods.map((m) => m.toUpperCase());
  return (upper.includes('GET') ? ['HEAD', ...upper] : upper).join(', ');
}

/**
 * Mounted on a shadowed path for every method, before the routes: its own methods go on to their handler, OPTIONS
 * is answered with Allow (as the router does), and any other method is 405 with Allow naming this path's methods
 * only, not those of the parameterised routes that also match it.
 */
export function literalPathGuard(methods: readonly HttpMethod[]) {
  const allow = allowHeader(methods);
  const allowed = new Set(allow.split(', '));
  // Marked, so that the check that every mounted route is documented passes over it: it is no route of its own.
  const guard = async (ctx: Context, next: Next): Promise<void> => {
    if (allowed.has(ctx.method)) return next();
    if (ctx.method === 'OPTIONS') {
      ctx.status = 200;
      ctx.body = '';
      ctx.set('Allow', allow);
      return;
    }
    throw methodNotAllowedError(ctx.method, ctx.path, allow);
  };
  return Object.assign(guard, { methodGuard: true as const });
}
