// The analysis API behind keys (issue 14 item 5, first half) and floods before authentication
// (item 9): once a tenant exists :8000 takes the gateway's keys (permission contract_analysis),
// health and the root stay open, `--api-open` keeps it keyless on purpose and readiness says
// which mode is in force. Keyless and bad-key requests are limited per client address (429 with
// Retry-After) and audited as one row per address and minute, not one row each.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AuditSink } from '../../lib/gateway/contracts.ts';
import { addKey, addTenant, cli, http, serve, type Server } from './edge-helpers.ts';

const SRC = 'pragma solidity ^0.8.0; contract A { function f() public { selfdestruct(payable(msg.sender)); } }';
let s: Server;
let analyst: string;
let chatOnly: string;
before(async () => {
  s = await serve({ config: { anonymous_rate_limit: '30/min' } });
  analyst = await addTenant(s.kernel, 'carol', ['contract_analysis', 'crypto']);
  chatOnly = await addTenant(s.kernel, 'alice', ['file_read', 'crypto']);
});
after(() => s.stop());

test('with a tenant, the analysis API needs a key with contract_analysis; health and root stay open', async () => {
  const none = await http(s.api, 'POST', '/api/v1/analyze/quick/', { body: { contract_code: SRC } });
  assert.equal(none.status, 401, none.text);
  assert.equal(none.json.code, 'unauthorized');
  assert.equal(none.headers.get('www-authenticate'), 'Bearer realm="vigil"');
  // The reproduction: remediate read any text file for anyone.
  assert.equal((await http(s.api, 'POST', '/api/v1/remediate/', { body: { contract_path: '.env' } })).status, 401);
  assert.equal((await http(s.api, 'GET', '/api/v1/reports/')).status, 401);
  const wrong = await http(s.api, 'POST', '/api/v1/analyze/quick/', {
    key: 'vgl_not_a_key_not_a_key_not_a_key_00000',
    body: { contract_code: SRC },
  });
  assert.equal(wrong.status, 401);
  const forbidden = await http(s.api, 'POST', '/api/v1/analyze/quick/', { key: chatOnly, body: { contract_code: SRC } });
  assert.equal(forbidden.status, 403, forbidden.text);
  assert.match(forbidden.json.error, /lacks the permission contract_analysis/);
  // Authenticated calls go through (cheap routes: this test is about the door, not analysis).
  const ok = await http(s.api, 'POST', '/api/v1/reports/', {
    headers: { 'x-api-key': analyst },
    body: { kind: 'note', note: 'reviewed by hand' },
  });
  assert.equal(ok.status, 201, ok.text);
  assert.equal((await http(s.api, 'GET', '/api/v1/tools/', { key: analyst })).status, 200);
  for (const open of ['/api/v1/health/', '/api/v1/health', '/openapi.json'])
    assert.equal((await http(s.api, 'GET', open)).status, 200, open);
});

