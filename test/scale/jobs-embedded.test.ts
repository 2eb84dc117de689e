// Analysis jobs on the embedded (in-process) queue: 202 then the same body the synchronous
// endpoint returns, progress over SSE, tenant-less 404s, validation, and back-pressure.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Kernel } from '../../kernel/kernel.ts';
import { bootKernel } from '../helpers.ts';
import { resolveSettings } from '../../kernel/config.ts';
import { tempDir, VULNERABLE } from '../api/helpers.ts';

let k: Kernel;
before(async () => {
  const settings = resolveSettings({
    dataDir: tempDir('vigil-jobs-'),
    env: { VIGIL_CONTRACT_ROOTS: tempDir('vigil-jobs-roots-') },
    logLevel: 'silent',
    config: null,
    overrides: { plugins: { 'analysis-jobs': { max_waiting: 1, concurrency: 1 }, 'analysis-engine': { self_test_on_start: false } } },
  });
  k = await bootKernel({ resolved: settings, side: 'analysis', kernel: { poolThreads: 1 } });
});
after(() => k.stop());

const post = (body: unknown) => k.api.inject({ method: 'POST', url: '/api/v1/jobs/', payload: body as any });
const get = async (id: string) => (await k.api.inject({ method: 'GET', url: `/api/v1/jobs/${id}/` })).json();

async function settled(id: string) {
  for (let i = 0; i < 600; i++) {
    const j = await get(id);
    if (j.status === 'completed' || j.status === 'failed') return j;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`job ${id} did not finish`);
}

test("a quick job: 202 with job_id, then the synchronous endpoint's body", async () => {
  const r = await post({ contract_code: VULNERABLE, mode: 'quick' });
  assert.equal(r.statusCode, 202, r.body);
  const { job_id, status } = r.json();
  assert.equal(status, 'queued');
  assert.equal(r.headers.location, `/api/v1/jobs/${job_id}/`);
  const j = await settled(job_id);
  assert.equal(j.status, 'completed', JSON.stringify(j));
  assert.equal(j.attempts, 1);
  assert.equal(j.result.audit_id, job_id);
  const sync = (await k.api.inject({ method: 'POST', url: '/api/v1/analyze/quick/', payload: { contract_code: VULNERABLE } })).json();
  const key = (f: any) => `${f.tool}:${f.type ?? f.title}:${f.location?.line ?? ''}`;
  assert.deepEqual(j.result.findings.map(key).sort(), sync.findings.map(key).sort());
  assert.deepEqual(j.result.summary, sync.summary);
  assert.ok(j.result.findings.length > 0);
});

test('events: progress then done, and the stream ends', async () => {
  const { job_id } = (await post({ contract_code: VULNERABLE, mode: 'quick' })).json();
  const s = await k.api.inject({ method: 'GET', url: `/api/v1/jobs/${job_id}/events` });
  assert.equal(s.statusCode, 200);
  assert.match(String(s.headers['content-type']), /text\/event-stream/);
  const events = [...s.body.matchAll(/event: (\w+)\ndata: (.*)\n/g)].map((m) => ({ event: m[1], data: JSON.parse(m[2]) }));
  const done = events.at(-1)!;
  assert.equal(done.event, 'done');
  assert.equal(done.data.status, 'completed');
  assert.equal(done.data.result.audit_id, job_id);
  // The stream said something before the end (a status or progress update).
  assert.ok(events.length >= 2, s.body);
});

test('validation and unknown ids answer with the error contract', async () => {
  const bad = await post({ contract_code: VULNERABLE, mode: 'layer' });
  assert.equal(bad.statusCode, 400);
  assert.equal(bad.json().code, 'invalid_request');
  const tool = await post({ contract_code: VULNERABLE, mode: 'tool', tool: 'no-such-tool' });
  assert.equal(tool.statusCode, 400);
  assert.equal(tool.json().code, 'unknown_tool');
  const extra = await post({ contract_code: VULNERABLE, mode: 'quick', surprise: 1 });
  assert.equal(extra.statusCode, 400);
  const missing = await k.api.inject({ method: 'GET', url: '/api/v1/jobs/nope/' });
  assert.equal(missing.statusCode, 404);
  assert.equal(missing.json().code, 'job_not_found');
  const ev = await k.api.inject({ method: 'GET', url: '/api/v1/jobs/nope/events' });
  assert.equal(ev.statusCode, 404);
});

test('a full queue answers 503 queue_full with Retry-After; accepted jobs all finish', async () => {
  const rs = await Promise.all(Array.from({ length: 6 }, () => post({ contract_code: VULNERABLE, mode: 'quick' })));
  const full = rs.filter((r) => r.statusCode === 503);
  const ok = rs.filter((r) => r.statusCode === 202);
  assert.ok(full.length >= 1, rs.map((r) => r.statusCode).join(','));
  assert.ok(ok.length >= 1);
  assert.equal(full[0].json().code, 'queue_full');
  assert.ok(Number(full[0].headers['retry-after']) >= 1);
  for (const r of ok) assert.equal((await settled(r.json().job_id)).status, 'completed');
  // A refused job left nothing behind.
  assert.equal(ok.length + full.length, 6);
});
