// Layer 9 correlation: merging by category and location, confidence, severity source, stable ids.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { correlate } from '../../plugins/analysis-engine/correlate.ts';
import { toolFinding } from '../support.ts';

const SRC = Array.from({ length: 30 }, (_, i) => `line ${i + 1};`).join('\n');
const f = toolFinding;

test('same category, near lines, same function: one finding listing both tools and layers', () => {
  const out = correlate([f('static', 1, 10), f('fuzzer', 2, 11, { evidence: { kind: 'transaction_sequence', transactions: [] } })], SRC);
  assert.equal(out.length, 1);
  assert.deepEqual(out[0].tools, ['fuzzer', 'static']);
  assert.deepEqual(out[0].layers, [1, 2]);
  assert.ok(out[0].confidence > 0.8, String(out[0].confidence));
  // The merged finding covers both reports' lines; the proof (and its exact line) is the evidence.
  assert.equal(out[0].location.line, 10);
  assert.equal(out[0].location.end_line, 11);
  assert.equal((out[0].evidence as { kind: string }).kind, 'transaction_sequence');
  assert.match(out[0].description, /Also reported by static/);
});

test('severity comes from the most trusted source', () => {
  const out = correlate([f('ai', 5, 10, { severity: 'CRITICAL' }), f('smt', 4, 10, { severity: 'LOW', confidence: 0.95 })], SRC);
  assert.equal(out.length, 1);
  assert.equal(out[0].severity, 'LOW');
});

test('different categories, distant lines, other functions or two hits of one tool stay apart', () => {
  assert.equal(correlate([f('a', 1, 10), f('b', 1, 10, { category: 'arithmetic' })], SRC).length, 2);
  assert.equal(correlate([f('a', 1, 10), f('b', 1, 20)], SRC).length, 2);
  assert.equal(
    correlate(
      [f('a', 1, 10), f('b', 1, 10, { location: { file: 'A.sol', line: 10, end_line: 10, contract: 'A', function: 'deposit' } })],
      SRC,
    ).length,
    2,
  );
  assert.equal(correlate([f('a', 1, 10), f('a', 1, 12)], SRC).length, 2);
});

test('ids: unmerged findings keep theirs; merged ids are stable and independent of input order', () => {
  const single = correlate([f('a', 1, 10)], SRC);
  assert.equal(single[0].id, 'a-10');
  const x = correlate([f('a', 1, 10), f('b', 4, 10)], SRC)[0].id;
  const y = correlate([f('b', 4, 10), f('a', 1, 10)], SRC)[0].id;
  assert.equal(x, y);
  assert.match(x, /^[0-9a-f]{16}$/);
});

test('output sorted by severity', () => {
  const out = correlate([f('a', 1, 3, { severity: 'LOW', category: 'other' }), f('b', 1, 20, { severity: 'HIGH' })], SRC);
  assert.deepEqual(
    out.map((x) => x.severity),
    ['HIGH', 'LOW'],
  );
});
