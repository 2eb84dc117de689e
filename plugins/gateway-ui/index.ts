// gateway-ui: the operator dashboard (GET /dashboard) and the chat playground (GET /playground)
// of the agent gateway, an index at GET /, plus GET /api/v1/plugins (plugin statuses for the
// dashboard).
//
// Why it looks like this: the pages are plain HTML, CSS and browser ES modules kept in public/
// and served from memory with a strict Content-Security-Policy (same origin only, no inline
// script or style, no external hosts), so a gateway deployed behind a firewall renders the same
// as a laptop and an injected string in a chat answer can never run as script. Everything the
// pages show comes from the gateway's own JSON endpoints and the Prometheus text of /metrics,
// read in the browser; nothing here duplicates gateway logic.
//
// Deliberately avoided: a chart library or web font from a CDN (a request leaving the host), and
// inline <script>/<style> (would need 'unsafe-inline' or per-response nonces).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { definePlugin, Type, type PluginStatus } from '../../kernel/index.ts';

interface UiConfig extends Record<string, unknown> {
  asset_max_age_s: number;
}

interface Asset {
  body: Buffer;
  type: string;
  etag: string;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
};

/** Same-origin only. connect-src 'self' covers fetch() to the API and /metrics. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

// Assets live under each page's own path (/dashboard/assets/...), so whatever opens a page to
// unauthenticated browsers (the tenancy plugin's open paths) opens its assets too, and nothing else.
const PAGES = { '/dashboard': 'dashboard.html', '/playground': 'playground.html' } as const;
const ASSET_NAME = /^[a-z0-9][a-z0-9.-]{0,63}\.(css|js|svg|png|ico|json)$/;

function etagOf(body: Buffer): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
}

/** Reads public/ once. HTML references assets as {{asset:name}}, replaced by a URL under the
 *  page's path carrying the asset's content hash, so a new release is never hidden behind a
 *  cached script. `pages` maps an HTML file name to the URL it is served at. A line
 *  {{partial:name.partial.html}} stands for that file (the markup every page shares, written
 *  once); in it, {{current:URL}} marks the link to the page being served as the current one. */
export function loadAssets(dir: string, pageUrls: Record<string, string>): { assets: Map<string, Asset>; pages: Map<string, Asset> } {
  const assets = new Map<string, Asset>();
  const pages = new Map<string, Asset>();
  const names = fs.readdirSync(dir).sort();
  for (const name of names) {
    const ext = path.extname(name);
    if (ext === '.html' || !ASSET_NAME.test(name)) continue;
    const body = fs.readFileSync(path.join(dir, name));
    assets.set(name, { body, type: CONTENT_TYPES[ext], etag: etagOf(body) });
  }
  for (const name of names.filter((n) => n.endsWith('.html'))) {
    const base = pageUrls[name];
    if (!base) continue;
    const html = fs
      .readFileSync(path.join(dir, name), 'utf8')
      .replace(/^[ \t]*\{\{partial:([a-z0-9-]+\.partial\.html)\}\}\n/gm, (_, ref: string) => {
        if (!names.includes(ref)) throw new Error(`${name} references a missing partial "${ref}"`);
        return fs.readFileSync(path.join(dir, ref), 'utf8');
      })
      .replace(/\{\{current:([^}]+)\}\}/g, (_, url: string) => (url === base ? ' aria-current="page"' : ''))
      .replace(/\{\{asset:([^}]+)\}\}/g, (_, ref: string) => {
        const a = assets.get(ref);
        if (!a) throw new Error(`${name} references a missing asset "${ref}"`);
        return `${base}/assets/${ref}?v=${a.etag.slice(1, 11)}`;
      });
    const body = Buffer.from(html, 'utf8');
    pages.set(name, { body, type: CONTENT_TYPES['.html'], etag: etagOf(body) });
  }
  return { assets, pages };
}

/** What GET /api/v1/plugins shows: the registry's view without the server's filesystem paths. */
export function publicPluginStatus(p: PluginStatus) {
  return {
    id: p.id,
    kind: p.kind,
    version: p.version,
    runtime: p.runtime,
    status: p.status,
    error: p.error,
    registered: p.registered,
    description: p.description,
  };
}

const PluginStatusSchema = Type.Object({
  id: Type.String(),
  kind: Type.String(),
  version: Type.Union([Type.String(), Type.Null()]),
  runtime: Type.Union([Type.Literal('ts'), Type.Literal('wasm'), Type.Null()]),
  status: Type.Union([Type.Literal('loaded'), Type.Literal('error'), Type.Literal('disabled')]),
  error: Type.Union([Type.String(), Type.Null()]),
  registered: Type.Array(Type.String()),
  description: Type.Union([Type.String(), Type.Null()]),
});

const ErrorSchema = Type.Object({
  error: Type.String(),
  code: Type.String(),
  details: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});

