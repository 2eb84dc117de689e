// `vigil analyze --baseline FILE`: only findings whose id is not in an earlier JSON or SARIF
// output are reported and failed on; the answer says how many were known; a missing, unreadable
// or foreign baseline is exit 2 with a sentence that says what to give instead.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runAnalyzeCommand } from '../../plugins/analysis-engine/cli-analyze.ts';
import { createAnalysisEngine } from '../../plugins/analysis-engine/engine.ts';
import { createSolhintTool } from '../../plugins/tool-solhint/solhint.ts';
import { toMarkdown } from '../../plugins/analysis-engine/format/markdown.ts';
import type { Finding } from '../../schemas/finding.ts';
import { capture, validateSarif } from './helpers.ts';

const engine = createAnalysisEngine({ registry: { tools: () => [createSolhintTool({ pool: null })] }, pool: null, version: '0.1.0' });
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-baseline-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

// One unchecked send on the base branch; the pull request adds a second one in a new function
// and shifts the first one down by a line (its id must not change).
const BASE = 'pragma solidity ^0.8.0;\ncontract A {\n  address payable owner;\n  function f() public { owner.send(1); }\n}\n';
const PR =
  'pragma solidity ^0.8.0;\ncontract A {\n  address payable owner;\n  uint256 public x;\n  function f() public { owner.send(1); }\n  function g() public { x = 1; owner.send(2); }\n}\n';
const file = path.join(dir, 'A.sol');

async function run(opts: Record<string, unknown>) {
  const c = capture();
  const code = await runAnalyzeCommand(engine, file, opts, c.io);
  return { code, out: c.out(), err: c.err() };
}

const sends = (findings: Finding[]) => findings.filter((f) => f.detector === 'solhint-check-send-result');

for (const format of ['json', 'sarif'] as const) {
  test(`a ${format} baseline: only the new finding is reported and failed on; known ones are counted`, async () => {
    fs.writeFileSync(file, BASE);
    const base = await run({ format });
    assert.equal(base.code, 0, base.err);
    const baseFile = path.join(dir, `base.${format}`);
    fs.writeFileSync(baseFile, base.out);

    fs.writeFileSync(file, PR);
    const plain = await run({ failOn: 'medium' });
    assert.equal(plain.code, 1);
    assert.equal(sends(JSON.parse(plain.out).findings).length, 2);

    const r = await run({ failOn: 'medium', baseline: baseFile });
    assert.equal(r.code, 1, 'the new unchecked send still fails the run');
    const body = JSON.parse(r.out);
    const fresh = sends(body.findings);
    assert.deepEqual(
      fresh.map((f) => f.location.function),
      ['g'],
    );
    assert.equal(body.baseline.known, 1);
    assert.equal(body.baseline.new, body.findings.length);
    assert.deepEqual(
      sends(body.baseline.known_findings).map((f) => f.location.function),
      ['f'],
    );
    assert.equal(body.summary.MEDIUM, body.findings.filter((f: Finding) => f.severity === 'MEDIUM').length);
    assert.match(r.err, /1 finding already known/);

    // With the PR's own output as the baseline nothing is new: exit 0 even with --fail-on.
    const prBase = path.join(dir, `pr.${format}`);
    fs.writeFileSync(prBase, (await run({ format, baseline: baseFile })).out);
    const again = await run({ failOn: 'medium', baseline: prBase });
    assert.equal(again.code, 0, again.err);
    assert.equal(JSON.parse(again.out).findings.length, 0);
  });
}

test('SARIF with a baseline marks results new/unchanged and validates; markdown says what was left out', async () => {
  fs.writeFileSync(file, BASE);
  const baseFile = path.join(dir, 'b.sarif');
  fs.writeFileSync(baseFile, (await run({ format: 'sarif' })).out);
  fs.writeFileSync(file, PR);
  const r = await run({ format: 'sarif', baseline: baseFile });
  const sarif = JSON.parse(r.out);
  assert.ok(validateSarif(sarif), JSON.stringify(validateSarif.errors?.slice(0, 3)));
  const states = sarif.runs[0].results
    .filter((x: any) => x.ruleId === 'solhint-check-send-result')
    .map((x: any) => x.baselineState)
    .sort();
  assert.deepEqual(states, ['new', 'unchanged']);
  assert.equal(sarif.runs[0].properties.baseline.known, 1);

  const md = await run({ format: 'markdown', baseline: baseFile });
  assert.match(md.out, /1 finding already known is not listed/);
});

