// The two-stage parser must be a drop-in for @solidity-parser/parser's own parse: identical trees,
// identical tolerant-mode errors, identical thrown errors, on every Solidity file we can find.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import bundled from '@solidity-parser/parser';
import { parseSolidityText, twoStageParsing } from '../../lib/analysis/solidity-parser.ts';
import { DATASETS, REPO_ROOT, solFiles } from '../support.ts';

const root = REPO_ROOT;
const datasets = DATASETS;

const outcome = (fn: () => unknown) => {
  try {
    return JSON.stringify(fn());
  } catch (e) {
    const err = e as Error & { errors?: unknown };
    return `throws ${err.constructor.name}: ${err.message} ${JSON.stringify(err.errors ?? null)}`;
  }
};

test('the two-stage SLL/LL path is the one in use', () => {
  assert.equal(twoStageParsing, true, 'antlr4 or the parser sources failed to load: parsing fell back to the slow bundled parser');
});

test('same tree as @solidity-parser/parser on every repository and dataset contract', () => {
  const files = [
    ...solFiles(path.join(root, 'plugins')),
    ...solFiles(path.join(root, 'test')),
    ...solFiles(path.join(root, 'examples')),
    ...solFiles(datasets),
  ];
  assert.ok(files.length > 50, `expected Solidity files to compare, found ${files.length}`);
  const opts = { loc: true, range: true, tolerant: true };
  const differ: string[] = [];
  for (const f of files) {
    const src = fs.readFileSync(f, 'utf8');
    if (outcome(() => bundled.parse(src, opts)) !== outcome(() => parseSolidityText(src, opts))) differ.push(path.relative(root, f));
  }
  assert.deepEqual(differ, []);
});

test('broken input: same tolerant errors and the same thrown ParserError', () => {
  const broken = [
    'contract A { function f() public { uint x = ; } }',
    'pragma solidity ^0.8.0;\ncontract B { function g( public {} }',
    'contract C { string s = "unterminated; }',
    'contract D { function h() { a[b] c; x = y z; } }',
    '',
    '// only a comment',
    'contract E { \u0000 }',
  ];
  for (const src of broken) {
    for (const opts of [{ loc: true, range: true, tolerant: true }, { loc: true }, {}]) {
      assert.equal(
        outcome(() => parseSolidityText(src, opts)),
        outcome(() => bundled.parse(src, opts)),
        `${JSON.stringify(src)} with ${JSON.stringify(opts)}`,
      );
    }
  }
  assert.throws(
    () => parseSolidityText('contract {', {}),
    (e: unknown) => e instanceof bundled.ParserError,
  );
});
