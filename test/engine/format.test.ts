// SARIF 2.1.0 structure (what GitHub code scanning requires), Markdown and HTML escaping.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toSarif } from '../../plugins/analysis-engine/format/sarif.ts';
import { toMarkdown } from '../../plugins/analysis-engine/format/markdown.ts';
import { toHtml } from '../../plugins/analysis-engine/format/html.ts';
import type { AnalysisResult } from '../../kernel/index.ts';
import type { Finding } from '../../schemas/finding.ts';

const finding = (over: Partial<Finding> = {}): Finding => ({
  id: '0123456789abcdef',
  detector: 'solhint-avoid-tx-origin',
  title: 'Authorization through tx.origin',
  description: 'uses <script>alert(1)</script> | pipes',
  severity: 'HIGH',
  confidence: 0.7,
  category: 'access_control',
  swc_id: 'SWC-115',
  cwe_id: 'CWE-477',
  location: { file: 'contracts/Vault.sol', line: 7, end_line: 8, column: 8, contract: 'Vault', function: 'withdraw' },
  tools: ['solhint', 'vigil-static'],
  layers: [1],
  recommendation: 'Use msg.sender.',
  evidence: { kind: 'counterexample', counterexample: { a: '1' } },
  ...over,
});
const result = (findings: Finding[]): AnalysisResult => ({
  audit_id: 'a1',
  audit_type: 'quick',
  contract: { name: 'Vault<x>', sha256: 'f'.repeat(64), pragma: '^0.8.0', compiler: '0.8.30' },
  layers: [1, 4],
  tools: ['solhint', 'smtchecker'],
  results: [
    { tool: 'solhint', layer: 1, status: 'success', findings, execution_time: 0.1, error: null },
    { tool: 'smtchecker', layer: 4, status: 'timeout', findings: [], execution_time: 5, error: 'ran out of budget' },
  ],
  findings,
  summary: { CRITICAL: 0, HIGH: findings.length, MEDIUM: 0, LOW: 0, INFO: 0 },
  total_findings: findings.length,
  execution_time: 5.1,
  timestamp: '2025-01-01T00:00:00.000Z',
  version: '0.1.0',
  compilation: { ok: true, compiler: '0.8.30', errors: [], warnings: [] },
});

test('SARIF: version, driver rules with help and security-severity, results with locations and fingerprints', () => {
  const s = toSarif(
    result([
      finding(),
      finding({ id: 'fedcba9876543210', location: { file: 'contracts/Vault.sol', line: 20, end_line: 20 }, severity: 'MEDIUM' }),
    ]),
    { uri: 'contracts/Vault.sol' },
  ) as any;
  assert.equal(s.version, '2.1.0');
  assert.match(s.$schema, /sarif-2\.1\.0/);
  const run = s.runs[0];
  assert.equal(run.tool.driver.name, 'vigil');
  assert.equal(run.tool.driver.rules.length, 1, 'one rule per detector');
  const rule = run.tool.driver.rules[0];
  assert.equal(rule.id, 'solhint-avoid-tx-origin');
  assert.equal(rule.name, 'SolhintAvoidTxOrigin');
  for (const k of ['shortDescription', 'fullDescription']) assert.equal(typeof rule[k].text, 'string');
  assert.ok(rule.help.text && rule.help.markdown);
  assert.equal(rule.properties['security-severity'], '8.0');
  assert.ok(rule.properties.tags.includes('security'));
  assert.equal(rule.defaultConfiguration.level, 'error');
  assert.equal(run.results.length, 2);
  const r = run.results[0];
  assert.equal(r.ruleId, 'solhint-avoid-tx-origin');
  assert.equal(r.ruleIndex, 0);
  assert.equal(r.level, 'error');
  assert.equal(typeof r.message.text, 'string');
  assert.deepEqual(r.locations[0].physicalLocation, {
    artifactLocation: { uri: 'contracts/Vault.sol' },
    region: { startLine: 7, endLine: 8, startColumn: 9 },
  });
  assert.deepEqual(r.partialFingerprints, { 'vigilFindingId/v1': '0123456789abcdef' });
  assert.equal(run.results[1].level, 'warning');
  assert.equal(run.invocations[0].toolExecutionNotifications[0].level, 'warning');
  assert.match(run.invocations[0].toolExecutionNotifications[0].message.text, /smtchecker.*timeout/);
  // Valid JSON round trip, no undefined values
  assert.deepEqual(JSON.parse(JSON.stringify(s)).runs[0].results.length, 2);
});

test('SARIF with no findings is still a valid run', () => {
  const s = toSarif(result([])) as any;
  assert.deepEqual(s.runs[0].results, []);
  assert.deepEqual(s.runs[0].tool.driver.rules, []);
});

test('Markdown escapes contract-controlled text and lists every section', () => {
  const md = toMarkdown(result([finding()]));
  assert.match(md, /^# vigil quick analysis: Vault\\<x\\>/);
  assert.ok(!md.includes('<script>'));
  assert.match(md, /\\\| pipes/);
  assert.match(md, /## Summary/);
  assert.match(md, /\| smtchecker \| 4 \| timeout \|/);
  assert.match(md, /### 1\. \[HIGH\] Authorization through tx\.origin/);
  assert.match(md, /"a": "1"/);
});

test('HTML is self-contained and escaped', () => {
  const html = toHtml(result([finding()]));
  assert.match(html, /^<!doctype html>/);
  assert.ok(!html.includes('<script>'));
  assert.ok(html.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
  assert.ok(html.includes('Vault&lt;x&gt;'));
  assert.ok(!/src=|href=/.test(html), 'no external assets');
});
