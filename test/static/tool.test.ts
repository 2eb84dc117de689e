// The vigil-static tool through the real kernel worker pool and registry, plus the WASM
// detector protocol (node serialization and answer mapping).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TinyWorkerPool } from '../../kernel/pool.ts';
import { Registry } from '../../kernel/registry.ts';
import { createStaticTool } from '../../plugins/static-analyzer/tool.ts';
import { REENTRANCY_SELF_TEST } from '../../lib/analysis/self-test.ts';
import { analyzeSource, discoverDetectorPlugins, mapWasmFindings, wasmDetectorMeta } from '../../lib/analysis/static/index.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const pool = new TinyWorkerPool({ maxThreads: 1 });
after(() => pool.close());

function registry() {
  const r = new Registry();
  for (const d of discoverDetectorPlugins(path.join(root, 'plugins')).filter((x) => x.runtime === 'ts')) r.detectorDescriptors.push(d);
  return r;
}

test('vigil-static runs in the worker pool and passes its self-test', { timeout: 120_000 }, async () => {
  const tool = createStaticTool({ pool, registry: registry() });
  assert.equal(tool.name, 'vigil-static');
  assert.equal(tool.layer, 1);
  assert.deepEqual(tool.modes, ['quick', 'full']);
  await tool.selfTest!();
  const out = await tool.run(
    { source: REENTRANCY_SELF_TEST, file: 'SelfTest.sol', sha256: 'x' },
    { signal: new AbortController().signal, deadline: Date.now() + 60_000 },
  );
  assert.equal(out.status, 'success');
  const re = out.findings.find((f) => f.category === 'reentrancy');
  assert.ok(re);
  assert.equal(re.location.file, 'SelfTest.sol');
  assert.equal(re.location.contract, 'SelfTest');
  assert.equal(re.location.function, 'withdraw');
});

test('a deadline that already passed is refused, not hung', async () => {
  const tool = createStaticTool({ pool, registry: registry() });
  await assert.rejects(() =>
    tool.run(
      { source: REENTRANCY_SELF_TEST, file: 'a.sol', sha256: 'x' },
      { signal: new AbortController().signal, deadline: Date.now() - 1 },
    ),
  );
});

test('wasm protocol: declared node types are serialized with refs and locations, answers map to findings', async () => {
  const src = 'contract A {\n  function f(address a) public {\n    a.delegatecall(msg.data);\n  }\n}\n';
  const r = await analyzeSource(src, 'A.sol', [], { collectNodes: [{ id: 'detector-wasm-x', types: ['MemberAccess'] }] });
  const input = r.wasmInputs['detector-wasm-x'];
  assert.equal(input.file, 'A.sol');
  const dc = input.nodes.find((n) => n.memberName === 'delegatecall')!;
  assert.ok(dc, 'MemberAccess nodes collected');
  assert.equal(dc.line, 3);
  assert.equal(dc.contract, 'A');
  assert.equal(dc.function, 'f');
  assert.ok(!('loc' in dc) && !('range' in dc));
  assert.equal(typeof dc.ref, 'number');
  const meta = wasmDetectorMeta('detector-wasm-x', {
    meta: {
      title: 'Delegatecall',
      description: 'd',
      recommendation: 'r',
      severity: 'HIGH',
      category: 'access_control',
      confidence: 0.7,
      messages: { m: 'on {{x}}' },
    },
  });
  const findings = mapWasmFindings(meta, input, { findings: [{ messageId: 'm', nodeRef: dc.ref, data: { x: 'a' } }] }, src);
  assert.equal(findings.length, 1);
  assert.equal(findings[0].location.line, 3);
  assert.equal(findings[0].category, 'access_control');
  assert.match(findings[0].description, /^on a/);
  assert.throws(() => mapWasmFindings(meta, input, { findings: [{ nodeRef: 99999 }] }, src), /nodeRef 99999/);
  assert.throws(() => mapWasmFindings(meta, input, 'nope', src), /output must be/);
  assert.throws(() => wasmDetectorMeta('w', { meta: { title: 'x' } }), /detector.meta is missing or invalid/);
});
