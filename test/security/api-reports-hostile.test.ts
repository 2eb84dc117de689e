// Issue 14 item 8: the HTML renderer interpolated stored values unescaped (summary.CRITICAL =
// '<meta http-equiv="refresh" …>' redirected the page; also layers[], results[].layer,
// execution_time, location.line, confidence), and a report nested 3,000 arrays deep was
// accepted and from then on every GET /api/v1/reports/ answered 500, across restarts.
// Now: every value is escaped or coerced (checked here field by field, property-style, on the
// renderer alone and through the API), stored analysis bodies are validated on POST, and no
// stored row — whatever was written into the store — breaks a listing.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import Database from 'better-sqlite3';
import { toHtml } from '../../plugins/analysis-engine/format/html.ts';
import { coerceAnalysis } from '../../plugins/analysis-api/report-shape.ts';
import { boot, type Booted } from '../api/helpers.ts';

const SAMPLE = {
  audit_id: 'audit-1',
  audit_type: 'full',
  contract: { name: 'Bank', sha256: 'ab'.repeat(32), pragma: '^0.8.0', compiler: '0.8.30' },
  layers: [1, 3],
  tools: ['vigil-static', 'solhint'],
  results: [
    { tool: 'vigil-static', layer: 1, status: 'success', findings: [], execution_time: 0.25, error: null },
    { tool: 'solhint', layer: 1, status: 'error', findings: [], execution_time: 1.5, error: 'boom' },
  ],
  findings: [
    {
      id: 'f1',
      detector: 'reentrancy',
      title: 'Reentrancy',
      description: 'state after call',
      severity: 'HIGH',
      confidence: 0.9,
      category: 'reentrancy',
      swc_id: 'SWC-107',
      cwe_id: 'CWE-841',
      location: { file: 'Bank.sol', line: 12, end_line: 14, contract: 'Bank', function: 'withdraw' },
      tools: ['vigil-static'],
      layers: [1],
      recommendation: 'update state first',
      evidence: { path: ['a', 'b'] },
    },
  ],
  summary: { CRITICAL: 0, HIGH: 1, MEDIUM: 0, LOW: 0, INFO: 0 },
  total_findings: 1,
  execution_time: 2.5,
  timestamp: '2026-11-25T10:00:00.000Z',
  version: '1.0.0',
  notes: ['one note'],
};

const hostile = (i: number) => `"'><x-hostile-${i} onerror=alert(1)><meta http-equiv="refresh" content="0;url=//evil.example">&`;

/** Every path of a JSON value: each object property and array element, containers included. */
function paths(v: unknown, at: Array<string | number> = []): Array<Array<string | number>> {
  if (v === null || typeof v !== 'object') return [at];
  const kids = Array.isArray(v) ? v.map((x, i) => [i, x] as const) : Object.entries(v);
  return [...(at.length ? [at] : []), ...kids.flatMap(([k, x]) => paths(x, [...at, k]))];
}
function setAt(root: any, p: Array<string | number>, value: unknown) {
  const copy = structuredClone(root);
  let o = copy;
  for (const k of p.slice(0, -1)) o = o[k];
  o[p.at(-1)!] = value;
  return copy;
}
function getAt(root: any, p: Array<string | number>) {
  return p.reduce((o, k) => o?.[k], root);
}

const MARKUP = /<x-hostile|<meta http-equiv="refresh"|"'>/;

test('property: markup in any field of a result never reaches the HTML page unescaped; numeric fields never print it at all', () => {
  const all = paths(SAMPLE);
  assert.ok(all.length > 60, `only ${all.length} paths`);
  for (const [i, p] of all.entries()) {
    const original = getAt(SAMPLE, p);
    const variants: unknown[] = [hostile(i), { [hostile(i)]: hostile(i) }, [hostile(i)], 'constructor', '__proto__'];
    for (const value of variants) {
      const bad = setAt(SAMPLE, p, value);
      for (const [how, page] of [
        ['renderer alone', () => toHtml(bad)],
        ['stored-report path', () => toHtml(coerceAnalysis(bad))],
      ] as const) {
        let html: string;
        try {
          html = page();
        } catch (e) {
          assert.fail(`${how}: ${p.join('.')} = ${JSON.stringify(value).slice(0, 40)} made the renderer throw: ${(e as Error).message}`);
        }
        assert.doesNotMatch(html, MARKUP, `${how}: ${p.join('.')} reached the page unescaped`);
        assert.doesNotMatch(html, /background:function|\[native code\]/, `${how}: ${p.join('.')} leaked a prototype property`);
        if (typeof original === 'number') {
          assert.ok(!html.includes(`x-hostile-${i} `), `${how}: numeric field ${p.join('.')} printed text instead of a number`);
        }
      }
    }
  }
});

let b: Booted;
before(async () => {
  b = await boot();
});
after(() => b?.stop());

