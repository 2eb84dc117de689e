// In-source suppressions: vigil's own comments, Slither's and solhint's honoured for the matching
// vigil detectors; suppressed findings leave `findings`/`summary` and the exit code but stay
// listed (JSON `suppressed`, SARIF `suppressions`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { applySuppressions, parseSuppressions, scanComments } from '../../plugins/analysis-engine/suppress.ts';
import { runAnalyzeCommand } from '../../plugins/analysis-engine/cli-analyze.ts';
import { createAnalysisEngine } from '../../plugins/analysis-engine/engine.ts';
import { createSolhintTool } from '../../plugins/tool-solhint/solhint.ts';
import type { AnalysisResult } from '../../kernel/index.ts';
import type { Finding } from '../../schemas/finding.ts';
import { capture, validateSarif } from './helpers.ts';

const finding = (line: number, over: Partial<Finding> = {}): Finding => ({
  id: `id-${line}-${over.detector ?? 'reentrancy'}`,
  detector: 'reentrancy',
  title: 'Reentrancy',
  description: 'd',
  severity: 'HIGH',
  confidence: 0.9,
  category: 'reentrancy',
  swc_id: 'SWC-107',
  cwe_id: null,
  location: { file: 'C.sol', line, end_line: line, contract: 'C', function: 'f' },
  tools: ['vigil-static'],
  layers: [1],
  recommendation: '',
  ...over,
});

const result = (findings: Finding[]): AnalysisResult => ({
  audit_id: 'a',
  audit_type: 'quick',
  contract: { name: 'C', sha256: '0', pragma: null, compiler: null },
  layers: [1],
  tools: ['vigil-static'],
  results: [],
  findings,
  summary: { CRITICAL: 0, HIGH: findings.length, MEDIUM: 0, LOW: 0, INFO: 0 },
  total_findings: findings.length,
  execution_time: 0,
  timestamp: '',
  version: '0',
});

/** Which of the given lines' findings survive the comments in `source`. */
function kept(source: string, findings: Finding[]): number[] {
  const r = applySuppressions(result(findings), { 'C.sol': source });
  assert.equal(r.total_findings, r.findings.length);
  assert.equal((r.suppressed as unknown[]).length + r.findings.length, findings.length, 'nothing is lost');
  return r.findings.map((f) => f.location.line);
}

test('comments are found outside string literals, in // and /* */ form, with their lines', () => {
  const src = 'a = "// vigil-disable-line";\n/* vigil-disable-next-line\n   reentrancy */\nb; // x\n';
  const cs = scanComments(src);
  assert.deepEqual(
    cs.map((c) => [c.line, c.endLine]),
    [
      [2, 3],
      [4, 4],
    ],
  );
  // the string on line 1 is not a directive; the block comment ending on line 3 targets line 4
  assert.deepEqual(
    parseSuppressions(src).map((s) => [s.directive, s.from, s.to, s.tokens]),
    [['vigil-disable-next-line', 4, 4, ['reentrancy']]],
  );
});

test('vigil-disable-next-line / -line / -start..-end, with and without names', () => {
  const lines = [
    'contract C {', //                                      1
    '  // vigil-disable-next-line', //                      2  all names
    '  x;', //                                              3
    '  y; // vigil-disable-line reentrancy', //             4
    '  z; // vigil-disable-line tx-origin', //              5  other detector: kept
    '  // vigil-disable-start SWC-107, access_control', //  6
    '  a;', //                                              7
    '  // vigil-disable-end', //                            8
    '  b;', //                                              9
    '}',
  ];
  const src = lines.join('\n');
  assert.deepEqual(
    kept(
      src,
      [3, 4, 5, 7, 9].map((l) => finding(l)),
    ),
    [5, 9],
  );
});