test('keyless and bad-key requests are limited per address before authentication; valid keys still pass', async () => {
  const fresh = await serve({ config: { anonymous_rate_limit: '5/min' } });
  try {
    const key = await addTenant(fresh.kernel, 'bob', ['crypto']);
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof http>> | null = null;
    for (let i = 0; i < 12; i++) {
      last = await http(fresh.gateway, 'GET', '/api/v1/sessions', { key: `vgl_guess_${i}_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx` });
      statuses.push(last.status);
    }
    assert.deepEqual(statuses, [401, 401, 401, 401, 401, 429, 429, 429, 429, 429, 429, 429]);
    assert.equal(last!.json.code, 'rate_limited');
    assert.ok(Number(last!.headers.get('retry-after')) >= 1, 'Retry-After is set');
    // The limit covers the analysis API too (same address), and keyless requests.
    assert.equal((await http(fresh.api, 'POST', '/api/v1/analyze/quick/', { body: { contract_code: SRC } })).status, 429);
    // A valid key from the same address is not the flood.
    assert.equal((await http(fresh.gateway, 'GET', '/api/v1/sessions', { key })).status, 200);

    // Audit: no row per failure; one auth.failure row per address and minute with the count.
    const audit = fresh.kernel.services.get<AuditSink & { flushAuthFailures(all?: boolean): Promise<void> }>('audit')!;
    await audit.flushAuthFailures(true);
    const perRequest = await fresh.kernel.store.queryAudit({ tenant: null, type: 'http.request', limit: 1000 });
    assert.equal(perRequest.filter((e) => [401, 429].includes((e.detail as any).status)).length, 0);
    const agg = await fresh.kernel.store.queryAudit({ tenant: null, type: 'auth.failure', limit: 1000 });
    const gw = agg.filter((e) => (e.detail as any).surface === 'gateway');
    assert.equal(gw.length, 1, JSON.stringify(agg));
    assert.equal((gw[0].detail as any).count, 12);
    assert.deepEqual((gw[0].detail as any).statuses, { 401: 5, 429: 7 });
    assert.equal((gw[0].detail as any).ip, '127.0.0.1');
    assert.ok(
      agg.some((e) => (e.detail as any).surface === 'api'),
      "the analysis API's failures are aggregated too",
    );
    // The operator exports them like any other local event.
    await fresh.stop();
    const exp = await cli(['audit', 'export', '--local', '--type', 'auth.failure', '--data-dir', fresh.dataDir]);
    assert.equal(exp.code, 0, exp.err);
    assert.match(exp.out, /"count":12/);
  } finally {
    await fresh.stop();
  }
});

test('readiness names the analysis API mode: keyed, open by --api-open, local', async () => {
  const mode = async (srv: Server, key?: string) => {
    const r = await http(srv.gateway, 'GET', '/api/v1/enterprise/readiness', { key });
    const all = JSON.stringify(r.json);
    return { r, all };
  };
  const keyed = await mode(s, analyst);
  assert.match(keyed.all, /"analysis_api_auth"/);
  assert.match(keyed.all, /keyed: the analysis API/);
  assert.match(keyed.all, /host_allowlist/);

  const open = await serve({ config: { api_open: true } });
  try {
    const k = await addTenant(open.kernel, 'dave', ['contract_analysis']);
    assert.equal(
      (await http(open.api, 'POST', '/api/v1/reports/', { body: { kind: 'note', note: 'reviewed by hand' } })).status,
      201,
      'keyless on purpose',
    );
    assert.equal(
      (
        await http(open.api, 'POST', '/api/v1/reports/', {
          key: 'vgl_wrong_wrong_wrong_wrong_wrong_wrong_00',
          body: { kind: 'note', note: 'reviewed by hand' },
        })
      ).status,
      401,
      'a wrong key is still an error',
    );
    assert.match((await mode(open, k)).all, /open by --api-open/);
  } finally {
    await open.stop();
  }
  const local = await serve();
  try {
    assert.equal((await http(local.api, 'POST', '/api/v1/reports/', { body: { kind: 'note', note: 'reviewed by hand' } })).status, 201);
    assert.match((await mode(local)).all, /local single-tenant/);
  } finally {
    await local.stop();
  }
});

test('an approver-only key (approvals_decide) runs no skill and no analysis', async () => {
  const approver = await addKey(s.kernel, 'carol', 'approver', ['approvals_decide']);
  assert.equal((await http(s.api, 'POST', '/api/v1/analyze/quick/', { key: approver, body: { contract_code: SRC } })).status, 403);
  const keys = await cli(['tenants', 'keys', 'carol', '--data-dir', s.dataDir]);
  assert.equal(keys.code, 0, keys.err);
  assert.deepEqual(
    JSON.parse(keys.out).keys.map((k: any) => k.label),
    ['primary', 'approver'],
  );
  assert.ok(!keys.out.includes(approver), 'keys are never printed again');
  const me = await http(s.gateway, 'GET', '/api/v1/tenants/me', { key: approver });
  assert.equal(me.json.tenant, 'carol');
  assert.equal(me.json.key, 'carol/approver');
  assert.deepEqual(me.json.permissions, ['approvals_decide']);
});
