// Separation of duties on approvals, on a listening server with two keys of one tenant (issue 14
// item 3: bob's own key approved bob's pending shell call). The requesting key never decides; a
// key with approvals_decide does; the operator's CLI decides against the store of a running or a
// stopped server; the audit log names who decided.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { addKey, addTenant, cli, http, serve, until, type Server } from './edge-helpers.ts';

const GATED = '/skill crypto {"op":"keccak256","data":"hello"}';
const RESULT = /0x1c8aff95/;
let s: Server;
let bob: string;
let approver: string;
let alice: string;

const config = {
  approvals: { skills: ['crypto'], ttl_seconds: 600 },
  plugins: { 'gateway-approvals': { sweep_interval_ms: 200, poll_interval_ms: 100 } },
};

before(async () => {
  s = await serve({ side: 'gateway', config });
  bob = await addTenant(s.kernel, 'bob', ['file_read', 'crypto']);
  approver = await addKey(s.kernel, 'bob', 'approver', ['approvals_decide']);
  alice = await addTenant(s.kernel, 'alice', ['crypto', 'approvals_decide']);
});
after(() => s.stop());

async function pendingTurn(base: string, key: string) {
  const r = await http(base, 'POST', '/api/v1/agent/chat', { key, body: { message: GATED } });
  assert.equal(r.status, 200, r.text);
  assert.ok(r.json.pending_approval, r.text);
  return { session: r.json.session_id as string, id: r.json.pending_approval.approval_id as string };
}

const toolResult = (base: string, key: string, session: string) =>
  until(
    async () => {
      const r = await http(base, 'GET', `/api/v1/sessions/${session}`, { key });
      return r.json?.messages?.find((m: any) => m.role === 'tool') ?? null;
    },
    15_000,
    'the resumed turn',
  );

test('the requesting key cannot approve its own call; an approver key of the tenant can', async () => {
  const t = await pendingTurn(s.gateway, bob);
  const self = await http(s.gateway, 'POST', `/api/v1/approvals/${t.id}`, { key: bob, body: { decision: 'approve' } });
  assert.equal(self.status, 403, self.text);
  assert.equal(self.json.code, 'forbidden');
  assert.match(self.json.error, /caused this approval request and cannot decide it/);
  // Another tenant's approver cannot see it at all.
  assert.equal((await http(s.gateway, 'POST', `/api/v1/approvals/${t.id}`, { key: alice, body: { decision: 'approve' } })).status, 404);
  assert.equal(
    (await http(s.gateway, 'GET', `/api/v1/approvals/${t.id}`, { key: bob })).json.status,
    'pending',
    'the refused attempts changed nothing',
  );

  const ok = await http(s.gateway, 'POST', `/api/v1/approvals/${t.id}`, {
    key: approver,
    body: { decision: 'approve', reason: 'reviewed' },
  });
  assert.equal(ok.status, 200, ok.text);
  assert.equal(ok.json.data.decided_by, 'bob/approver');
  assert.match((await toolResult(s.gateway, bob, t.session)).content, RESULT);

  const ev = await http(s.gateway, 'GET', '/api/v1/audit/events?type=approval.decision', { key: bob });
  const e = ev.json.events.find((x: any) => x.detail.approval_id === t.id);
  assert.equal(e.actor, 'bob/approver');
  assert.equal(e.detail.decided_by, 'bob/approver');
  assert.equal(e.detail.requested_by, 'bob/primary');
});

test('a key without approvals_decide cannot decide even what another key requested', async () => {
  const t = await pendingTurn(s.gateway, bob);
  const helper = await addKey(s.kernel, 'bob', 'ci', ['crypto']);
  const r = await http(s.gateway, 'POST', `/api/v1/approvals/${t.id}`, { key: helper, body: { decision: 'deny' } });
  assert.equal(r.status, 403);
  assert.match(r.json.error, /lacks the permission approvals_decide/);
  assert.equal(
    (await http(s.gateway, 'POST', `/api/v1/approvals/${t.id}`, { key: approver, body: { decision: 'deny', reason: 'cleanup' } })).status,
    200,
  );
});