test('names match a finding id, detector, category (either spelling) or SWC id, and nothing else', () => {
  const at = (comment: string, f: Finding) => kept(`// ${comment}\nx;\n`, [f]).length === 0;
  const f = finding(2, { id: '0123456789abcdef', detector: 'tx-origin', category: 'access_control', swc_id: 'SWC-115' });
  for (const name of ['0123456789abcdef', 'tx-origin', 'TX-ORIGIN', 'access_control', 'access-control', 'swc-115'])
    assert.ok(at(`vigil-disable-next-line ${name}`, f), name);
  for (const name of ['reentrancy', 'SWC-107', 'tx', '0123']) assert.ok(!at(`vigil-disable-next-line ${name}`, f), name);
});

test('a justification after -- is kept with the suppressed finding', () => {
  const r = applySuppressions(result([finding(2)]), {
    'C.sol': '// vigil-disable-next-line reentrancy -- guarded by nonReentrant in the base\nx;\n',
  });
  const s = (r.suppressed as Array<Finding & { suppression: Record<string, unknown> }>)[0];
  assert.deepEqual(s.suppression, {
    kind: 'inSource',
    directive: 'vigil-disable-next-line',
    line: 1,
    rules: ['reentrancy'],
    justification: 'guarded by nonReentrant in the base',
  });
  assert.equal(r.total_suppressed, 1);
  assert.deepEqual(r.summary, { CRITICAL: 0, HIGH: 0, MEDIUM: 0, LOW: 0, INFO: 0 });
});

test("Slither's comments: mapped detectors only, comma lists, `all`, a bare directive does nothing (as in Slither)", () => {
  const reent = finding(2);
  const origin = finding(2, { detector: 'tx-origin', category: 'access_control', swc_id: 'SWC-115' });
  const overflow = finding(2, { detector: 'integer-overflow', category: 'arithmetic', swc_id: 'SWC-101' });
  const src = (c: string) => `// ${c}\nx;\n`;
  assert.deepEqual(kept(src('slither-disable-next-line reentrancy-eth'), [reent, origin]).length, 1);
  assert.equal(kept(src('slither-disable-next-line reentrancy-no-eth,tx-origin'), [reent, origin]).length, 0);
  assert.equal(
    kept(src('slither-disable-next-line naming-convention'), [reent, origin]).length,
    2,
    'no vigil counterpart: nothing of ours',
  );
  assert.equal(kept(src('slither-disable-next-line'), [reent]).length, 1, 'Slither ignores a bare directive');
  // `all`: every detector Slither has a counterpart for; integer overflow has none in Slither
  assert.deepEqual(kept(src('slither-disable-next-line all'), [reent, origin, overflow]), [2]);
  // the adapter's own finding is matched by its name
  assert.equal(
    kept(src('slither-disable-next-line locked-ether'), [finding(2, { detector: 'slither-locked-ether', category: 'other', swc_id: null })])
      .length,
    0,
  );
  const range = '// slither-disable-start timestamp\na;\n// slither-disable-end timestamp\nb;\n';
  const ts = (l: number) => finding(l, { detector: 'timestamp-dependence', category: 'time_manipulation', swc_id: 'SWC-116' });
  assert.deepEqual(kept(range, [ts(2), ts(4)]), [4]);
});

test('a next-line comment above a function covers its body (Slither reports from the function)', () => {
  const src = [
    'contract C {',
    '  // slither-disable-next-line reentrancy-eth',
    '  function f() public {',
    '    a();',
    '    b = 1;',
    '  }',
    '  function g() public { a(); b = 1; }',
    '}',
  ].join('\n');
  assert.deepEqual(kept(src, [finding(4), finding(7)]), [7]);
});

