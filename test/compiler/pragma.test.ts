// Pragma resolution: which installed compiler a source gets, and why.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chooseCompiler as choose, extractPragma, blankPragmas, bundledCompilers } from '../../lib/analysis/compiler/index.ts';

// The bundled releases only: a release someone installed into the solc cache must not change these.
const chooseCompiler = (source: string) => choose(source, bundledCompilers());

const src = (pragma: string) => `${pragma}\ncontract C {}\n`;

test('every compiler alias in package.json is installed', () => {
  assert.deepEqual(
    bundledCompilers().map((c) => c.version),
    ['0.4.11', '0.4.18', '0.4.24', '0.4.26', '0.5.17', '0.6.12', '0.7.6', '0.8.30'],
  );
});

const table: Array<[string, string | null, RegExp]> = [
  ['pragma solidity ^0.4.19;', '0.4.26', /newest installed compiler that satisfies/],
  ['pragma solidity >=0.4.22 <0.6.0;', '0.5.17', /fallbacks: 0\.4\.26/],
  ['pragma solidity >= 0.4.22 < 0.6.0;', '0.5.17', /satisfies/],
  ['pragma solidity 0.4.24;', '0.4.24', /pins 0\.4\.24, which is installed/],
  ['pragma solidity =0.4.24;', '0.4.24', /pins/],
  ['pragma solidity 0.4.25;', '0.4.26', /0\.4\.25, which is not installed; used 0\.4\.26/],
  ['pragma solidity ^0.8.0;', '0.8.30', /satisfies/],
  ['pragma solidity ~0.4.11;', '0.4.26', /satisfies/],
  ['pragma solidity >=0.4.10 <0.4.20;', '0.4.18', /satisfies/],
  ['pragma solidity ^0.6.0;', '0.6.12', /satisfies/],
  ['pragma solidity ^0.3.0;', null, /pragma \^0\.3\.0: no installed compiler satisfies it; installed: 0\.4\.11, .*0\.8\.30/],
  ['pragma solidity >=0.9.0;', null, /no installed compiler satisfies/],
  ['pragma solidity 0.9.1;', null, /no installed compiler satisfies/],
  ['pragma solidity banana;', null, /not a valid version range/],
];

for (const [pragma, version, reason] of table) {
  test(`resolves "${pragma}"`, () => {
    const c = chooseCompiler(src(pragma));
    assert.equal(c.ok, version !== null, c.reason);
    assert.equal(c.candidates[0]?.version ?? null, version);
    assert.match(c.reason, reason);
  });
}

test('several pragma statements must all hold', () => {
  const c = chooseCompiler('pragma solidity >=0.4.0;\npragma solidity <0.6.0;\ncontract C {}');
  assert.equal(c.candidates[0].version, '0.5.17');
});

test('no pragma: newest first, then the 0.4 series, every series tried', () => {
  const c = chooseCompiler('contract C { function f() { throw; } }');
  assert.ok(c.ok);
  assert.deepEqual(c.candidates.map((x) => x.version).slice(0, 2), ['0.8.30', '0.4.26']);
  assert.equal(c.candidates.length, 5);
  assert.match(c.reason, /no pragma solidity/);
});

test('pragmas inside comments and strings are ignored', () => {
  const p = extractPragma(
    '// pragma solidity ^0.5.0;\n/* pragma solidity 0.6.0; */\nstring constant s = "pragma solidity 0.7.0;";\npragma solidity ^0.4.24;\n',
  );
  assert.equal(p.text, '^0.4.24');
  assert.equal(p.statements[0].line, 4);
});

test('blanking a pragma keeps every offset and line', () => {
  const s = 'pragma solidity 0.4.25;\ncontract C {}\n';
  const b = blankPragmas(s);
  assert.equal(b.length, s.length);
  assert.equal(b.split('\n').length, s.split('\n').length);
  assert.ok(!b.includes('pragma'));
});