test('a missing, unreadable, non-JSON or foreign baseline is exit 2 with a clear message, before any analysis', async () => {
  fs.writeFileSync(file, BASE);
  const cases: Array<[string, string | null, RegExp]> = [
    ['missing.json', null, /baseline file not found: .*missing\.json/],
    ['report.md', '# vigil quick analysis: A\n', /not JSON \(it looks like a Markdown report\)/],
    ['slither.json', JSON.stringify({ success: true, error: null, results: { detectors: [] } }), /not a vigil output/],
    [
      'other.sarif',
      JSON.stringify({ version: '2.1.0', runs: [{ tool: { driver: { name: 'Slither' } }, results: [] }] }),
      /SARIF log from Slither, not from vigil/,
    ],
    ['list.json', '[1,2]', /not a vigil JSON or SARIF output/],
  ];
  for (const [name, content, re] of cases) {
    const p = path.join(dir, name);
    if (content !== null) fs.writeFileSync(p, content);
    const r = await run({ baseline: p, failOn: 'low' });
    assert.equal(r.code, 2, name);
    assert.match(r.err, re, name);
    assert.equal(r.out, '', `${name}: nothing on stdout`);
  }
  const r = await run({ baseline: dir });
  assert.equal(r.code, 2);
  assert.match(r.err, /is a folder/);
});

test('markdown wording: singular/plural layers, no "(layers 1)"', () => {
  const f = (layers: number[]): Finding => ({
    id: 'x',
    title: 'T',
    description: 'd',
    severity: 'LOW',
    confidence: 0.5,
    category: 'other',
    location: { file: 'A.sol', line: 1, end_line: 1 },
    tools: ['t'],
    layers,
    recommendation: '',
  });
  const md = toMarkdown({
    audit_id: 'a',
    audit_type: 'quick',
    contract: { name: 'A', sha256: '0', pragma: null, compiler: null },
    layers: [1],
    tools: ['t'],
    results: [],
    findings: [f([1]), f([1, 3]), f([1, 3, 7])],
    summary: { CRITICAL: 0, HIGH: 0, MEDIUM: 0, LOW: 3, INFO: 0 },
    total_findings: 3,
    execution_time: 1,
    timestamp: 't',
    version: '0',
  });
  assert.doesNotMatch(md, /\(layers 1\)/);
  assert.match(md, /Reported by:\*\* t · layer 1 \(Static Analysis\)\n/);
  assert.match(md, /layers 1 \(Static Analysis\) and 3 \(Symbolic Execution\)\n/);
  assert.match(md, /layers 1 \(Static Analysis\), 3 \(Symbolic Execution\) and 7 \(Specialized Analysis\)\n/);
});

test('markdown for a folder: a Files section with each file, its compiler and its reported findings; suppressed ones listed last', () => {
  const f = (file: string, line: number): Finding => ({
    id: `${file}${line}`,
    title: 'T',
    description: 'd',
    severity: 'HIGH',
    confidence: 0.5,
    category: 'other',
    location: { file, line, end_line: line },
    tools: ['t'],
    layers: [1],
    recommendation: '',
  });
  const md = toMarkdown({
    audit_id: 'a',
    audit_type: 'quick',
    contract: { name: 'src', sha256: '0', pragma: null, compiler: '0.5.17' },
    layers: [1],
    tools: ['t'],
    results: [],
    findings: [f('src/A.sol', 3), f('src/A.sol', 9)],
    summary: { CRITICAL: 0, HIGH: 2, MEDIUM: 0, LOW: 0, INFO: 0 },
    total_findings: 2,
    execution_time: 1,
    timestamp: 't',
    version: '0',
    files: [
      { file: 'src/A.sol', contract: { compiler: '0.5.17' }, compilation: { ok: true } },
      { file: 'src/B.sol', contract: null, compilation: { ok: false, note: 'compilation failed (missing import "x.sol")' } },
    ],
    suppressed: [{ ...f('src/B.sol', 4), suppression: { kind: 'inSource', directive: 'vigil-disable-next-line', line: 3, rules: [] } }],
  });
  assert.match(md, /\| Pragma \| per file \|/);
  assert.match(
    md,
    /## Files\n\n\| File \| Compiler \| Findings \| Note \|\n\|---\|---\|---:\|---\|\n\| src\/A\.sol \| 0\.5\.17 \| 2 \| {2}\|\n\| src\/B\.sol \| none \| 0 \| compilation failed \(missing import "x\.sol"\) \|/,
  );
  assert.match(md, /1 finding suppressed by comments in the source is not counted/);
  assert.match(md, /## Suppressed in source[\s\S]*\| HIGH \| T \| src\/B\.sol:4 \| vigil-disable-next-line \(line 3\) \|/);
});
