// Compliance modules: GDPR subject access/export/erasure, retention purge and PII scan;
// ISO 27001 evidence; ISO 42001 risk register, models and oversight; DPGA registers; the
// status of every module in the readiness report.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { boot, type Booted } from './helpers.ts';

let b: Booted;
let acme: string;
let beta: string;
before(async () => {
  b = await boot({
    overrides: { approvals: { capabilities: ['shell_exec'], ttl_seconds: 60 }, compliance: { gdpr: { retention_days: 30 } } },
  });
  acme = await b.addTenant('acme');
  beta = await b.addTenant('beta');
  const store = b.kernel.store;
  // Alice's conversations: one tagged with her subject id, one where she only gave her e-mail.
  await store.createSession({ id: 'alice-1', tenant: 'acme', subject: 'user-alice' });
  await store.appendMessages('alice-1', [{ role: 'user', content: 'remind me about the audit', data: null }]);
  await store.createSession({ id: 'alice-2', tenant: 'acme' });
  await store.appendMessages('alice-2', [{ role: 'user', content: 'Please mail the report to Alice@Example.com.', data: null }]);
  // Not Alice: a longer address that contains hers, and beta's session with the same subject id.
  await store.createSession({ id: 'bob-1', tenant: 'acme' });
  await store.appendMessages('bob-1', [{ role: 'user', content: 'send it to malice@example.com and call 555-0100', data: null }]);
  await store.createSession({ id: 'beta-alice', tenant: 'beta', subject: 'user-alice' });
  await store.appendMessages('beta-alice', [{ role: 'user', content: 'beta data', data: null }]);
  await store.appendAudit({ tenant: 'acme', type: 'agent.turn', outcome: 'success', session_id: 'alice-1', detail: { note: 'turn' } });
  await store.appendAudit({ tenant: 'acme', type: 'agent.turn', outcome: 'success', session_id: 'bob-1', detail: { note: 'bob turn' } });
});
after(() => b.stop());

const aliceUrl = '/api/v1/compliance/gdpr/subjects/user-alice?email=alice@example.com';

test("GDPR access finds the subject by id and by e-mail, only in the caller's tenant", async () => {
  const r = await b.req('GET', aliceUrl, { key: acme });
  assert.equal(r.status, 200, r.body);
  const byId = Object.fromEntries(r.json.sessions.map((s: any) => [s.id, s.matched_by]));
  assert.deepEqual(Object.keys(byId).sort(), ['alice-1', 'alice-2']);
  assert.deepEqual(byId['alice-1'], ['subject']);
  assert.deepEqual(byId['alice-2'], ['email']);
  assert.equal(r.json.audit_events, 1);
  const beta1 = await b.req('GET', aliceUrl, { key: beta });
  assert.deepEqual(
    beta1.json.sessions.map((s: any) => s.id),
    ['beta-alice'],
  );
});

test('GDPR export returns the full conversations as JSON', async () => {
  const r = await b.req('GET', aliceUrl.replace('?', '/export?'), { key: acme });
  assert.equal(r.status, 200);
  assert.match(String(r.headers['content-disposition']), /attachment/);
  const contents = r.json.sessions.flatMap((s: any) => s.messages.map((m: any) => m.content));
  assert.ok(contents.includes('Please mail the report to Alice@Example.com.'));
  assert.equal(r.json.audit_events[0].session_id, 'alice-1');
});

test("GDPR erasure deletes the subject's sessions, redacts their audit entries, leaves others", async () => {
  const r = await b.req('DELETE', aliceUrl, { key: acme });
  assert.equal(r.status, 200, r.body);
  assert.equal(r.json.sessions_deleted, 2);
  assert.ok(r.json.audit_events_redacted >= 1);
  assert.match(r.json.subject_sha256, /^[a-f0-9]{64}$/);
  const store = b.kernel.store;
  assert.equal(await store.getSession('alice-1', 'acme'), null);
  assert.equal((await store.getMessages('alice-2')).length, 0);
  assert.ok(await store.getSession('bob-1', 'acme'), "a longer address containing hers is someone else's");
  assert.ok(await store.getSession('beta-alice', 'beta'), "another tenant's data is untouched");
  const events = await store.queryAudit({ tenant: 'acme', type: 'agent.turn', limit: 100 });
  assert.deepEqual(events.find((e) => e.session_id === 'alice-1')!.detail.redacted, true);
  assert.equal(events.find((e) => e.session_id === 'bob-1')!.detail.note, 'bob turn');
  // Neither the receipt nor the audit trail of the erasure holds the subject in clear.
  const all = JSON.stringify(await store.queryAudit({ tenant: 'acme', limit: 10_000 }));
  assert.ok(!all.includes('user-alice') && !all.toLowerCase().includes('alice@example.com'), 'the subject is not left in the audit log');
  const receipts = await b.req('GET', '/api/v1/compliance/gdpr/requests', { key: acme });
  assert.equal(receipts.json.requests.length, 1);
  assert.equal((await b.req('GET', aliceUrl, { key: acme })).json.sessions.length, 0);
});

