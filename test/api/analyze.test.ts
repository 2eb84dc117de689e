// Analyze routes end to end through the real engine: response shape per decisions.md, full
// audits stored under their audit_id, layer and tool routes, and SARIF 2.1.0 validated against
// the official OASIS schema plus what GitHub code scanning needs.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { boot, VULNERABLE, type Booted } from './helpers.ts';
import { ANALYSIS_RESULT_KEYS } from '../support.ts';

const require = createRequire(import.meta.url);
const Ajv = require('ajv') as typeof import('ajv').default;
const addFormats = require('ajv-formats') as typeof import('ajv-formats').default;
const schema = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '../fixtures/sarif/sarif-schema-2.1.0.json'), 'utf8'));
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const validateSarif = ajv.compile(schema);

let b: Booted;
before(async () => {
  b = await boot();
});
after(async () => {
  await b.stop();
});

const post = (url: string, payload: unknown) => b.kernel.api.inject({ method: 'POST', url, payload: payload as Record<string, unknown> });

test('quick analysis answers the decisions.md shape with normalized findings', async () => {
  const r = await post('/api/v1/analyze/quick/', { contract_code: VULNERABLE, timeout: 120 });
  assert.equal(r.statusCode, 200, r.body);
  const j = r.json();
  for (const k of ANALYSIS_RESULT_KEYS) assert.ok(k in j, k);
  assert.equal(j.audit_type, 'quick');
  assert.equal(j.contract.name, 'Bank');
  assert.match(j.contract.sha256, /^[0-9a-f]{64}$/);
  assert.equal(j.total_findings, j.findings.length);
  assert.equal(
    Object.values<number>(j.summary).reduce((a, x) => a + x, 0),
    j.total_findings,
  );
  for (const res of j.results) assert.ok(['success', 'error', 'timeout', 'not_available', 'skipped'].includes(res.status));
  const cats = new Set(j.findings.map((f: any) => f.category));
  assert.ok(cats.has('access_control'), 'tx.origin found');
  assert.ok(cats.has('unchecked_low_level_calls'), 'unchecked call found');
  for (const f of j.findings) {
    assert.ok(f.location.line >= 1 && f.location.line <= VULNERABLE.split('\n').length);
    assert.ok(f.confidence >= 0 && f.confidence <= 1);
  }
  // Same code, same finding ids.
  const again = (await post('/api/v1/analyze/quick/', { contract_code: VULNERABLE, timeout: 120 })).json();
  assert.deepEqual(again.findings.map((f: any) => f.id).sort(), j.findings.map((f: any) => f.id).sort());
  assert.notEqual(again.audit_id, j.audit_id);
});

test('full analysis is stored as a report fetchable by its audit_id, in every format', async () => {
  const r = await post('/api/v1/analyze/full/', { contract_code: VULNERABLE, timeout: 300 });
  assert.equal(r.statusCode, 200, r.body);
  const j = r.json();
  assert.equal(j.audit_type, 'full');
  assert.ok(j.layers.length >= 2);
  const stored = await b.kernel.api.inject({ method: 'GET', url: `/api/v1/reports/${j.audit_id}/` });
  assert.equal(stored.statusCode, 200);
  assert.equal(stored.json().report.audit_id, j.audit_id);
  assert.equal(stored.json().report.total_findings, j.total_findings);
  const sarif = await b.kernel.api.inject({ method: 'GET', url: `/api/v1/reports/${j.audit_id}/?format=sarif` });
  assert.ok(validateSarif(sarif.json()), JSON.stringify(validateSarif.errors?.slice(0, 3)));
  const listed = (await b.kernel.api.inject({ method: 'GET', url: '/api/v1/reports/' })).json();
  assert.ok(listed.reports.some((x: any) => x.report_id === j.audit_id && x.kind === 'analysis'));
});

test('format "sarif" returns a valid SARIF 2.1.0 log that GitHub code scanning accepts', async () => {
  const r = await post('/api/v1/analyze/quick/', { contract_code: VULNERABLE, format: 'sarif', timeout: 120 });
  assert.equal(r.statusCode, 200, r.body);
  assert.match(String(r.headers['content-type']), /^application\/sarif\+json/);
  const log = r.json<any>();
  const valid = validateSarif(JSON.parse(r.body));
  assert.ok(valid, JSON.stringify(validateSarif.errors?.slice(0, 5), null, 1));
  assert.equal(log.version, '2.1.0');
  const run = log.runs[0];
  assert.ok(run.tool.driver.name);
  const rules = new Map<string, any>(run.tool.driver.rules.map((x: any) => [x.id, x]));
  assert.ok(run.results.length > 0);
  for (const res of run.results) {
    const rule = rules.get(res.ruleId);
    assert.ok(rule, `rule ${res.ruleId} declared`);
    assert.ok(rule.help?.text || rule.help?.markdown, `rule ${res.ruleId} has help text`);
    assert.ok(rule.shortDescription?.text);
    const loc = res.locations[0].physicalLocation;
    assert.ok(loc.artifactLocation.uri);
    assert.ok(loc.region.startLine >= 1);
    assert.ok(Object.values(res.partialFingerprints ?? {}).length > 0, 'partialFingerprints present');
    assert.ok(['error', 'warning', 'note', 'none'].includes(res.level));
  }
});

test('a schema-invalid SARIF log is rejected by the validator (the check can fail)', () => {
  assert.equal(validateSarif({ version: '2.1.0', runs: [{ tool: { driver: {} }, results: [] }] }), false);
  assert.equal(validateSarif({ version: '2.0.0', runs: [] }), false);
});

test('layer and tool routes run only what they name', async () => {
  const layer = await post('/api/v1/analyze/layer/1/', { contract_code: VULNERABLE, timeout: 120 });
  assert.equal(layer.statusCode, 200, layer.body);
  assert.equal(layer.json().audit_type, 'layer');
  assert.deepEqual(layer.json().layers, [1]);
  assert.ok(layer.json().results.every((x: any) => x.layer === 1));
  const tool = await post('/api/v1/analyze/tool/solhint/', { contract_code: VULNERABLE, timeout: 120 });
  assert.equal(tool.statusCode, 200, tool.body);
  const t = tool.json();
  for (const k of ['tool', 'layer', 'status', 'findings', 'execution_time', 'error']) assert.ok(k in t, k);
  assert.equal(t.tool, 'solhint');
  assert.equal(t.status, 'success');
  assert.ok(t.findings.length > 0);
  assert.ok(t.findings.every((f: any) => f.tools.includes('solhint')));
});
