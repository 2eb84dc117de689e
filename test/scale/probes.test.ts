// Liveness and readiness probes: open without a key, 200/503 by what the replica depends on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { boot } from '../governance/helpers.ts';

test('embedded: /health/live and /health/ready answer without a key on both surfaces', async () => {
  const b = await boot();
  try {
    await b.addTenant('acme'); // keys are now required elsewhere
    assert.equal((await b.req('GET', '/api/v1/skills')).status, 401);
    const live = await b.req('GET', '/health/live');
    assert.equal(live.status, 200, live.body);
    assert.equal(live.json.status, 'alive');
    const ready = await b.req('GET', '/health/ready');
    assert.equal(ready.status, 200, ready.body);
    assert.equal(ready.json.status, 'ready');
    assert.equal(ready.json.checks.store.status, 'ok');
    assert.match(ready.json.checks.job_queue.detail, /memory queue/);
    const api = await b.kernel.api.inject({ method: 'GET', url: '/health/ready' });
    assert.equal(api.statusCode, 200);
  } finally {
    await b.stop();
  }
});

test('a replica whose Redis is unreachable is alive but not ready (503, says which check)', async () => {
  const b = await boot({ overrides: { redis_url: 'redis://127.0.0.1:1', plugins: { 'ops-probes': { timeout_ms: 500 } } } });
  try {
    assert.equal((await b.req('GET', '/health/live')).status, 200);
    const r = await b.req('GET', '/health/ready');
    assert.equal(r.status, 503, r.body);
    assert.equal(r.json.status, 'not_ready');
    assert.equal(r.json.checks.redis.status, 'down');
    assert.equal(r.json.checks.store.status, 'ok');
  } finally {
    await b.stop();
  }
});