test('GDPR retention purge removes sessions idle past the policy', async () => {
  const store = b.kernel.store;
  await store.createSession({ id: 'old-1', tenant: 'acme' });
  // Age the session past the 30-day policy the way time would.
  const db = (store as any).db;
  db.prepare('UPDATE sessions SET updated_at = ? WHERE id = ?').run(new Date(Date.now() - 40 * 86_400_000).toISOString(), 'old-1');
  const r = await b.req('POST', '/api/v1/compliance/gdpr/retention/run', { key: acme });
  assert.equal(r.status, 200, r.body);
  assert.equal(r.json.purged, 1);
  assert.equal(await store.getSession('old-1', 'acme'), null);
  assert.ok(await store.getSession('bob-1', 'acme'), 'recent sessions stay');
  const pol = await b.req('GET', '/api/v1/compliance/gdpr/retention', { key: acme });
  assert.equal(pol.json.retention_days, 30);
  assert.equal(pol.json.last_run.purged, 1);
});

test('GDPR PII scan reports kinds and counts of personal data, never the values', async () => {
  const r = await b.req('POST', '/api/v1/compliance/gdpr/pii-scan', { key: acme });
  if (!b.kernel.registry.guardrails().some((g) => g.name === 'pii')) {
    assert.equal(r.status, 503);
    return;
  }
  assert.equal(r.status, 200, r.body);
  assert.ok(r.json.messages_with_pii >= 1);
  const s = r.json.sessions.find((x: any) => x.session_id === 'bob-1');
  assert.ok(s, JSON.stringify(r.json));
  assert.ok(!r.body.includes('malice@example.com'));
});

test('ISO 27001: access-control evidence, incident log, asset registry', async () => {
  await b.req('GET', '/api/v1/audit/events?from=nonsense', { key: acme }); // a failure incident
  const ac = await b.req('GET', '/api/v1/compliance/iso27001/access-control', { key: acme });
  assert.equal(ac.status, 200);
  assert.equal(ac.json.tenant.name, 'acme');
  assert.equal(ac.json.tenants_total, 2);
  assert.ok(!ac.body.includes('"beta"'), "other tenants' names are not shown");
  assert.ok(ac.json.key_events.some((e: any) => e.type === 'tenant.created'));
  const inc = await b.req('GET', '/api/v1/compliance/iso27001/incidents', { key: acme });
  assert.equal(inc.status, 200);
  assert.ok(inc.json.incidents.some((i: any) => i.outcome === 'failure' && /400/.test(i.summary)));
  assert.ok(inc.json.incidents.every((i: any) => i.outcome !== 'success'));
  assert.equal((await b.req('GET', '/api/v1/compliance/iso27001/incidents?from=bad', { key: acme })).status, 400);
  const assets = await b.req('GET', '/api/v1/compliance/iso27001/assets', { key: acme });
  assert.ok(assets.json.skills.some((s: any) => s.name === 'crypto' && s.capabilities.includes('crypto')));
  assert.ok(assets.json.models.some((m: any) => m.provider === 'demo' && m.plugin === 'llm-demo'));
  assert.ok(assets.json.plugins.some((p: any) => p.id === 'gateway-tenancy' && p.status === 'loaded'));
});

test('ISO 42001: risk register CRUD with derived score, model inventory, oversight', async () => {
  const base = '/api/v1/compliance/iso42001/risks';
  const bad = await b.req('POST', base, {
    key: acme,
    body: { title: 'x', category: 'bias', likelihood: 9, impact: 1, owner: 'o', status: 'open' },
  });
  assert.equal(bad.status, 400);
  const c = await b.req('POST', base, {
    key: acme,
    body: { title: 'Prompt injection via web pages', category: 'security', likelihood: 4, impact: 5, owner: 'secops', status: 'open' },
  });
  assert.equal(c.status, 201, c.body);
  assert.equal(c.json.score, 20);
  assert.equal(c.json.level, 'critical');
  let st = await b.req('GET', '/api/v1/compliance/iso42001/status', { key: acme });
  assert.equal(st.json.status, 'attention', 'an open critical risk without mitigation needs attention');
  const u = await b.req('PUT', `${base}/${c.json.id}`, {
    key: acme,
    body: {
      title: 'Prompt injection via web pages',
      category: 'security',
      likelihood: 2,
      impact: 5,
      owner: 'secops',
      status: 'mitigating',
      mitigation: 'injection guardrail in block mode',
    },
  });
  assert.equal(u.json.score, 10);
  assert.equal(u.json.level, 'medium');
  st = await b.req('GET', '/api/v1/compliance/iso42001/status', { key: acme });
  assert.equal(st.json.status, 'active');
  assert.equal((await b.req('GET', `${base}/${c.json.id}`, { key: beta })).status, 404);
  assert.equal((await b.req('GET', base, { key: acme })).json.items.length, 1);
  const models = await b.req('GET', '/api/v1/compliance/iso42001/models', { key: acme });
  assert.ok(models.json.models.some((m: any) => m.provider === 'demo' && m.version));
  const ov = await b.req('GET', '/api/v1/compliance/iso42001/oversight', { key: acme });
  assert.deepEqual(ov.json.policy.capabilities, ['shell_exec']);
  assert.equal(ov.json.stats.pending, 0);
  assert.equal((await b.req('DELETE', `${base}/${c.json.id}`, { key: acme })).status, 204);
  assert.equal((await b.req('DELETE', `${base}/${c.json.id}`, { key: acme })).status, 404);
});

