// The two-stage parser must be a drop-in for @solidity-parser/parser's own parse: identical trees,
// identical tolerant-mode errors, identical thrown errors. Here on every Solidity file of the
// repository and a fixed sample (every 6th file) of each dataset; `npm run bench:parser` compares
// every dataset file (2.6 MB, ~5x the CPU of this test).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import bundled from '@solidity-parser/parser';
import { parseSolidityText, twoStageParsing } from '../../lib/analysis/solidity-parser.ts';
import { bothParses, corpus, differing } from './parser-corpus.ts';

test('the two-stage SLL/LL path is the one in use', () => {
  assert.equal(twoStageParsing, true, 'antlr4 or the parser sources failed to load: parsing fell back to the slow bundled parser');
});

test('same tree as @solidity-parser/parser on every repository contract and a sample of each dataset', () => {
  const c = corpus(6);
  const files = [...c.repository, ...Object.values(c.datasets).flat()];
  assert.ok(files.length > 50, `expected Solidity files to compare, found ${files.length}`);
  assert.deepEqual(differing(files), []);
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
      const r = bothParses(src, opts);
      assert.equal(r.twoStage, r.bundled, `${JSON.stringify(src)} with ${JSON.stringify(opts)}`);
    }
  }
  assert.throws(
    () => parseSolidityText('contract {', {}),
    (e: unknown) => e instanceof bundled.ParserError,
  );
});