test("solhint's comments: per rule, `solhint-disable`/`enable` ranges, a bare disable = every solhint rule's counterpart", () => {
  const origin = (l: number) => finding(l, { detector: 'tx-origin', category: 'access_control', swc_id: 'SWC-115' });
  const overflow = (l: number) => finding(l, { detector: 'integer-overflow', category: 'arithmetic', swc_id: 'SWC-101' });
  assert.deepEqual(kept('// solhint-disable-next-line avoid-tx-origin\nx;\ny;\n', [origin(2), origin(3)]), [3]);
  assert.deepEqual(kept('x; // solhint-disable-line avoid-tx-origin\n', [origin(1)]), []);
  assert.deepEqual(kept('x;\n// solhint-disable-previous-line avoid-tx-origin\n', [origin(1)]), []);
  const range = '/* solhint-disable avoid-tx-origin */\na;\n/* solhint-enable avoid-tx-origin */\nb;\n';
  assert.deepEqual(kept(range, [origin(2), origin(4)]), [4]);
  // `/* solhint-disable */` at the top of a file silences solhint's rules, not vigil's overflow rule
  assert.deepEqual(kept('/* solhint-disable */\na;\nb;\n', [origin(2), overflow(3)]), [3]);
});

test('applySuppressions is idempotent and keeps earlier suppressed findings', () => {
  const src = '// vigil-disable-next-line\nx;\ny;\n';
  const r = applySuppressions(result([finding(2), finding(3)]), { 'C.sol': src });
  applySuppressions(r, { 'C.sol': src });
  assert.equal((r.suppressed as unknown[]).length, 1);
  assert.equal(r.findings.length, 1);
});

// ---- end to end through `vigil analyze` (the engine with the real solhint tool) -------------

const engine = createAnalysisEngine({ registry: { tools: () => [createSolhintTool({ pool: null })] }, pool: null, version: '0.1.0' });
const SEND = (comment: string) =>
  `pragma solidity ^0.8.0;\ncontract A {\n  address payable owner;\n  function f() public {\n    ${comment}\n    owner.send(1);\n  }\n}\n`;

test('vigil analyze: a suppressed finding is not counted or failed on, and JSON lists it under suppressed', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-sup-'));
  try {
    const plain = path.join(dir, 'Plain.sol');
    const quiet = path.join(dir, 'Quiet.sol');
    fs.writeFileSync(plain, SEND('// nothing to see'));
    fs.writeFileSync(quiet, SEND('// vigil-disable-next-line unchecked_low_level_calls -- the owner is an EOA we control'));
    const a = capture();
    assert.equal(await runAnalyzeCommand(engine, plain, { failOn: 'medium' }, a.io), 1, a.err());
    assert.ok(JSON.parse(a.out()).findings.some((f: Finding) => f.detector === 'solhint-check-send-result'));

    const b = capture();
    assert.equal(await runAnalyzeCommand(engine, quiet, { failOn: 'medium' }, b.io), 0, b.err());
    const body = JSON.parse(b.out());
    assert.equal(
      body.findings.some((f: Finding) => f.detector === 'solhint-check-send-result'),
      false,
    );
    assert.equal(body.total_suppressed, 1);
    assert.equal(body.suppressed[0].suppression.justification, 'the owner is an EOA we control');
    assert.equal(body.summary.MEDIUM, 0);
    assert.match(b.err(), /1 finding suppressed by comments in the source/);

    // SARIF keeps it with an inSource suppression, and the log still validates against the schema.
    const c = capture();
    assert.equal(await runAnalyzeCommand(engine, quiet, { format: 'sarif' }, c.io), 0, c.err());
    const sarif = JSON.parse(c.out());
    assert.ok(validateSarif(sarif), JSON.stringify(validateSarif.errors?.slice(0, 3)));
    const res = sarif.runs[0].results.find((r: any) => r.ruleId === 'solhint-check-send-result');
    assert.equal(res.suppressions[0].kind, 'inSource');
    assert.equal(res.suppressions[0].justification, 'the owner is an EOA we control');

    // In a folder the comments of each file apply to that file's findings only.
    const d = capture();
    assert.equal(await runAnalyzeCommand(engine, dir, { failOn: 'medium' }, d.io), 1, d.err());
    const folder = JSON.parse(d.out());
    assert.deepEqual(
      folder.findings.filter((f: Finding) => f.detector === 'solhint-check-send-result').map((f: Finding) => f.location.file),
      ['Plain.sol'],
    );
    assert.deepEqual(
      folder.suppressed.map((f: Finding) => f.location.file),
      ['Quiet.sol'],
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