test('the operator CLI approves while the server runs; the waiting stream resumes', async () => {
  const res = await fetch(`${s.gateway}/api/v1/chat/stream`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${bob}` },
    body: JSON.stringify({ message: GATED }),
  });
  assert.equal(res.status, 200);
  const reader = res.body!.getReader();
  let text = '';
  while (!/event: approval_required\ndata: .*\n/.test(text)) text += new TextDecoder().decode((await reader.read()).value);
  const id = JSON.parse(/event: approval_required\ndata: (.*)\n/.exec(text)![1]).approval_id as string;

  const list = await cli(['approvals', 'list', '--data-dir', s.dataDir]);
  assert.equal(list.code, 0, list.err);
  assert.ok(JSON.parse(list.out).approvals.some((a: any) => a.id === id && a.tenant === 'bob'));
  const d = await cli(['approvals', 'approve', id, '--reason', 'ops reviewed', '--by', 'oncall', '--data-dir', s.dataDir]);
  assert.equal(d.code, 0, d.err);
  assert.equal(JSON.parse(d.out).status, 'approved');

  for (;;) {
    const c = await reader.read();
    if (c.done) break;
    text += new TextDecoder().decode(c.value);
  }
  assert.match(text, /event: done/);
  assert.match(text, RESULT, 'the stream ran the approved call');
  const ev = await http(s.gateway, 'GET', '/api/v1/audit/events?type=approval.decision', { key: bob });
  assert.equal(ev.json.events.find((x: any) => x.detail.approval_id === id).actor, 'operator:oncall');
  // A second decision is refused with exit 1 and a sentence.
  const again = await cli(['approvals', 'deny', id, '--data-dir', s.dataDir]);
  assert.equal(again.code, 1);
  assert.match(again.err, /already approved/);
});

test('the operator CLI decides against a stopped server; the next start resumes the paused turn', async () => {
  const t = await pendingTurn(s.gateway, bob);
  await s.stop();
  const d = await cli(['approvals', 'approve', t.id, '--data-dir', s.dataDir]);
  assert.equal(d.code, 0, d.err);
  s = await serve({ side: 'gateway', dataDir: s.dataDir, config });
  assert.match((await toolResult(s.gateway, bob, t.session)).content, RESULT);
  assert.equal((await cli(['approvals', 'approve', 'no-such-id', '--data-dir', s.dataDir])).code, 1);
});

test('readiness reports the separation of duties', async () => {
  const r = await http(s.gateway, 'GET', '/api/v1/enterprise/readiness', { key: bob });
  assert.equal(r.status, 200, r.text);
  const c = JSON.stringify(r.json);
  assert.match(c, /approval_separation/);
  assert.match(c, /can never decide it; 2 approver key\(s\)/);
});

test('an approval the CLI finds expired is expired for the paused turn too (exit 1, the model is told)', async () => {
  const short = { ...config, approvals: { skills: ['crypto'], ttl_seconds: 1 } };
  let srv = await serve({ side: 'gateway', config: short });
  const key = await addTenant(srv.kernel, 'erin', ['crypto']);
  try {
    const t = await pendingTurn(srv.gateway, key);
    await srv.stop();
    await new Promise((r) => setTimeout(r, 1200));
    const late = await cli(['approvals', 'approve', t.id, '--data-dir', srv.dataDir]);
    assert.equal(late.code, 1);
    assert.match(late.err, /expired/);
    srv = await serve({ side: 'gateway', dataDir: srv.dataDir, config: short });
    const tool = await toolResult(srv.gateway, key, t.session);
    assert.match(tool.content, /expired/);
    assert.doesNotMatch(tool.content, RESULT);
  } finally {
    await srv.stop();
  }
});