export default definePlugin<UiConfig>({
  setup(ctx) {
    const { assets, pages } = loadAssets(path.join(ctx.dir, 'public'), Object.fromEntries(Object.entries(PAGES).map(([u, f]) => [f, u])));
    const maxAge = ctx.config.asset_max_age_s;
    const registry = ctx.services.registry;

    ctx.registerRoutes('gateway', async (app) => {
      const send = (req: { headers: Record<string, unknown> }, reply: any, a: Asset, cacheControl: string) => {
        reply.headers(SECURITY_HEADERS).header('cache-control', cacheControl).header('etag', a.etag);
        if (req.headers['if-none-match'] === a.etag) return reply.code(304).send();
        return reply.type(a.type).send(a.body);
      };

      for (const [url, file] of Object.entries(PAGES)) {
        const page = pages.get(file);
        if (!page) throw new Error(`public/${file} is missing`);
        app.get(
          url,
          {
            schema: {
              summary: url === '/dashboard' ? 'Control-plane dashboard page' : 'Interactive chat playground page',
              tags: ['ui'],
              produces: ['text/html'],
              response: { 200: { description: 'HTML page', type: 'string' }, 304: { description: 'Not modified', type: 'null' } },
            },
          },
          // HTML is revalidated on every load (no-cache + ETag) so the hashed asset URLs in it stay current.
          async (req, reply) => send(req, reply, page, 'no-cache'),
        );
      }

      // GET /: where a newcomer lands. A small page naming what is here (HTML for a browser,
      // JSON for curl or a script asking for it); open like the pages it links to.
      const links = [
        {
          href: '/dashboard',
          title: 'Dashboard',
          text: 'tenants, sessions, approvals, audit, guardrails, metrics and the readiness report',
        },
        { href: '/playground', title: 'Playground', text: 'chat with the agent: streaming, skills, approvals' },
        { href: '/openapi.json', title: 'API documentation', text: 'the OpenAPI 3 document of every gateway endpoint' },
        { href: '/health', title: 'Health', text: 'liveness and dependencies' },
      ];
      const css = assets.get('ui.css');
      const index = Buffer.from(
        `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
          `<title>vigil agent gateway</title>${css ? `<link rel="stylesheet" href="/dashboard/assets/ui.css?v=${css.etag.slice(1, 11)}">` : ''}</head>` +
          `<body><main class="index"><h1>vigil agent gateway</h1><ul>` +
          links.map((l) => `<li><a href="${l.href}">${l.title}</a> — ${l.text}</li>`).join('') +
          `</ul><p>The contract-analysis API listens on its own port (default 8000); its documentation is at /openapi.json there.</p></main></body></html>\n`,
        'utf8',
      );
      const indexAsset: Asset = { body: index, type: CONTENT_TYPES['.html'], etag: etagOf(index) };
      app.get(
        '/',
        { schema: { summary: 'Index: links to the dashboard, the playground and the API documentation', tags: ['ui'] } },
        async (req, reply) => {
          const accept = String(req.headers.accept ?? '');
          if (accept.includes('application/json') && !accept.includes('text/html')) {
            return { service: 'vigil agent gateway', links: links.map((l) => ({ href: l.href, title: l.title, description: l.text })) };
          }
          return send(req, reply, indexAsset, 'no-cache');
        },
      );

      const assetRoute = (url: string) =>
        app.get(
          `${url}/assets/:name`,
          {
            schema: {
              summary: 'Static asset of the dashboard and playground',
              tags: ['ui'],
              params: Type.Object({ name: Type.String({ maxLength: 80 }) }),
              response: {
                200: { description: 'asset', type: 'string' },
                304: { description: 'Not modified', type: 'null' },
                404: ErrorSchema,
              },
            },
          },
          async (req, reply) => {
            const { name } = req.params as { name: string };
            const a = assets.get(name);
            if (!a)
              return reply
                .code(404)
                .type('application/json; charset=utf-8')
                .send({ error: `no UI asset named "${name}"`, code: 'not_found' });
            return send(req, reply, a, `public, max-age=${maxAge}`);
          },
        );
      for (const url of Object.keys(PAGES)) assetRoute(url);

      app.get(
        '/api/v1/plugins',
        {
          schema: {
            summary: 'Plugins discovered by the kernel, with their load status',
            tags: ['plugins'],
            querystring: Type.Object({
              kind: Type.Optional(Type.String({ maxLength: 32 })),
              status: Type.Optional(Type.Union([Type.Literal('loaded'), Type.Literal('error'), Type.Literal('disabled')])),
            }),
            response: { 200: Type.Object({ plugins: Type.Array(PluginStatusSchema), total: Type.Integer() }) },
          },
        },
        async (req) => {
          const q = req.query as { kind?: string; status?: string };
          const list = registry
            .plugins()
            .filter((p) => (!q.kind || p.kind === q.kind) && (!q.status || p.status === q.status))
            .sort((a, b) => a.id.localeCompare(b.id))
            .map(publicPluginStatus);
          return { plugins: list, total: list.length };
        },
      );
    });
  },
});
