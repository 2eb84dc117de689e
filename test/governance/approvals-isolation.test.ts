// Approval gates end to end (gated skill -> pending -> approve/deny/expire -> the paused turn
// resumes) and tenant isolation of sessions, approvals and audit events.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { ApprovalGate } from '../../lib/gateway/contracts.ts';
import { boot, type Booted } from './helpers.ts';

const HASH = '/skill crypto {"op":"keccak256","data":"hello"}';
let b: Booted;
let acme: string;
let acmeApprover: string;
let beta: string;
before(async () => {
  b = await boot({
    overrides: {
      approvals: { skills: ['crypto'], ttl_seconds: 4 },
      plugins: { 'gateway-approvals': { sweep_interval_ms: 200, poll_interval_ms: 100 } },
    },
  });
  acme = await b.addTenant('acme');
  // Separation of duties: acme's agent key asks, acme's approver key decides.
  acmeApprover = await b.addKey('acme', 'approver', ['approvals_decide']);
  beta = await b.addTenant('beta');
});
after(() => b.stop());

async function gatedTurn(key: string) {
  const r = await b.req('POST', '/api/v1/agent/chat', { key, body: { message: HASH } });
  assert.equal(r.status, 200, r.body);
  assert.ok(r.json.pending_approval, `the gated skill is held for approval: ${r.body}`);
  return r.json as { session_id: string; pending_approval: { approval_id: string } };
}

async function until<T>(fn: () => Promise<T | null | undefined>, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('approve: the decision is stored, audited, and the paused turn runs the skill', async () => {
  // The TTL (4 s) has to cover a decision made right after the turn pauses, even on a loaded
  // CI machine, and stay short enough for the expiry test below to wait it out.
  const t = await gatedTurn(acme);
  const id = t.pending_approval.approval_id;
  const list = await b.req('GET', '/api/v1/approvals?status=pending', { key: acme });
  assert.ok(list.json.approvals.some((a: any) => a.id === id));
  const self = await b.req('POST', `/api/v1/approvals/${id}`, { key: acme, body: { decision: 'approve' } });
  assert.equal(self.status, 403, 'the requesting key never decides its own approval');
  const d = await b.req('POST', `/api/v1/approvals/${id}`, {
    key: acmeApprover,
    body: { decision: 'approve', reason: 'looks fine', decided_by: 'alice' },
  });
  assert.equal(d.status, 200, d.body);
  assert.equal(d.json.status, 'approved');
  assert.equal(d.json.data.decided_by, 'acme/approver (alice)');
  const again = await b.req('POST', `/api/v1/approvals/${id}`, { key: acmeApprover, body: { decision: 'deny' } });
  assert.equal(again.status, 409);
  assert.equal(again.json.code, 'conflict');
  const session = await until(async () => {
    const s = await b.req('GET', `/api/v1/sessions/${t.session_id}`, { key: acme });
    return s.json.messages?.some((m: any) => m.role === 'tool' && /0x1c8aff95/.test(m.content ?? '')) ? s : null;
  });
  assert.equal(session.status, 200);
  const ev = await b.req('GET', '/api/v1/audit/events?type=approval.decision', { key: acme });
  assert.equal(ev.json.events.at(-1).detail.approval_id, id);
  assert.equal(ev.json.events.at(-1).outcome, 'success');
});

test('deny: the skill never runs and the model is told', async () => {
  const t = await gatedTurn(acme);
  const id = t.pending_approval.approval_id;
  const d = await b.req('POST', `/api/v1/approvals/${id}`, { key: acmeApprover, body: { decision: 'deny', reason: 'not now' } });
  assert.equal(d.json.status, 'denied');
  const s = await until(async () => {
    const r = await b.req('GET', `/api/v1/sessions/${t.session_id}`, { key: acme });
    return r.json.messages?.some((m: any) => m.role === 'tool') ? r : null;
  });
  const tool = s.json.messages.find((m: any) => m.role === 'tool');
  assert.doesNotMatch(tool.content, /0x1c8aff95/);
  assert.match(tool.content, /denied/);
});

test('expiry: an undecided approval expires, a late decision is 409, waitFor resolves', async () => {
  const t = await gatedTurn(acme);
  const id = t.pending_approval.approval_id;
  const gate = b.kernel.services.get<ApprovalGate>('approvals')!;
  const waited = await gate.waitFor(id, 'acme');
  assert.equal(waited.status, 'expired');
  const late = await b.req('POST', `/api/v1/approvals/${id}`, { key: acmeApprover, body: { decision: 'approve' } });
  assert.equal(late.status, 409);
  const one = await b.req('GET', `/api/v1/approvals/${id}`, { key: acme });
  assert.equal(one.json.status, 'expired');
  const ev = await b.req('GET', '/api/v1/audit/events?type=approval.expired', { key: acme });
  assert.ok(ev.json.events.some((e: any) => e.detail.approval_id === id));
});

test('calls outside the policy are not held, bad decisions are 400', async () => {
  const gate = b.kernel.services.get<ApprovalGate>('approvals')!;
  const v = await gate.check({ tenant: 'acme', sessionId: 's', skill: 'files', capabilities: ['file_read'], input: {}, toolCallId: 'c' });
  assert.equal(v.decision, 'allow');
  const t = await gatedTurn(acme);
  const bad = await b.req('POST', `/api/v1/approvals/${t.pending_approval.approval_id}`, {
    key: acmeApprover,
    body: { decision: 'maybe' },
  });
  assert.equal(bad.status, 400);
  assert.equal(bad.json.code, 'invalid_request');
});

test("tenant isolation: another tenant's session, approval and audit event answer 404", async () => {
  const t = await gatedTurn(acme);
  const id = t.pending_approval.approval_id;
  const s = await b.req('GET', `/api/v1/sessions/${t.session_id}`, { key: beta });
  assert.equal(s.status, 404);
  const a = await b.req('GET', `/api/v1/approvals/${id}`, { key: beta });
  assert.equal(a.status, 404);
  assert.equal(a.json.code, 'approval_not_found');
  const decide = await b.req('POST', `/api/v1/approvals/${id}`, { key: beta, body: { decision: 'approve' } });
  assert.equal(decide.status, 404);
  assert.equal((await b.req('GET', '/api/v1/approvals', { key: beta })).json.approvals.length, 0);
  // Still pending for its owner: beta's attempt changed nothing.
  assert.equal((await b.req('GET', `/api/v1/approvals/${id}`, { key: acme })).json.status, 'pending');
  const mine = await b.req('GET', '/api/v1/audit/events?limit=1', { key: acme });
  const eid = mine.json.events[0].id;
  assert.equal((await b.req('GET', `/api/v1/audit/events/${eid}`, { key: acme })).status, 200);
  assert.equal((await b.req('GET', `/api/v1/audit/events/${eid}`, { key: beta })).status, 404);
  const betaEvents = await b.req('GET', '/api/v1/audit/events?limit=1000', { key: beta });
  assert.ok(betaEvents.json.events.every((e: any) => e.tenant === 'beta'));
});
