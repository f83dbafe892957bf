/**
 * A request whose path names a route but whose method the route does not take is answered 405 with `Allow`, as HTTP
 * says, not 404: `GET /api/approvals/{id}/approve` exists as a POST, and "no route" sent its caller looking for a typo.
 */
import type { Hono } from 'hono';

/** The methods the app's routes take at `path` (the path as requested), none when no route matches it. */
export function allowedMethods(app: Pick<Hono, 'routes'>, path: string): string[] {
  const methods = new Set<string>();
  for (const route of app.routes) {
    if (route.method === 'ALL' || route.path.includes('*')) continue;
    const pattern = route.path.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/:[^/]+/g, '[^/]+');
    if (new RegExp(`^${pattern}$`).test(path)) methods.add(route.method);
  }
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}
