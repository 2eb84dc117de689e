// Root, health, tool and layer inventory, unknown routes, OpenAPI.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { boot, type Booted } from './helpers.ts';

let b: Booted;
before(async () => {
  b = await boot();
});
after(async () => {
  await b.stop();
});

test('GET / answers the RootResponse with an endpoint index', async () => {
  const r = await b.kernel.api.inject({ method: 'GET', url: '/' });
  assert.equal(r.statusCode, 200);
  const j = r.json();
  assert.equal(j.service, 'vigil');
  assert.match(j.version, /^\d+\.\d+\.\d+/);
  assert.equal(typeof j.description, 'string');
  assert.equal(j.endpoints.health, 'GET /api/v1/health/');
  assert.equal(j.endpoints.analyze_layer, 'POST /api/v1/analyze/layer/{layer_num}/');
});

test('GET /api/v1/health/ reports real tool, storage and plugin state', async () => {
  const r = await b.kernel.api.inject({ method: 'GET', url: '/api/v1/health/' });
  const j = r.json();
  assert.ok(['healthy', 'degraded', 'unhealthy'].includes(j.status));
  assert.equal(r.statusCode, j.status === 'unhealthy' ? 503 : 200);
  assert.ok(!Number.isNaN(Date.parse(j.timestamp)));
  assert.equal(j.dependencies.storage.status, 'ok');
  assert.equal(j.dependencies.storage.kind, 'sqlite');
  assert.ok(Array.isArray(j.dependencies.solc.versions) && j.dependencies.solc.versions.length > 0);
  const failed = b.kernel.registry.plugins().filter((p) => p.status === 'error');
  assert.equal(j.dependencies.plugins.failed.length, failed.length);
  if (failed.length) assert.notEqual(j.status, 'healthy');
  // External analyzers are not installed here: listed, not available, with the reason.
  for (const [name, t] of Object.entries<any>(j.tools)) {
    if (!t.builtin && !t.available) assert.equal(t.status, 'not_available', name);
  }
});

test('health turns unhealthy (503) when storage and engine are gone, and says why', async () => {
  const other = await boot();
  try {
    // Close the store under the running kernel: the ping must fail, not be assumed.
    await other.kernel.store.close();
    const r = await other.kernel.api.inject({ method: 'GET', url: '/api/v1/health/' });
    const j = r.json();
    assert.equal(j.dependencies.storage.status, 'error');
    assert.notEqual(j.status, 'healthy');
    assert.ok(j.dependencies.reasons.some((x: string) => /storage/.test(x)));
    other.kernel.registry.services.delete('analysis');
    const r2 = await other.kernel.api.inject({ method: 'GET', url: '/api/v1/health/' });
    assert.equal(r2.statusCode, 503);
    assert.equal(r2.json().status, 'unhealthy');
    assert.equal(r2.json().dependencies.analysis_engine.status, 'error');
    const a = await other.kernel.api.inject({ method: 'POST', url: '/api/v1/analyze/quick/', payload: { contract_code: 'contract A {}' } });
    assert.equal(a.statusCode, 503);
    assert.equal(a.json().code, 'unavailable');
  } finally {
    await other.stop();
  }
});

test('GET /api/v1/tools/ lists every tool with availability; one tool by name; 404 tool_not_found', async () => {
  const r = await b.kernel.api.inject({ method: 'GET', url: '/api/v1/tools/' });
  assert.equal(r.statusCode, 200);
  const j = r.json();
  assert.ok(j.tools.length > 0);
  assert.equal(j.total, j.tools.length);
  assert.equal(j.available, j.tools.filter((t: any) => t.available).length);
  const builtin = j.tools.find((t: any) => t.builtin && t.available);
  assert.ok(builtin, 'at least one built-in tool is available');
  const external = j.tools.find((t: any) => !t.builtin && !t.available);
  if (external) assert.ok(external.reason || external.install_hint);
  const one = await b.kernel.api.inject({ method: 'GET', url: `/api/v1/tools/${builtin.name}/` });
  assert.equal(one.statusCode, 200);
  assert.equal(one.json().name, builtin.name);
  const missing = await b.kernel.api.inject({ method: 'GET', url: '/api/v1/tools/no-such-tool/' });
  assert.equal(missing.statusCode, 404);
  assert.equal(missing.json().code, 'tool_not_found');
  assert.match(missing.json().error, /no-such-tool/);
});

test('GET /api/v1/layers/ lists the nine layers by name', async () => {
  const r = await b.kernel.api.inject({ method: 'GET', url: '/api/v1/layers/' });
  assert.equal(r.statusCode, 200);
  const { layers } = r.json();
  assert.deepEqual(
    layers.slice(0, 9).map((l: any) => l.layer),
    [1, 2, 3, 4, 5, 6, 7, 8, 9],
  );
  assert.equal(layers[0].name, 'Static Analysis');
  assert.equal(layers[8].name, 'Correlation & Ensemble');
  assert.ok(layers[0].tools.length > 0);
});

test('unknown routes are 404 JSON, never HTML; a missing trailing slash still answers', async () => {
  for (const url of ['/nope', '/api/v1/nothing']) {
    const r = await b.kernel.api.inject({ method: 'GET', url });
    assert.equal(r.statusCode, 404);
    assert.match(String(r.headers['content-type']), /application\/json/);
    assert.equal(r.json().code, 'not_found');
  }
  // Issue 15: "/api/v1/health" without the slash was a bare 404 for a newcomer.
  for (const url of ['/api/v1/health', '/api/v1/tools'])
    assert.equal((await b.kernel.api.inject({ method: 'GET', url })).statusCode, 200, url);
});

test('the OpenAPI document describes every endpoint of the spec', async () => {
  const r = await b.kernel.api.inject({ method: 'GET', url: '/openapi.json' });
  const paths = Object.keys(r.json().paths);
  for (const p of [
    '/',
    '/api/v1/health/',
    '/api/v1/tools/',
    '/api/v1/tools/{tool_name}/',
    '/api/v1/layers/',
    '/api/v1/analyze/quick/',
    '/api/v1/analyze/full/',
    '/api/v1/analyze/layer/{layer_num}/',
    '/api/v1/analyze/tool/{tool_name}/',
    '/api/v1/remediate/',
    '/api/v1/validate-remediation/',
    '/api/v1/reports/',
    '/api/v1/reports/{report_id}/',
  ]) {
    assert.ok(paths.includes(p), `${p} missing from ${paths.join(', ')}`);
  }
  const body = r.json().paths['/api/v1/analyze/quick/'].post.requestBody.content['application/json'].schema;
  assert.equal(body.properties.timeout.maximum, 3600);
  assert.deepEqual(body.properties.format.enum ?? body.properties.format.anyOf?.map((x: any) => x.enum?.[0] ?? x.const), ['json', 'sarif']);
});
