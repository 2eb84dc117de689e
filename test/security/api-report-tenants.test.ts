// Issue 14 item 5: reports made by a tenant through MCP were listed and readable by anyone on
// :8000. Reports and audits now belong to the tenant that made them: another tenant's id
// answers 404 (exactly like a missing one), listings show only the caller's, and reports
// written before owners existed (owner NULL) stay local — no tenant sees them.
// Two tenants, end to end on a listening server: REST with keys over HTTP, MCP through the SDK.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { listen, type Listening } from '../mcp/helpers.ts';

let s: Listening;
let api: string;
let alice: string;
let bob: string;

before(async () => {
  s = await listen();
  api = `http://127.0.0.1:${(s.kernel.api.server.address() as AddressInfo).port}`;
  alice = await s.addTenant('alice', ['contract_analysis', 'file_read']);
  bob = await s.addTenant('bob', ['contract_analysis', 'file_read']);
});
after(() => s.close());

async function call(method: string, url: string, key?: string, body?: unknown) {
  const headers: Record<string, string> = {};
  if (key) headers.authorization = `Bearer ${key}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const r = await fetch(api + url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: r.status, json, text };
}

const ids = (list: any) => (list.reports as Array<{ report_id: string }>).map((r) => r.report_id);

test('a report POSTed with a key belongs to that tenant: the other tenant gets 404 and does not list it', async () => {
  const a = await call('POST', '/api/v1/reports/', alice, { project: 'alice-private', note: 'only alice' });
  const b = await call('POST', '/api/v1/reports/', bob, { project: 'bob-private' });
  assert.equal(a.status, 201, a.text);
  assert.equal(b.status, 201, b.text);
  const aid = a.json.report_id;
  const bid = b.json.report_id;

  assert.equal((await call('GET', `/api/v1/reports/${aid}/`, alice)).status, 200);
  for (const format of ['json', 'html', 'markdown', 'sarif']) {
    const r = await call('GET', `/api/v1/reports/${aid}/?format=${format}`, bob);
    assert.equal(r.status, 404, `${format}: ${r.text}`);
    assert.equal(r.json.code, 'report_not_found');
    assert.ok(!r.text.includes('alice-private'));
  }
  const la = await call('GET', '/api/v1/reports/?limit=100', alice);
  const lb = await call('GET', '/api/v1/reports/?limit=100', bob);
  assert.ok(ids(la.json).includes(aid) && !ids(la.json).includes(bid));
  assert.ok(ids(lb.json).includes(bid) && !ids(lb.json).includes(aid));
  assert.equal(la.json.total, ids(la.json).length, "the total counts only the caller's reports");

  // Keyless, with tenants configured: refused outright (authentication) or shown nothing owned.
  const anon = await call('GET', `/api/v1/reports/${aid}/`);
  assert.ok([401, 404].includes(anon.status), anon.text);
  const anonList = await call('GET', '/api/v1/reports/?limit=100');
  if (anonList.status === 200) assert.ok(!ids(anonList.json).includes(aid) && !ids(anonList.json).includes(bid));
  else assert.equal(anonList.status, 401);
});

test("a full audit made through MCP is stored under the caller's tenant and only it reads it on :8000", async () => {
  const c = await s.connect(alice);
  const r: any = await c.callTool({
    name: 'analyze_contract',
    arguments: {
      contract_code: 'pragma solidity 0.8.30;\ncontract T { uint x; function set(uint v) external { x = v; } }\n',
      mode: 'full',
      timeout: 60,
    },
  });
  assert.notEqual(r.isError, true, JSON.stringify(r).slice(0, 500));
  const auditId = r.structuredContent.audit_id as string;
  assert.equal(r.structuredContent.report_url, `/api/v1/reports/${auditId}/`);
  assert.equal((await call('GET', `/api/v1/reports/${auditId}/`, alice)).status, 200);
  assert.equal((await call('GET', `/api/v1/reports/${auditId}/?format=html`, alice)).status, 200);
  const asBob = await call('GET', `/api/v1/reports/${auditId}/`, bob);
  assert.equal(asBob.status, 404, asBob.text);
  assert.ok(!ids((await call('GET', '/api/v1/reports/?limit=100', bob)).json).includes(auditId));
  assert.ok(ids((await call('GET', '/api/v1/reports/?limit=100', alice)).json).includes(auditId));
  const stored = await s.kernel.store.getReport(auditId);
  assert.equal(stored?.tenant, 'alice');
});

test('rows without an owner (written before owners existed) are local: no tenant reads or lists them', async () => {
  const legacy = await s.kernel.store.putReport({ kind: 'submitted', data: { legacy: true } });
  assert.equal(legacy.tenant, null);
  assert.equal((await call('GET', `/api/v1/reports/${legacy.id}/`, alice)).status, 404);
  assert.ok(!ids((await call('GET', '/api/v1/reports/?limit=100', alice)).json).includes(legacy.id));
  assert.equal((await s.kernel.store.getReport(legacy.id, null))?.id, legacy.id);
  assert.equal(await s.kernel.store.getReport(legacy.id, 'alice'), null);
});

test('without the tenancy plugin, tenants in the store still keep keyless callers away from owned reports', async () => {
  const t = await listen({ disable: ['gateway-tenancy'] });
  try {
    const base = `http://127.0.0.1:${(t.kernel.api.server.address() as AddressInfo).port}`;
    await t.addTenant('alice', ['contract_analysis']);
    const owned = await t.kernel.store.putReport({ kind: 'submitted', tenant: 'alice', data: { secret: 'alice-only' } });
    const mine = await t.kernel.store.putReport({ kind: 'submitted', data: { open: true } });
    const one = await fetch(`${base}/api/v1/reports/${owned.id}/`);
    assert.ok([401, 404].includes(one.status));
    const list = await fetch(`${base}/api/v1/reports/?limit=100`);
    if (list.status === 200) {
      const got = (await list.json()).reports.map((r: any) => r.report_id);
      assert.ok(!got.includes(owned.id) && got.includes(mine.id), JSON.stringify(got));
    }
  } finally {
    await t.close();
  }
});
