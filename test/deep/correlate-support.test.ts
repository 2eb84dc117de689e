// Layer 9 with the deep layers: support-only findings (ML predictions, AI confirmations, lint
// hits) back a claim and raise its confidence, but are not claims of their own; each AI
// confirmation joins the finding it confirms even when another claim of the category is nearer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { correlate, supportOnly } from '../../plugins/analysis-engine/correlate.ts';
import { solhintFindings, SOLHINT_QUICK_RULES } from '../../plugins/tool-solhint/solhint.ts';
import type { Finding } from '../../schemas/finding.ts';
import { toolFinding } from '../support.ts';

const SRC = Array.from({ length: 40 }, (_, i) => `line ${i + 1};`).join('\n');
const f = toolFinding;
const ml = (line: number, over: Partial<Finding> = {}) =>
  f('vigil-ml', 6, line, { confidence: 0.6, evidence: { kind: 'prediction', probability: 0.8 }, ...over });
const lint = (line: number, over: Partial<Finding> = {}) =>
  f('solhint', 1, line, { severity: 'INFO', confidence: 0.3, evidence: { kind: 'lint', rule: 'reentrancy' }, ...over });
const echo = (of: Finding, provider = 'demo') =>
  f('vigil-ai', 5, of.location.line, {
    id: `ai-${of.id}`,
    category: of.category,
    location: of.location,
    confidence: 0.1,
    evidence: { kind: 'llm_review', provider, confirms: of.id },
  });

test('support-only: predictions, lint hits and confirmations are; claims, proofs and LLM-only items are not', () => {
  assert.equal(supportOnly(ml(10)), true);
  assert.equal(supportOnly(lint(10)), true);
  assert.equal(supportOnly(echo(f('vigil-static', 1, 10))), true);
  assert.equal(supportOnly(f('vigil-static', 1, 10)), false);
  assert.equal(supportOnly(f('vigil-fuzz', 2, 10, { evidence: { kind: 'transaction_sequence' } })), false);
  assert.equal(
    supportOnly(f('vigil-ai', 5, 10, { llm_only: true, evidence: { kind: 'llm_review', provider: 'openai' } })),
    false,
    'an LLM-only item stays a (marked) claim',
  );
});

test('alone, support-only findings are not in the verdict; with a claim they merge into it', () => {
  assert.deepEqual(correlate([ml(5), lint(12), echo(lint(12))], SRC), []);
  assert.equal(correlate([ml(5)], SRC, { keepUnsupported: true }).length, 1);
  const out = correlate([lint(12), f('vigil-static', 1, 12, { confidence: 0.7 })], SRC);
  assert.equal(out.length, 1);
  assert.deepEqual(out[0].tools.sort(), ['solhint', 'vigil-static']);
  assert.equal(out[0].detector, 'vigil-static-rule', 'the claim is the primary, not the lint hit');
});

test('an ML prediction on the function header backs a claim anywhere in that function', () => {
  const claim = f('vigil-static', 1, 20, { confidence: 0.7 });
  const out = correlate([ml(8), claim], SRC);
  assert.equal(out.length, 1);
  assert.equal(out[0].location.line, 20);
  assert.ok(out[0].confidence > 0.7, `agreement raises confidence (${out[0].confidence})`);
  // Another function, or another category: no support, and the prediction is dropped.
  assert.deepEqual(
    correlate([ml(8, { location: { file: 'A.sol', line: 8, end_line: 8, contract: 'A', function: 'deposit' } }), claim], SRC).map(
      (x) => x.id,
    ),
    [claim.id],
  );
  assert.deepEqual(
    correlate([ml(8, { category: 'arithmetic' }), claim], SRC).map((x) => x.id),
    [claim.id],
  );
});

test('each AI confirmation joins the finding it confirms, and the demo echo casts no vote', () => {
  const a = f('vigil-static', 1, 10, { id: 'a', confidence: 0.6 });
  const b = f('vigil-static', 1, 12, { id: 'b', confidence: 0.6 });
  // The echo of b comes first and would fit a's cluster (2 lines away) if clusters were first-fit.
  const out = correlate([echo(b), echo(a), a, b], SRC);
  assert.equal(out.length, 2);
  for (const x of out) {
    assert.deepEqual(x.tools.slice().sort(), ['vigil-ai', 'vigil-static']);
    assert.match(x.description, new RegExp(`vigil-ai \\(vigil-ai-rule, line ${x.location.line}\\)`), 'paired with its own echo');
  }
  assert.deepEqual(
    out.map((x) => x.confidence),
    [0.6, 0.6],
    'an echo of the finding is not independent agreement',
  );
  const real = correlate([a, { ...echo(a, 'openai'), confidence: 0.5 }], SRC);
  assert.ok(real[0].confidence > 0.6, 'a model that reviewed the code independently does count');
});

test('solhint: rules that claim a flaw are claims; construct, hygiene and tx.origin-read rules are lint (support-only)', () => {
  const source =
    'pragma solidity ^0.4.24;\ncontract T {\n  uint x;\n  function f() {\n    require(tx.origin == msg.sender);\n    x = now;\n  }\n}\n';
  const reports = [
    { line: 5, column: 12, ruleId: 'avoid-tx-origin', message: 'Avoid to use tx.origin' },
    { line: 6, column: 8, ruleId: 'not-rely-on-time', message: 'Avoid making time-based decisions' },
    { line: 4, column: 2, ruleId: 'func-visibility', message: 'Explicitly mark visibility' },
    { line: 3, column: 2, ruleId: 'state-visibility', message: 'Explicitly mark visibility of state' },
  ];
  const fs = solhintFindings(reports as any, { source, file: 'T.sol' });
  assert.equal(fs.length, 4, 'the tool result still lists every hit');
  const by = Object.fromEntries(fs.map((x) => [x.detector, x]));
  assert.ok(SOLHINT_QUICK_RULES.has('avoid-tx-origin'), 'quick mode still runs it, to back vigil-static');
  // `tx.origin == msg.sender` is an externally-owned-account check, not authorization through
  // tx.origin: solhint flags every tx.origin read, so its hit only backs vigil-static's rule.
  for (const d of ['solhint-avoid-tx-origin', 'solhint-not-rely-on-time', 'solhint-func-visibility', 'solhint-state-visibility'])
    assert.equal(supportOnly(by[d]), true, d);
  assert.deepEqual(
    correlate(fs, source).map((x) => x.detector),
    [],
  );
  const checkSend = solhintFindings([{ line: 5, column: 4, ruleId: 'check-send-result', message: 'Check result of send' }] as any, {
    source,
    file: 'T.sol',
  });
  assert.equal(supportOnly(checkSend[0]), false, 'an unchecked send is a claim by itself');
});
