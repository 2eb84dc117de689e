// Key authentication on both header styles, open paths, per-tenant rate limits, the daily token
// quota (persisted across restarts) and the concurrent-session cap.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Tenancy, UsageMeter } from '../../lib/gateway/contracts.ts';
import { boot, type Booted } from './helpers.ts';

let b: Booted;
let acme: string;
let beta: string;
before(async () => {
  b = await boot({ rateLimitPerKey: '1000/min' });
  acme = await b.addTenant('acme', { rateLimit: '3/min', tokenQuotaPerDay: 500, maxConcurrentSessions: 1 });
  beta = await b.addTenant('beta');
});
after(() => b.stop());

test('401 unauthorized without a key and with a wrong key, on both header styles', async () => {
  for (const header of ['bearer', 'x-api-key'] as const) {
    const none = await b.req('GET', '/api/v1/skills');
    assert.equal(none.status, 401);
    assert.equal(none.json.code, 'unauthorized');
    assert.match(none.json.error, /API key is required/);
    const wrong = await b.req('GET', '/api/v1/skills', { key: 'vgl_' + 'x'.repeat(43), header });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.json.code, 'unauthorized');
    assert.match(wrong.json.error, /not valid/);
    const ok = await b.req('GET', '/api/v1/skills', { key: beta, header });
    assert.equal(ok.status, 200, ok.body);
  }
  // Unknown routes do not reveal themselves to a caller without a key.
  assert.equal((await b.req('GET', '/api/v1/nope')).status, 401);
  // Malformed Authorization header is a missing key.
  const r = await b.kernel.gateway.inject({ method: 'GET', url: '/api/v1/skills', headers: { authorization: `Basic ${beta}` } });
  assert.equal(r.statusCode, 401);
});

test('open paths need no key; lookalike paths are not opened', async () => {
  assert.equal((await b.req('GET', '/health')).status, 200);
  assert.equal((await b.req('GET', '/metrics')).status, 200);
  assert.equal((await b.req('GET', '/openapi.json')).status, 200);
  assert.equal((await b.req('GET', '/healthz')).status, 401);
  assert.equal((await b.req('GET', '/dashboard-admin')).status, 401);
});

test('per-tenant rate limit: 429 rate_limited with Retry-After, other tenants unaffected', async () => {
  for (let i = 0; i < 3; i++) assert.equal((await b.req('GET', '/api/v1/tenants/me', { key: acme })).status, 200);
  const limited = await b.req('GET', '/api/v1/tenants/me', { key: acme, header: 'x-api-key' });
  assert.equal(limited.status, 429);
  assert.equal(limited.json.code, 'rate_limited');
  const retry = Number(limited.headers['retry-after']);
  assert.ok(retry >= 1 && retry <= 60, `Retry-After ${limited.headers['retry-after']}`);
  assert.equal((await b.req('GET', '/api/v1/tenants/me', { key: beta })).status, 200);
  // Open paths are never rate limited.
  assert.equal((await b.req('GET', '/health', { key: acme })).status, 200);
});

test('daily token quota: 429 quota_exceeded once used up, usage persisted', async () => {
  const usage = b.kernel.services.get<UsageMeter>('usage')!;
  await usage.assertAvailable('beta'); // no quota for beta beyond the default (none)
  await usage.consume('acme', 300);
  await usage.assertAvailable('acme');
  await Promise.all([usage.consume('acme', 150), usage.consume('acme', 100)]);
  await assert.rejects(
    usage.assertAvailable('acme'),
    (e: any) => e.statusCode === 429 && e.code === 'quota_exceeded' && Number(e.headers['retry-after']) > 0 && e.details.used === 550,
  );
  // Another tenant is unaffected.
  const b2 = await b.req('POST', '/api/v1/agent/chat', { key: beta, body: { message: 'what can you do?' } });
  assert.equal(b2.status, 200, b2.body);
});

