/**
 * The approval inbox page at `/`, public like any login page: everything it shows comes from `/api/*` with the
 * bearer token the user pastes. There is no build step: the browser loads the page's own ES modules from
 * `public/` and the libraries' ES modules straight from their packages, which an import map in index.html names.
 * Only the packages listed here are exposed, never the rest of node_modules.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveStatic } from '@hono/node-server/serve-static';
import { secureHeaders } from 'hono/secure-headers';
import type { ApiApp } from '../api-env.js';

const PUBLIC_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'public');
/** The rule of which characters are shown as escapes, shared with the CLI: the page loads the file itself. */
const HIDDEN_CHARACTERS = fileURLToPath(new URL('../../contract/hidden-characters.js', import.meta.url));

/** The packages the import map in index.html points into. */
const BROWSER_PACKAGES = ['preact', 'htm', '@highlightjs/cdn-assets', '@cfworker/json-schema', 'diff', 'eventsource-parser'];

/** A package's directory, found along Node's own lookup paths (package `exports` would hide package.json). */
function packageDir(name: string): string {
  const require = createRequire(import.meta.url);
  const dir = (require.resolve.paths(name) ?? [])
    .map((base) => path.join(base, name))
    .find((d) => existsSync(path.join(d, 'package.json')));
  if (!dir) throw new Error(`The inbox page needs the npm package ${name}; run npm install.`);
  return dir;
}

/**
 * The page's Content-Security-Policy. The inline import map is the one inline script, allowed by its hash; the
 * transcript shows model output, so nothing else may run inline even if a rendering bug let markup through.
 */
function pageSecurityHeaders(page: string) {
  const importMap = /<script type="importmap">([\s\S]*?)<\/script>/.exec(page)?.[1];
  if (importMap === undefined) throw new Error('inbox index.html has no import map');
  const hash = createHash('sha256').update(importMap).digest('base64');
  return secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", `'sha256-${hash}'`],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      formAction: ["'none'"],
      frameAncestors: ["'none'"],
    },
    referrerPolicy: 'no-referrer',
  });
}

export function inboxRoutes(app: ApiApp): void {
  const page = readFileSync(path.join(PUBLIC_DIR, 'index.html'), 'utf8');
  app.get('/', pageSecurityHeaders(page), (c) => c.html(page));

  const noCache = (_path: string, c: { header: (name: string, value: string) => void }) => c.header('Cache-Control', 'no-cache');
  app.use('/assets/*', serveStatic({ root: PUBLIC_DIR, rewriteRequestPath: (p) => p.slice('/assets'.length), onFound: noCache }));
  app.get('/shared/hidden-characters.js', serveStatic({ path: HIDDEN_CHARACTERS, onFound: noCache }));
  for (const name of BROWSER_PACKAGES) {
    const prefix = `/vendor/${name}`;
    app.use(`${prefix}/*`, serveStatic({ root: packageDir(name), rewriteRequestPath: (p) => p.slice(prefix.length), onFound: noCache }));
  }
}
