// detector-wasm-tx-origin end to end: the fixture contract is parsed by @solidity-parser/parser
// through the static engine, which collects the declared node types exactly as in production
// (lib/analysis/static/wasm-protocol.ts); the guest runs in ExtismWasmHost; its answer is mapped
// to findings. Every `// expect: <messageId>` line must be flagged, and nothing else.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { REPO_ROOT } from '../../kernel/wasm/build.ts';
import type { WasmInstance } from '../../kernel/wasm/host.ts';
import { analyzeSource } from '../../lib/analysis/static/engine.ts';
import { mapWasmFindings, wasmDetectorMeta } from '../../lib/analysis/static/wasm-protocol.ts';
import { pluginWasm } from './helpers.ts';

const dir = path.join(REPO_ROOT, 'plugins', 'detector-wasm-tx-origin');
const plugin = pluginWasm('detector-wasm-tx-origin');
const manifest = plugin.manifest;
let inst: WasmInstance;

before(async () => {
  inst = await plugin.load();
});
after(() => plugin.close());

async function run(source: string, file = 'c.sol') {
  const types: string[] = manifest.detector.node_types;
  const r = await analyzeSource(source, file, [], { collectNodes: [{ id: manifest.id, types }] });
  const input = r.wasmInputs[manifest.id];
  const output = await inst.callJson(manifest.detector.export, input);
  return { input, output: output as { findings: Array<{ messageId: string; nodeRef: number; data: Record<string, string> }> }, findings: mapWasmFindings(wasmDetectorMeta(manifest.id, manifest.detector), input, output, source) };
}

test('flags exactly the expect-marked lines of the fixture', async () => {
  const source = readFileSync(path.join(dir, 'fixtures', 'tx-origin.sol'), 'utf8');
  const expected: string[] = [];
  source.split('\n').forEach((l, i) => {
    const m = /\/\/ expect: (\w+)/.exec(l);
    if (m) expected.push(`${i + 1}:${m[1]}`);
  });
  assert.ok(expected.length >= 6, 'fixture has expectations');
  const { input, output, findings } = await run(source, 'tx-origin.sol');
  const byRef = new Map(input.nodes.map((n) => [n.ref, n]));
  const got = output.findings.map((f) => `${byRef.get(f.nodeRef)!.line}:${f.messageId}`).sort();
  assert.deepEqual(got, expected.sort());
  // Mapped findings carry the rule metadata, the filled message and the enclosing function.
  const withdraw = findings.find((f) => f.location.function === 'withdrawAll');
  assert.ok(withdraw);
  assert.equal(withdraw.severity, 'HIGH');
  assert.equal(withdraw.swc_id, 'SWC-115');
  assert.match(withdraw.description, /comparing tx\.origin == `owner`/);
  const role = findings.find((f) => f.location.function === 'roleOnly');
  assert.match(role!.description, /`roles\[role\]`/);
});

test('EOA checks, literals, logging and bookkeeping are not flagged', async () => {
  const { output } = await run(`pragma solidity ^0.8.0;
contract C {
  address owner; mapping(address => uint) seen; event E(address a);
  function f() external {
    require(msg.sender == tx.origin);
    require(tx.origin != address(0));
    seen[tx.origin] = block.number;
    emit E(tx.origin);
    owner = tx.origin;
  }
}`);
  assert.deepEqual(output.findings, []);
});

test('an unrelated contract gives no findings, an empty node list is fine', async () => {
  const { output } = await run('pragma solidity ^0.8.0; contract C { function f(uint a) external pure returns (uint) { return a + 1; } }');
  assert.deepEqual(output.findings, []);
  const empty = await inst.callJson<{ findings: unknown[] }>('detect', { file: 'x.sol', nodes: [] });
  assert.deepEqual(empty.findings, []);
});

test('malformed input is a guest error, not a crash', async () => {
  await assert.rejects(inst.callJson('detect', { file: 'x.sol' }), (e: any) => e.code === 'wasm_guest_error' && /nodes must be an array/.test(e.message));
  await assert.rejects(inst.call('detect', '{"nodes": [1, 2'), (e: any) => e.code === 'wasm_guest_error' && /not JSON/.test(e.message));
  // The instance is still healthy afterwards.
  const ok = await inst.callJson<{ findings: unknown[] }>('detect', { file: 'x.sol', nodes: [] });
  assert.deepEqual(ok.findings, []);
  assert.equal(inst.restarts, 0);
});
