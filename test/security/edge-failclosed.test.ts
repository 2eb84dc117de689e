// Fail closed (issue 14 item 4): with tenants in the store and a gateway-tenancy config the
// plugin rejects (open_paths as a string), keyless requests were answered 200 and chat ran
// skills. A security plugin that fails to load now closes every route it protects with 503
// naming it; liveness stays up so the operator can see why.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addTenant, serve, tempDir, type Server } from './edge-helpers.ts';

async function broken(plugins: Record<string, unknown>, withTenant = true): Promise<Server> {
  const dataDir = tempDir();
  if (withTenant) {
    const s0 = await serve({ dataDir, listen: false });
    await addTenant(s0.kernel, 'alice', ['crypto', 'contract_analysis']);
    await s0.stop();
  }
  return serve({ dataDir, listen: false, config: { plugins } });
}

const inject = (s: Server, surface: 'gateway' | 'api', method: string, url: string, payload?: unknown) =>
  s.kernel[surface].inject({ method: method, url, ...(payload !== undefined ? { payload: payload as any } : {}) });

test('tenancy with a malformed config: every protected route on both surfaces answers 503 naming it', async () => {
  const s = await broken({ 'gateway-tenancy': { open_paths: '/dashboard' } });
  try {
    assert.equal(s.kernel.registry.statuses.get('gateway-tenancy')?.status, 'error');
    for (const [surface, method, url, body] of [
      ['gateway', 'GET', '/api/v1/sessions', undefined],
      ['gateway', 'POST', '/api/v1/agent/chat', { message: '/skill crypto {"op":"sha256","data":"x"}' }],
      ['gateway', 'POST', '/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' }],
      ['gateway', 'GET', '/api/v1/approvals', undefined],
      ['api', 'POST', '/api/v1/analyze/quick/', { contract_code: 'pragma solidity ^0.8.0; contract A {}' }],
      ['api', 'GET', '/api/v1/reports/', undefined],
    ] as const) {
      const r = await inject(s, surface, method, url, body);
      assert.equal(r.statusCode, 503, `${surface} ${method} ${url}: ${r.body}`);
      assert.equal(r.json().code, 'unavailable');
      assert.match(r.json().error, /gateway-tenancy/);
      assert.deepEqual(r.json().details.plugins, ['gateway-tenancy']);
    }
    // Liveness and the pages that show the operator what is wrong stay up.
    assert.equal((await inject(s, 'gateway', 'GET', '/health')).statusCode, 200);
    assert.equal((await inject(s, 'api', 'GET', '/api/v1/health/')).statusCode, 200);
    assert.equal((await inject(s, 'gateway', 'GET', '/dashboard')).statusCode, 200);
  } finally {
    await s.stop();
  }
});

test('also without any tenant: a failed tenancy plugin is not read as single-tenant mode', async () => {
  const s = await broken({ 'gateway-tenancy': { open_paths: '/dashboard' } }, false);
  try {
    assert.equal((await inject(s, 'gateway', 'GET', '/api/v1/sessions')).statusCode, 503);
  } finally {
    await s.stop();
  }
});

test('approvals, audit and a guardrail that fail to load close the routes each protects', async () => {
  const cases: Array<[string, Record<string, unknown>, Array<[string, string]>, Array<[string, string]>]> = [
    // [plugin, bad config, closed routes, still-open routes]
    [
      'gateway-approvals',
      { sweep_interval_ms: 'often' },
      [
        ['POST', '/api/v1/agent/chat'],
        ['POST', '/mcp'],
        ['GET', '/api/v1/approvals'],
      ],
      [['GET', '/api/v1/sessions']],
    ],
    [
      'gateway-audit',
      { skip_paths: '/health' },
      [
        ['GET', '/api/v1/sessions'],
        ['POST', '/api/v1/agent/chat'],
        ['GET', '/api/v1/skills'],
      ],
      [['GET', '/health']],
    ],
    [
      'guardrail-pii',
      { mode: 'sometimes' },
      [
        ['POST', '/api/v1/agent/chat'],
        ['POST', '/api/v1/chat/stream'],
        ['POST', '/mcp'],
      ],
      [['GET', '/api/v1/sessions']],
    ],
  ];
  for (const [plugin, cfg, closed, open] of cases) {
    const s = await broken({ [plugin]: cfg }, false);
    try {
      assert.equal(s.kernel.registry.statuses.get(plugin)?.status, 'error', plugin);
      for (const [m, u] of closed) {
        const r = await inject(s, 'gateway', m, u, m === 'POST' ? { message: 'hi' } : undefined);
        assert.equal(r.statusCode, 503, `${plugin}: ${m} ${u} ${r.body}`);
        assert.match(r.json().error, new RegExp(plugin));
      }
      for (const [m, u] of open) assert.notEqual((await inject(s, 'gateway', m, u)).statusCode, 503, `${plugin}: ${m} ${u}`);
    } finally {
      await s.stop();
    }
  }
});
