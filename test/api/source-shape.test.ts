// The cheap pre-parse scan of lib/analysis/contract-input.ts: what it refuses (with line and
// column), what it skips (comments, strings), and that no real contract — every .sol file in the
// repository and in the shared datasets (SmartBugs, SWC registry, real-world) — is refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { HttpError } from '../../kernel/index.ts';
import { checkSourceShape, SOURCE_LIMITS } from '../../lib/analysis/contract-input.ts';
import { DATASETS, REPO_ROOT, solFiles } from '../support.ts';

const root = REPO_ROOT;
const datasets = DATASETS;

const refusal = (src: string) => {
  try {
    checkSourceShape(src, 'contract_code');
  } catch (e) {
    assert.ok(e instanceof HttpError && e.statusCode === 400 && e.code === 'source_too_complex', String(e));
    return e;
  }
  return null;
};

test('deep nesting, long operator chains and too many tokens are refused with the position', () => {
  const deep = refusal(
    `contract C {\n  function f(uint a) public pure returns (uint) {\n    return ${'('.repeat(500)}a${')'.repeat(500)};\n  }\n}`,
  );
  assert.ok(deep);
  assert.deepEqual(
    { line: deep.details!.line, column: deep.details!.column, limit: deep.details!.limit },
    { line: 3, column: 11 + SOURCE_LIMITS.maxNesting - 2 + 1, limit: 128 },
  );
  const chain = refusal(`contract C {\n  function f(uint a) public pure returns (uint) {\n    return a${' + a'.repeat(600)};\n  }\n}`);
  assert.ok(chain);
  assert.match(chain.message, /one statement \(starting at line 2, column \d+\) has more than 512 operators/);
  const many = refusal(`contract C { function f() public { ${'x;'.repeat(130_000)} } }`);
  assert.ok(many);
  assert.match(many.message, /more than 250000 tokens/);
  // At the limits exactly: accepted.
  assert.equal(
    refusal(`contract C { function f(uint a) public pure returns (uint) { return ${'('.repeat(125)}a${')'.repeat(125)}; } }`),
    null,
  );
  assert.equal(refusal(`contract C { function f(uint a) public pure returns (uint) { return a${'+a'.repeat(512)}; } }`), null);
});

test('brackets and operators in comments and strings do not count', () => {
  const noise = '((((((((((+-*%[{'.repeat(100);
  assert.equal(
    refusal(
      `// ${noise}\n/* ${noise}\n${noise} */\ncontract C { string s = "${noise}"; string t = '${noise}'; string u = "esc \\" ${noise}"; }`,
    ),
    null,
  );
});

test('no contract in the repository or the datasets is refused', () => {
  const files = [...solFiles(root), ...solFiles(datasets)];
  assert.ok(files.length > 40, `only ${files.length} files found`);
  const refused = files.filter((f) => refusal(fs.readFileSync(f, 'utf8')) !== null);
  assert.deepEqual(refused, []);
});
