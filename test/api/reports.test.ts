// Stored reports: POST validation and 201 body, newest-first paging, one report as JSON /
// Markdown / HTML (escaped) / SARIF, 404, and persistence across a restart on the same dataDir.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { boot, tempDir, type Booted } from './helpers.ts';

// One kernel for the stateless checks (boot runs every tool self-test); counts are relative.
let shared: Booted;
before(async () => {
  shared = await boot();
});
after(async () => {
  await shared.stop();
});

const json = (payload: unknown) => ({
  payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  headers: { 'content-type': 'application/json' },
});

const ANALYSIS_SHAPED = {
  audit_id: 'a-1',
  audit_type: 'quick',
  contract: { name: 'X<script>', sha256: '0'.repeat(64), pragma: '^0.8.0', compiler: '0.8.30' },
  layers: [1],
  tools: ['solhint'],
  results: [{ tool: 'solhint', layer: 1, status: 'success', findings: [], execution_time: 0.1, error: null }],
  findings: [
    {
      id: 'abc123',
      title: 'Injected <script>alert(1)</script> title',
      description: 'desc & more',
      severity: 'HIGH',
      confidence: 0.9,
      category: 'reentrancy',
      swc_id: 'SWC-107',
      location: { file: 'X.sol', line: 3, end_line: 4, contract: 'X', function: 'f' },
      tools: ['solhint'],
      layers: [1],
      recommendation: 'Update state first',
    },
  ],
  summary: { CRITICAL: 0, HIGH: 1, MEDIUM: 0, LOW: 0, INFO: 0 },
  total_findings: 1,
  execution_time: 0.1,
  timestamp: new Date().toISOString(),
  version: '0.1.0',
};

test('POST /api/v1/reports/ accepts non-empty objects (201) and rejects everything else (400)', async () => {
  const b = shared;
  {
    const ok = await b.kernel.api.inject({ method: 'POST', url: '/api/v1/reports/', ...json({ project: 'p', findings_count: 3 }) });
    assert.equal(ok.statusCode, 201);
    const j = ok.json();
    assert.equal(j.status, 'accepted');
    assert.match(j.report_id, /^[0-9a-f-]{36}$/);
    assert.ok(!Number.isNaN(Date.parse(j.created_at)));
    for (const bad of ['{}', '[]', '[{"a":1}]', '"text"', '42', 'null', '{"a":']) {
      const r = await b.kernel.api.inject({ method: 'POST', url: '/api/v1/reports/', ...json(bad) });
      assert.equal(r.statusCode, 400, `${bad}: ${r.body}`);
      assert.ok(['invalid_request', 'invalid_json'].includes(r.json().code), r.body);
    }
    const noBody = await b.kernel.api.inject({ method: 'POST', url: '/api/v1/reports/', headers: { 'content-type': 'application/json' } });
    assert.equal(noBody.statusCode, 400);
    const list = await b.kernel.api.inject({ method: 'GET', url: '/api/v1/reports/' });
    assert.equal(list.json().reports[0].report_id, j.report_id, 'rejected reports were not stored');
  }
});

test('GET /api/v1/reports/ lists newest first with validated limit/offset paging', async () => {
  const b = shared;
  {
    const before = (await b.kernel.api.inject({ method: 'GET', url: '/api/v1/reports/' })).json().total;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await b.kernel.api.inject({ method: 'POST', url: '/api/v1/reports/', ...json({ n: i }) });
      ids.push(r.json().report_id);
    }
    const all = (await b.kernel.api.inject({ method: 'GET', url: '/api/v1/reports/' })).json();
    assert.equal(all.total, before + 5);
    assert.equal(all.limit, 20);
    assert.equal(all.offset, 0);
    assert.deepEqual(
      all.reports.slice(0, 5).map((r: any) => r.report_id),
      [...ids].reverse(),
    );
    const page = (await b.kernel.api.inject({ method: 'GET', url: '/api/v1/reports/?limit=2&offset=1' })).json();
    assert.deepEqual(
      page.reports.map((r: any) => r.report_id),
      [ids[3], ids[2]],
    );
    assert.equal(page.total, before + 5);
    for (const q of ['limit=0', 'limit=101', 'limit=abc', 'offset=-1', 'offset=x', 'limit=1.5']) {
      const r = await b.kernel.api.inject({ method: 'GET', url: `/api/v1/reports/?${q}` });
      assert.equal(r.statusCode, 400, q);
      assert.equal(r.json().code, 'invalid_request');
    }
  }
});

test('GET /api/v1/reports/{id}/ as json, markdown, html (escaped) and sarif; 404 report_not_found', async () => {
  const b = shared;
  {
    const id = (await b.kernel.api.inject({ method: 'POST', url: '/api/v1/reports/', ...json(ANALYSIS_SHAPED) })).json().report_id;
    const j = await b.kernel.api.inject({ method: 'GET', url: `/api/v1/reports/${id}/` });
    assert.equal(j.statusCode, 200);
    assert.equal(j.json().report_id, id);
    assert.deepEqual(j.json().report, ANALYSIS_SHAPED);
    const md = await b.kernel.api.inject({ method: 'GET', url: `/api/v1/reports/${id}/?format=markdown` });
    assert.equal(md.statusCode, 200);
    assert.match(String(md.headers['content-type']), /^text\/markdown/);
    assert.match(md.body, /SWC-107/);
    const html = await b.kernel.api.inject({ method: 'GET', url: `/api/v1/reports/${id}/?format=html` });
    assert.equal(html.statusCode, 200);
    assert.match(String(html.headers['content-type']), /^text\/html/);
    assert.doesNotMatch(html.body, /<script>alert/);
    assert.match(html.body, /&lt;script&gt;/);
    const sarif = await b.kernel.api.inject({ method: 'GET', url: `/api/v1/reports/${id}/?format=sarif` });
    assert.equal(sarif.statusCode, 200);
    assert.match(String(sarif.headers['content-type']), /^application\/sarif\+json/);
    assert.equal(sarif.json().version, '2.1.0');
    const bad = await b.kernel.api.inject({ method: 'GET', url: `/api/v1/reports/${id}/?format=pdf` });
    assert.equal(bad.statusCode, 400);
    const missing = await b.kernel.api.inject({ method: 'GET', url: '/api/v1/reports/does-not-exist/' });
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.json().code, 'report_not_found');
    // A free-form report only renders as JSON, and says so.
    const plain = (await b.kernel.api.inject({ method: 'POST', url: '/api/v1/reports/', ...json({ note: 'hi' }) })).json().report_id;
    const r = await b.kernel.api.inject({ method: 'GET', url: `/api/v1/reports/${plain}/?format=html` });
    assert.equal(r.statusCode, 400);
    assert.match(r.json().error, /only be returned as JSON/);
  }
});

test('reports survive a restart on the same dataDir', async () => {
  const dataDir = tempDir('vigil-api-restart-');
  const first = await boot({ dataDir });
  const id = (await first.kernel.api.inject({ method: 'POST', url: '/api/v1/reports/', ...json({ kept: true }) })).json().report_id;
  await first.stop();
  const second = await boot({ dataDir });
  try {
    const r = await second.kernel.api.inject({ method: 'GET', url: `/api/v1/reports/${id}/` });
    assert.equal(r.statusCode, 200);
    assert.deepEqual(r.json().report, { kept: true });
    assert.equal((await second.kernel.api.inject({ method: 'GET', url: '/api/v1/reports/' })).json().total, 1);
  } finally {
    await second.stop();
  }
});