test('quota_exceeded through the chat endpoint, and still after a restart', async () => {
  const key = await b.addTenant('delta', { tokenQuotaPerDay: 50 });
  const first = await b.req('POST', '/api/v1/agent/chat', { key, body: { message: 'what can you do?' } });
  assert.equal(first.status, 200, first.body);
  const used = first.json.usage.prompt_tokens + first.json.usage.completion_tokens;
  assert.ok(used >= 50, `the demo turn used ${used} tokens`);
  const second = await b.req('POST', '/api/v1/agent/chat', { key, body: { message: 'again' } });
  assert.equal(second.status, 429);
  assert.equal(second.json.code, 'quota_exceeded');
  assert.ok(Number(second.headers['retry-after']) > 0);
  // A fresh gateway process on the same data directory reads the persisted usage.
  const k2 = await boot({ rateLimitPerKey: '1000/min', dataDir: b.dataDir });
  try {
    const again = await k2.req('POST', '/api/v1/agent/chat', { key, body: { message: 'after restart' } });
    assert.equal(again.status, 429, 'usage survived the restart');
    const me = await k2.req('GET', '/api/v1/tenants/me', { key: await k2.addTenant('epsilon') });
    assert.equal(me.json.usage.tokens, 0, 'usage is per tenant');
  } finally {
    await k2.stop();
  }
});

test('concurrent-session cap: 429 session_limit while another session is open', async () => {
  const tenancy = b.kernel.services.get<Tenancy>('tenancy')!;
  await tenancy.sessionOpened('acme', 's-1');
  await tenancy.sessionOpened('acme', 's-1'); // same session twice counts once
  await assert.rejects(tenancy.sessionOpened('acme', 's-2'), (e: any) => e.statusCode === 429 && e.code === 'session_limit');
  await tenancy.sessionOpened('beta', 's-2'); // another tenant is unaffected
  await tenancy.sessionClosed('acme', 's-1');
  await assert.rejects(tenancy.sessionOpened('acme', 's-3'), (e: any) => e.code === 'session_limit', 'still one request inside s-1');
  await tenancy.sessionClosed('acme', 's-1');
  await tenancy.sessionOpened('acme', 's-3');
  await tenancy.sessionClosed('acme', 's-3');
  await tenancy.sessionClosed('beta', 's-2');
});

test('session_limit through the chat endpoint', async () => {
  const key = await b.addTenant('gamma', { maxConcurrentSessions: 1 });
  const tenancy = b.kernel.services.get<Tenancy>('tenancy')!;
  await tenancy.sessionOpened('gamma', 'held-open-by-a-stream');
  const r = await b.req('POST', '/api/v1/agent/chat', { key, body: { message: 'what can you do?' } });
  assert.equal(r.status, 429, r.body);
  assert.equal(r.json.code, 'session_limit');
  await tenancy.sessionClosed('gamma', 'held-open-by-a-stream');
  assert.equal((await b.req('POST', '/api/v1/agent/chat', { key, body: { message: 'what can you do?' } })).status, 200);
});

test('single-tenant local mode: no key needed, invalid tenant config fails closed', async () => {
  const local = await boot();
  try {
    const me = await local.req('GET', '/api/v1/tenants/me');
    assert.equal(me.status, 200);
    assert.equal(me.json.mode, 'single-tenant');
    assert.equal(me.json.tenant, null);
  } finally {
    await local.stop();
  }
  const broken = await boot({ overrides: { tenants: [{ name: 'x' }] } });
  try {
    const r = await broken.req('GET', '/api/v1/skills');
    assert.equal(r.status, 503);
    assert.equal(r.json.code, 'unavailable');
    assert.equal((await broken.req('GET', '/health')).status, 200);
  } finally {
    await broken.stop();
  }
});

test('config-declared tenants authenticate by a key held in an environment variable', async () => {
  const key = 'cfg-key-0123456789abcdef';
  // Config tenants read their key variable from the process environment, as in production.
  process.env.VIGIL_TEST_ACME_KEY = key;
  const k = await boot({
    overrides: { tenants: [{ name: 'cfg', api_key_env: 'VIGIL_TEST_ACME_KEY', rate_limit: '2/s', permissions: ['crypto'] }] },
  });
  try {
    const me = await k.req('GET', '/api/v1/tenants/me', { key, header: 'x-api-key' });
    assert.equal(me.status, 200, me.body);
    assert.equal(me.json.tenant, 'cfg');
    assert.deepEqual(me.json.permissions, ['crypto']);
    assert.equal(me.json.limits.rate_limit, '2/s');
    assert.equal((await k.req('GET', '/api/v1/tenants/me')).status, 401);
  } finally {
    await k.stop();
  }
});
