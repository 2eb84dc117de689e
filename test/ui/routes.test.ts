// gateway-ui over HTTP (no browser): content types, CSP and cache headers, conditional GETs,
// unknown assets, the plugin listing, and that every asset a page references is served.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { bootKernel } from '../helpers.ts';
import type { Kernel } from '../../kernel/kernel.ts';

let k: Kernel;
before(async () => {
  k = await bootKernel({ side: 'gateway' });
});
after(async () => {
  await k?.stop();
});

const get = (url: string, headers: Record<string, string> = {}) => k.gateway.inject({ method: 'GET', url, headers });

test('both pages are HTML under a same-origin-only CSP, revalidated on every load', async () => {
  for (const url of ['/dashboard', '/playground']) {
    const r = await get(url);
    assert.equal(r.statusCode, 200, url);
    assert.equal(r.headers['content-type'], 'text/html; charset=utf-8');
    assert.equal(r.headers['cache-control'], 'no-cache');
    const csp = String(r.headers['content-security-policy']);
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.match(csp, /style-src 'self'(;|$)/);
    assert.match(csp, /connect-src 'self'/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|https?:|\*/);
    assert.equal(r.headers['x-content-type-options'], 'nosniff');
    // No inline script or style and no absolute URLs anywhere in the markup.
    assert.doesNotMatch(r.body, /<script(?![^>]*\bsrc=)[^>]*>/i);
    assert.doesNotMatch(r.body, /<style|\sstyle=/i);
    assert.doesNotMatch(r.body, /(src|href)="(https?:)?\/\//i);
  }
});

test('every asset a page references is served with its content type and a long cache', async () => {
  const types: Record<string, RegExp> = { js: /^text\/javascript/, css: /^text\/css/, svg: /^image\/svg\+xml/ };
  for (const page of ['/dashboard', '/playground']) {
    const html = (await get(page)).body;
    const refs = [...html.matchAll(/(?:src|href)="(\/[^"]+\/assets\/[^"]+)"/g)].map((m) => m[1]);
    assert.ok(refs.length >= 3, `${page} references its assets`);
    for (const ref of refs) {
      assert.ok(ref.startsWith(`${page}/assets/`), `${ref} lives under ${page}/ so the page's open path covers it`);
      const r = await get(ref);
      assert.equal(r.statusCode, 200, ref);
      const ext = ref.split('?')[0].split('.').pop()!;
      assert.match(String(r.headers['content-type']), types[ext], ref);
      assert.match(String(r.headers['cache-control']), /^public, max-age=\d+/);
      assert.ok(r.headers.etag);
    }
    // Modules import each other by relative URL; those must resolve too.
    for (const ref of refs.filter((x) => x.includes('.js'))) {
      const src = (await get(ref)).body;
      for (const m of src.matchAll(/from '\.\/([a-z-]+\.js)'/g)) assert.equal((await get(`${page}/assets/${m[1]}`)).statusCode, 200, m[1]);
    }
  }
});

test('a matching If-None-Match answers 304 with no body; a changed one gets the content', async () => {
  const first = await get('/playground/assets/playground.js');
  const etag = String(first.headers.etag);
  const again = await get('/playground/assets/playground.js', { 'if-none-match': etag });
  assert.equal(again.statusCode, 304);
  assert.equal(again.body, '');
  const other = await get('/playground/assets/playground.js', { 'if-none-match': '"something-else"' });
  assert.equal(other.statusCode, 200);
  assert.ok(other.body.length > 1000);
});

test('unknown or malformed asset names are a JSON 404, never a file read outside public/', async () => {
  for (const name of ['nope.js', '..%2Findex.ts', '%2e%2e%2f%2e%2e%2fpackage.json', 'dashboard.html', 'index.ts']) {
    const r = await get(`/dashboard/assets/${name}`);
    assert.equal(r.statusCode, 404, name);
    assert.equal(JSON.parse(r.body).code, 'not_found');
  }
});

test('GET /api/v1/plugins lists every plugin with its status, filters by kind and status, and hides server paths', async () => {
  const r = await get('/api/v1/plugins');
  assert.equal(r.statusCode, 200);
  const body = JSON.parse(r.body) as { plugins: Array<Record<string, unknown>>; total: number };
  assert.equal(body.total, body.plugins.length);
  assert.equal(body.total, k.registry.plugins().length);
  const me = body.plugins.find((p) => p.id === 'gateway-ui');
  assert.equal(me?.status, 'loaded');
  assert.equal(me?.kind, 'routes');
  for (const p of body.plugins) assert.equal('dir' in p, false);
  assert.doesNotMatch(r.body, new RegExp(k.settings.rootDir.replace(/[/\\^$.*+?()[\]{}|]/g, '\\$&')));
  const routes = JSON.parse((await get('/api/v1/plugins?kind=routes')).body) as typeof body;
  assert.ok(routes.plugins.length >= 1 && routes.plugins.every((p) => p.kind === 'routes'));
  const bad = await get('/api/v1/plugins?status=broken');
  assert.equal(bad.statusCode, 400);
  assert.equal(JSON.parse(bad.body).code, 'invalid_request');
});

test('the pages and the plugin listing appear in the OpenAPI description', async () => {
  const spec = JSON.parse((await get('/openapi.json')).body) as { paths: Record<string, unknown> };
  for (const p of ['/dashboard', '/playground', '/api/v1/plugins']) assert.ok(spec.paths[p], p);
});
