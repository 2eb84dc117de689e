// skill-wasm-units through the WASM host: exact conversions both ways, hex in and out, and
// clear guest errors for bad input.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { WasmInstance } from '../../kernel/wasm/host.ts';
import { pluginWasm } from './helpers.ts';

const plugin = pluginWasm('skill-wasm-units');
const manifest = plugin.manifest;
let inst: WasmInstance;

before(async () => {
  inst = await plugin.load();
});
after(() => plugin.close());

const convert = (value: unknown, from: string, to: string) => inst.callJson<{ value: string; unit: string; integer: boolean; hex?: string }>(manifest.skill.export, { value, from, to });

test('converts exactly where floating point would not', async () => {
  assert.deepEqual(await convert('1.5', 'ether', 'wei'), { value: '1500000000000000000', unit: 'wei', integer: true, hex: '0x14d1120d7b160000' });
  assert.equal((await convert('0.1', 'ether', 'wei')).value, '100000000000000000');
  assert.equal((await convert('1', 'wei', 'ether')).value, '0.000000000000000001');
  assert.equal((await convert('123456789', 'gwei', 'ether')).value, '0.123456789');
  assert.equal((await convert('2e-3', 'ether', 'finney')).value, '2');
  assert.equal((await convert('-0.5', 'ether', 'gwei')).value, '-500000000');
  assert.equal((await convert('000.000', 'ether', 'wei')).value, '0');
  // Larger than any float or u64: still exact.
  const big = '123456789012345678901234567890.123456789012345678';
  assert.equal((await convert(big, 'ether', 'wei')).value, '123456789012345678901234567890123456789012345678');
  assert.equal((await convert((await convert(big, 'ether', 'wei')).value, 'wei', 'ether')).value, big);
});

test('hex wei in, hex out for whole numbers', async () => {
  assert.deepEqual(await convert('0x1bc16d674ec80000', 'wei', 'ether'), { value: '2', unit: 'ether', integer: true, hex: '0x2' });
  assert.equal((await convert('0xDE0B6B3A7640000', 'wei', 'wei')).value, '1000000000000000000');
  const r = await convert('1', 'gwei', 'ether');
  assert.equal(r.integer, false);
  assert.equal(r.hex, undefined);
  assert.equal((await convert('0', 'wei', 'wei')).hex, '0x0');
});

test('bad input is a guest error naming the problem', async () => {
  const bad = async (input: unknown, re: RegExp) =>
    assert.rejects(inst.callJson('call', input), (e: any) => e.code === 'wasm_guest_error' && re.test(e.message));
  await bad({ value: '1', from: 'ether', to: 'bitcoin' }, /from and to must be units/);
  await bad({ value: '1.2.3', from: 'ether', to: 'wei' }, /unexpected characters/);
  await bad({ value: '0xZZ', from: 'wei', to: 'ether' }, /not a valid hex/);
  await bad({ value: '', from: 'wei', to: 'ether' }, /empty/);
  await bad({ value: '1'.repeat(201), from: 'wei', to: 'ether' }, /longer than 200/);
  await bad({ value: '1e99999', from: 'wei', to: 'ether' }, /bad exponent/);
  await bad({ from: 'wei', to: 'ether' }, /value must be a string/);
  await bad([1, 2], /JSON object/);
  assert.equal(inst.restarts, 0, 'errors never crash the instance');
});
