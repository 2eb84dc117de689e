// Two gateway replicas sharing one PostgreSQL store and one Redis: a tenant's rate limit, daily
// token quota and concurrent-session cap hold across both, and an approval decided on one
// replica resumes the streaming turn waiting on the other.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Tenancy, UsageMeter } from '../../lib/gateway/contracts.ts';
import { boot, type Booted } from '../governance/helpers.ts';
import { PostgresStore } from '../../kernel/store/postgres.ts';
import { postgresProblem, pgUrlWithSchema, uniqueSchema } from '../store/backends.ts';
import { REDIS_URL, dropPrefix, redisProblem, uniquePrefix } from './services.ts';
import { addKey } from '../security/edge-helpers.ts';

const skip = (await redisProblem()) ?? (await postgresProblem());
const prefix = uniquePrefix();
const url = pgUrlWithSchema(uniqueSchema('vr'));
let a: Booted;
let b: Booted;

before(async () => {
  if (skip) return;
  // A long store poll: only the Redis bus can bring a decision to the other replica quickly.
  const overrides = {
    database_url: url,
    redis_url: REDIS_URL,
    redis_prefix: prefix,
    approvals: { skills: ['crypto'], ttl_seconds: 60 },
    plugins: { 'gateway-approvals': { sweep_interval_ms: 60_000, poll_interval_ms: 60_000 } },
  };
  a = await boot({ overrides });
  b = await boot({ overrides });
});
after(async () => {
  if (skip) return;
  await Promise.allSettled([a.stop(), b.stop()]);
  const s = await PostgresStore.connect({ url });
  await s.dropSchema();
  await s.close();
  await dropPrefix(prefix);
});

test('rate limit: 3/min for a tenant holds across two replicas', { skip: skip ?? false }, async () => {
  const key = await a.addTenant('rl', { rateLimit: '3/min' });
  const codes = [];
  for (let i = 0; i < 5; i++) codes.push((await (i % 2 ? b : a).req('GET', '/api/v1/skills', { key })).status);
  assert.deepEqual(codes, [200, 200, 200, 429, 429]);
  const r = await a.req('GET', '/api/v1/skills', { key });
  assert.equal(r.json.code, 'rate_limited');
  assert.ok(Number(r.headers['retry-after']) >= 1);
});

test('concurrent sessions: the cap counts sessions on both replicas', { skip: skip ?? false }, async () => {
  await a.addTenant('cap', { maxConcurrentSessions: 2 });
  const ta = a.kernel.services.get<Tenancy>('tenancy')!;
  const tb = b.kernel.services.get<Tenancy>('tenancy')!;
  await ta.sessionOpened('cap', 's1');
  await tb.sessionOpened('cap', 's2');
  await assert.rejects(
    ta.sessionOpened('cap', 's3'),
    (e: any) => e.statusCode === 429 && e.code === 'session_limit' && e.details.active === 2,
  );
  await assert.rejects(tb.sessionOpened('cap', 's3'), (e: any) => e.statusCode === 429);
  // The same session on the other replica counts once.
  await tb.sessionOpened('cap', 's1');
  await tb.sessionClosed('cap', 's1');
  await tb.sessionClosed('cap', 's2');
  await ta.sessionOpened('cap', 's3');
  await assert.rejects(tb.sessionOpened('cap', 's4'), (e: any) => e.statusCode === 429);
  await ta.sessionClosed('cap', 's1');
  await ta.sessionClosed('cap', 's3');
  await tb.sessionOpened('cap', 's4');
  await tb.sessionClosed('cap', 's4');
});

test('daily token quota: usage on one replica counts on the other', { skip: skip ?? false }, async () => {
  await a.addTenant('quota', { tokenQuotaPerDay: 500 });
  const ua = a.kernel.services.get<UsageMeter>('usage')!;
  const ub = b.kernel.services.get<UsageMeter>('usage')!;
  await Promise.all([ua.consume('quota', 200), ub.consume('quota', 200)]);
  await ub.assertAvailable('quota');
  await ua.consume('quota', 150);
  await assert.rejects(
    ub.assertAvailable('quota'),
    (e: any) => e.statusCode === 429 && e.code === 'quota_exceeded' && e.details.used === 550,
  );
  await assert.rejects(ua.assertAvailable('quota'), (e: any) => e.statusCode === 429);
});

test('approval decided on replica B resumes the stream waiting on replica A', { skip: skip ?? false }, async () => {
  const key = await a.addTenant('ap');
  const stream = a.kernel.gateway.inject({
    method: 'POST',
    url: '/api/v1/chat/stream',
    headers: { authorization: `Bearer ${key}` },
    payload: { message: '/skill crypto {"op":"keccak256","data":"hello"}' },
  });
  let pending: any = null;
  for (let i = 0; i < 200 && !pending; i++) {
    const r = await b.req('GET', '/api/v1/approvals?status=pending', { key });
    pending = r.json.approvals?.[0] ?? null;
    if (!pending) await new Promise((r) => setTimeout(r, 50));
  }
  assert.ok(pending, 'the gated call is pending');
  // The requesting key never decides: a second key of the tenant with approvals_decide does.
  const approver = await addKey(a.kernel, 'ap', 'approver', ['approvals_decide']);
  const d = await b.req('POST', `/api/v1/approvals/${pending.id}`, { key: approver, body: { decision: 'approve', decided_by: 'bob' } });
  assert.equal(d.status, 200, d.body);
  const res = await stream;
  assert.equal(res.statusCode, 200);
  // The stream on A saw the approval, then the skill's result and the end of the turn.
  assert.match(res.body, /event: approval_required/);
  assert.match(res.body, /0x1c8aff95/);
  assert.doesNotMatch(res.body, /resumed elsewhere/);
  assert.match(res.body, /event: done/);
});