test('DPGA: agreements and transfer assessments, expiry and overdue reviews flagged', async () => {
  let st = await b.req('GET', '/api/v1/compliance/dpga/status', { key: acme });
  assert.equal(st.json.status, 'available');
  const dpa = await b.req('POST', '/api/v1/compliance/dpga/agreements', {
    key: acme,
    body: {
      processor: 'LLM Provider Inc',
      controller: 'Acme',
      purpose: 'chat completions',
      data_categories: ['prompts'],
      signed_at: '2024-01-01',
      expires_at: '2099-01-01',
      status: 'active',
    },
  });
  assert.equal(dpa.status, 201, dpa.body);
  assert.equal(dpa.json.expired, false);
  st = await b.req('GET', '/api/v1/compliance/dpga/status', { key: acme });
  assert.equal(st.json.status, 'active');
  const backwards = await b.req('POST', '/api/v1/compliance/dpga/agreements', {
    key: acme,
    body: {
      processor: 'p',
      controller: 'c',
      purpose: 'x',
      data_categories: [],
      signed_at: '2024-05-01',
      expires_at: '2024-01-01',
      status: 'active',
    },
  });
  assert.equal(backwards.status, 400);
  const tia = await b.req('POST', '/api/v1/compliance/dpga/transfers', {
    key: acme,
    body: {
      recipient: 'LLM Provider Inc',
      destination_country: 'US',
      mechanism: 'standard_contractual_clauses',
      data_categories: ['prompts'],
      risk_level: 'medium',
      assessed_at: '2023-01-01',
      next_review_at: '2024-01-01',
      status: 'active',
      agreement_id: dpa.json.id,
    },
  });
  assert.equal(tia.status, 201, tia.body);
  assert.equal(tia.json.review_overdue, true);
  st = await b.req('GET', '/api/v1/compliance/dpga/status', { key: acme });
  assert.equal(st.json.status, 'attention');
  assert.ok(st.json.next_actions.some((a: string) => /review date/.test(a)));
  assert.equal(
    (
      await b.req('POST', '/api/v1/compliance/dpga/transfers', {
        key: acme,
        body: {
          recipient: 'x',
          destination_country: 'usa',
          mechanism: 'other',
          data_categories: [],
          risk_level: 'low',
          assessed_at: '2024-01-01',
          status: 'active',
        },
      })
    ).status,
    400,
  );
  const closed = await b.req('PUT', `/api/v1/compliance/dpga/transfers/${tia.json.id}`, {
    key: acme,
    body: { ...tia.json, id: undefined, updated_at: undefined, review_overdue: undefined, status: 'closed' },
  });
  assert.equal(closed.status, 200, closed.body);
  st = await b.req('GET', '/api/v1/compliance/dpga/status', { key: acme });
  assert.equal(st.json.status, 'active');
});

test('every compliance module and governance check appears in the readiness report', async () => {
  const r = await b.req('GET', '/api/v1/enterprise/readiness', { key: acme });
  assert.equal(r.status, 200);
  const ids = new Map(r.json.checks.map((c: any) => [c.id, c.status]));
  for (const id of [
    'compliance_gdpr',
    'compliance_iso27001',
    'compliance_iso42001',
    'compliance_dpga',
    'tenancy',
    'rate_limits',
    'token_quota',
    'session_cap',
    'guardrail_modes',
    'approvals',
    'audit_log',
    'tracing',
    'metrics',
  ]) {
    assert.ok(ids.has(id), `readiness has ${id}`);
  }
  assert.equal(ids.get('tenancy'), 'active');
  assert.equal(ids.get('approvals'), 'active');
  assert.equal(ids.get('rate_limits'), 'available');
  assert.equal(ids.get('compliance_gdpr'), b.kernel.registry.guardrails().some((g) => g.name === 'pii') ? 'active' : 'attention');
  assert.ok(r.json.next_actions.some((a: string) => /rate-limit-per-key/.test(a)));
});
