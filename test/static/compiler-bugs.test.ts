// The compiler-bug rules report only what the pragma lets a buggy compiler build: the same code
// pinned to a fixed compiler is clean, and a pragma that also admits fixed compilers lowers the
// severity (the outcome depends on the compiler chosen).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runDetector } from './helpers.ts';
import { storageSignedIntegerArrayDetector } from '../../plugins/detector-storage-signed-integer-array/index.ts';
import { abiEncoderV2ArrayDetector } from '../../plugins/detector-abiencoderv2-array/index.ts';
import { publicMappingsNestedDetector } from '../../plugins/detector-public-mappings-nested/index.ts';

const signed = (pragma: string) => `pragma solidity ${pragma};
contract P { int256[3] public penalty; function reset() public { penalty = [-2, -4, -8]; } }`;
const encoder = (pragma: string) => `pragma solidity ${pragma};
pragma experimental ABIEncoderV2;
contract B { uint256[2][3] internal grid; function g() public view returns (bytes memory) { return abi.encode(grid); } }`;
const nested = (pragma: string) => `pragma solidity ${pragma};
contract L { struct C { uint256 a; } struct Loan { address b; C c; } mapping(uint256 => Loan) public loans; }`;

const cases = [
  {
    d: storageSignedIntegerArrayDetector,
    src: signed,
    affected: '0.5.9',
    fixed: '0.5.10',
    mixed: '>=0.5.0 <0.6.0',
    high: 'HIGH',
    low: 'MEDIUM',
  },
  { d: abiEncoderV2ArrayDetector, src: encoder, affected: '^0.4.24', fixed: '^0.5.10', mixed: '^0.5.0', high: 'HIGH', low: 'MEDIUM' },
  {
    d: publicMappingsNestedDetector,
    src: nested,
    affected: '^0.4.24',
    fixed: '^0.5.0',
    mixed: '>=0.4.22 <0.6.0',
    high: 'MEDIUM',
    low: 'LOW',
  },
];

for (const k of cases)
  test(`${k.d.meta.id}: reported only for compilers with the bug, lower when a fixed one is admitted`, async () => {
    assert.deepEqual(
      (await runDetector(k.src(k.affected), k.d)).map((f) => f.severity),
      [k.high],
    );
    assert.deepEqual(await runDetector(k.src(k.fixed), k.d), []);
    assert.deepEqual(
      (await runDetector(k.src(k.mixed), k.d)).map((f) => f.severity),
      [k.low],
    );
  });

test('abiencoderv2-array needs the new encoder', async () => {
  const src = encoder('^0.4.24').replace('pragma experimental ABIEncoderV2;\n', '');
  assert.deepEqual(await runDetector(src, abiEncoderV2ArrayDetector), []);
});