const inject = (method: 'GET' | 'POST', url: string, payload?: string) =>
  b.kernel.api.inject({ method, url, payload, headers: payload ? { 'content-type': 'application/json' } : {} });

test('POST validates analysis reports: a string where a count belongs, a bad layer, a 3,000-deep body are 400', async () => {
  const cases = [
    setAt(SAMPLE, ['summary', 'CRITICAL'], '<meta http-equiv="refresh" content="0;url=//evil.example">'),
    setAt(SAMPLE, ['results', 0, 'layer'], '<b>1</b>'),
    setAt(SAMPLE, ['findings', 0, 'location', 'line'], '12<script>'),
    setAt(SAMPLE, ['findings', 0, 'confidence'], '90%'),
    setAt(SAMPLE, ['layers'], ['<i>1</i>']),
    setAt(SAMPLE, ['execution_time'], '<img src=x>'),
    setAt(SAMPLE, ['summary', '<x>'], 1),
  ];
  for (const body of cases) {
    const r = await inject('POST', '/api/v1/reports/', JSON.stringify(body));
    assert.equal(r.statusCode, 400, r.body);
    assert.equal(r.json().code, 'invalid_report', r.body);
  }
  for (const depth of [3000, 5000]) {
    const r = await inject('POST', '/api/v1/reports/', `{"findings":[],"summary":{},"x":${'['.repeat(depth)}${']'.repeat(depth)}}`);
    assert.equal(r.statusCode, 400, r.body.slice(0, 300));
  }
  const ok = await inject('POST', '/api/v1/reports/', JSON.stringify(SAMPLE));
  assert.equal(ok.statusCode, 201, ok.body);
  const list = await inject('GET', '/api/v1/reports/');
  assert.equal(list.statusCode, 200);
});

test('bad rows written straight into the store never break a listing (also after a restart) and render safely', async () => {
  const hostileRow = await b.kernel.store.putReport({
    kind: 'analysis',
    data: setAt(
      setAt(setAt(SAMPLE, ['summary', 'CRITICAL'], hostile(1)), ['layers'], [hostile(2)]),
      ['findings', 0, 'location', 'line'],
      hostile(3),
    ),
  });
  const deepRow = await b.kernel.store.putReport({
    kind: 'analysis',
    data: { findings: [], summary: JSON.parse('['.repeat(3000) + ']'.repeat(3000)) },
  });
  const db = new Database(path.join(b.dataDir, 'vigil.db'));
  db.prepare('INSERT INTO reports (id, kind, tenant, created_at, data) VALUES (?, ?, NULL, ?, ?)').run(
    'not-json',
    'analysis',
    new Date().toISOString(),
    '{"findings": [tru',
  );
  // Columns of the wrong type: SQLite keeps whatever it is given.
  db.prepare('INSERT INTO reports (id, kind, tenant, created_at, data) VALUES (?, ?, NULL, ?, ?)').run(
    'odd-columns',
    Buffer.from('analysis'),
    20261125,
    '[1, 2]',
  );
  db.prepare('INSERT INTO reports (id, kind, tenant, created_at, data) VALUES (NULL, ?, NULL, ?, ?)').run(
    'analysis',
    '9999-12-31T00:00:00.000Z',
    '{"summary": {"HIGH": 1}}',
  );
  db.close();

  const check = async () => {
    for (const q of ['', '?limit=1', '?limit=2&offset=1', '?limit=100']) {
      const r = await inject('GET', `/api/v1/reports/${q}`);
      assert.equal(r.statusCode, 200, `${q}: ${r.body.slice(0, 300)}`);
    }
    const rows = Object.fromEntries((await inject('GET', '/api/v1/reports/?limit=100')).json().reports.map((x: any) => [x.report_id, x]));
    assert.equal(rows[hostileRow.id].damaged, true, 'a summary that is not counts is flagged');
    assert.equal(rows[hostileRow.id].summary, null);
    assert.equal(rows[deepRow.id].damaged, true);
    assert.equal(rows['not-json'].damaged, true);
    assert.equal(rows['odd-columns'].kind, 'analysis');
    assert.equal((await inject('GET', '/api/v1/reports/odd-columns/')).statusCode, 422, 'a body that is not an object is damaged');
    const broken = await inject('GET', '/api/v1/reports/not-json/');
    assert.equal(broken.statusCode, 422);
    assert.equal(broken.json().code, 'report_damaged');
    for (const format of ['html', 'markdown', 'sarif']) {
      const r = await inject('GET', `/api/v1/reports/${hostileRow.id}/?format=${format}`);
      assert.equal(r.statusCode, 200, `${format}: ${r.body.slice(0, 300)}`);
      assert.doesNotMatch(r.body, MARKUP);
    }
  };
  await check();
  await b.kernel.stop();
  b = await boot({ dataDir: b.dataDir, roots: b.roots });
  await check();
});
