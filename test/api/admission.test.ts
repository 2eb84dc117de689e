// The admission gate itself (lib/analysis/admission.ts): arrival order, per-client accounting
// of running and waiting work, callers that leave the queue (abort, wait limit), Retry-After,
// and the timeout clamp. End-to-end behaviour is in test/security/api-admission.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyTimeout, clientKey } from '../../lib/analysis/admission.ts';
import { AnalysisAdmission, admissionLimits } from '../../plugins/analysis-api/admission.ts';
import { HttpError } from '../../kernel/index.ts';

const busy = async (p: Promise<unknown>, reason: string) => {
  await assert.rejects(
    p,
    (e: unknown) =>
      e instanceof HttpError &&
      e.statusCode === 429 &&
      e.code === 'analysis_busy' &&
      (e.details as any).reason === reason &&
      Number(e.headers!['retry-after']) >= 1,
  );
};

test('slots are granted in arrival order; a release admits the next waiter', async () => {
  const g = new AnalysisAdmission({ max_running: 1, max_queued: 5, per_client: 5 });
  const order: string[] = [];
  const r1 = await g.acquire('a');
  const w2 = g.acquire('b').then((rel) => (order.push('b'), rel));
  const w3 = g.acquire('c').then((rel) => (order.push('c'), rel));
  assert.deepEqual({ running: g.stats().running, queued: g.stats().queued }, { running: 1, queued: 2 });
  r1();
  r1(); // a second release is a no-op
  const r2 = await w2;
  assert.deepEqual(order, ['b']);
  r2();
  (await w3)();
  assert.deepEqual(order, ['b', 'c']);
  assert.deepEqual({ running: g.stats().running, queued: g.stats().queued }, { running: 0, queued: 0 });
});

test('per-client cap counts running and waiting work; other clients are not affected', async () => {
  const g = new AnalysisAdmission({ max_running: 1, max_queued: 5, per_client: 2 });
  const r1 = await g.acquire('addr:10.0.0.1');
  const w = g.acquire('addr:10.0.0.1');
  await busy(g.acquire('addr:10.0.0.1'), 'per_client_limit');
  const other = g.acquire('tenant:bob');
  r1();
  (await w)();
  (await other)();
  // The cap frees up again once the client's work is over.
  (await g.acquire('addr:10.0.0.1'))();
  assert.equal(g.stats().refused, 1);
});

test('a full queue refuses; a waiter leaves on abort or when its wait limit passes', async () => {
  const g = new AnalysisAdmission({ max_running: 1, max_queued: 1, per_client: 5 });
  const r1 = await g.acquire('a');
  const ac = new AbortController();
  const w = g.acquire('b', { signal: ac.signal });
  await busy(g.acquire('c'), 'queue_full');
  ac.abort();
  await assert.rejects(w, /aborted/);
  assert.equal(g.stats().queued, 0);
  await busy(g.acquire('d', { waitMs: 20 }), 'wait_timeout');
  r1();
  assert.equal(g.stats().running, 0);
  (await g.acquire('b'))();
});

test('limits come from analysis_admission with defaults; bad values are refused', () => {
  const d = admissionLimits({});
  assert.ok(d.max_running >= 1 && d.max_queued === 16 && d.per_client === 3);
  assert.deepEqual(admissionLimits({ analysis_admission: { max_running: 2, max_queued: 4, per_client: 1 } }), {
    max_running: 2,
    max_queued: 4,
    per_client: 1,
  });
  for (const bad of [0, -1, 1.5, '2'])
    assert.throws(() => admissionLimits({ analysis_admission: { per_client: bad } }), /per_client must be a positive integer/);
});

test('timeouts are held to the server maximum and say so; clients are keyed by tenant, else address', () => {
  assert.deepEqual(applyTimeout(undefined, 300), { applied: 300, requested: null, clamped: false });
  assert.deepEqual(applyTimeout(undefined, 60), { applied: 60, requested: null, clamped: false });
  assert.deepEqual(applyTimeout(120, 300), { applied: 120, requested: 120, clamped: false });
  const c = applyTimeout(3600, 300);
  assert.equal(c.applied, 300);
  assert.equal(c.clamped, true);
  assert.match(c.note!, /3600 s was lowered to the server's maximum of 300 s/);
  assert.equal(clientKey({ name: 'alice' }, '10.0.0.1'), 'tenant:alice');
  assert.equal(clientKey({ name: null }, '10.0.0.1'), 'addr:10.0.0.1');
  assert.equal(clientKey(null, undefined), 'addr:local');
});

test('--max-analysis-timeout / max_analysis_timeout / VIGIL_MAX_ANALYSIS_TIMEOUT set the maximum (default 300)', async () => {
  const { resolveSettings } = await import('../../kernel/config.ts');
  assert.equal(resolveSettings({ env: {}, config: null }).maxAnalysisTimeoutS, 300);
  assert.equal(resolveSettings({ env: {}, config: null, maxAnalysisTimeout: '45' }).maxAnalysisTimeoutS, 45);
  assert.equal(resolveSettings({ env: { VIGIL_MAX_ANALYSIS_TIMEOUT: '90' }, config: null }).maxAnalysisTimeoutS, 90);
  assert.equal(resolveSettings({ env: {}, config: null, overrides: { max_analysis_timeout: 120 } }).maxAnalysisTimeoutS, 120);
  assert.throws(
    () => resolveSettings({ env: {}, config: null, maxAnalysisTimeout: '0' }),
    /--max-analysis-timeout must be a positive integer/,
  );
});
