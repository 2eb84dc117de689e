// tool-evm: one plugin registers both EVM tools, reads the settings of the plugins it replaced
// (tool-fuzzer, tool-symbolic) and refuses a configuration that sets the same section twice.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bootKernel } from '../helpers.ts';
import { validateManifest } from '../../kernel/manifest.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const manifest = JSON.parse(fs.readFileSync(path.join(here, '../../plugins/tool-evm/plugin.json'), 'utf8'));

test('manifest: tools vigil-fuzz (layer 2) and vigil-symbolic (layer 3), full mode, valid', () => {
  assert.equal(validateManifest(manifest, 'tool-evm').ok, true);
  assert.deepEqual(manifest.tools, [
    { name: 'vigil-fuzz', layer: 2, modes: ['full'] },
    { name: 'vigil-symbolic', layer: 3, modes: ['full'] },
  ]);
  const both = validateManifest({ ...manifest, tool: { name: 'x', layer: 2 } }, 'tool-evm');
  assert.equal(both.ok, false);
});

test('boot: both tools registered by tool-evm', async () => {
  const k = await bootKernel({ only: ['tool-evm'] });
  try {
    assert.equal(k.registry.statuses.get('tool-evm')?.status, 'loaded');
    const tools = k.registry.tools().filter((t) => t.plugin === 'tool-evm');
    assert.deepEqual(tools.map((t) => [t.name, t.layer]).sort(), [
      ['vigil-fuzz', 2],
      ['vigil-symbolic', 3],
    ]);
  } finally {
    await k.stop();
  }
});

test('config: plugins.tool-symbolic is read as plugins.tool-evm.symbolic (enabled: false drops that tool)', async () => {
  const k = await bootKernel({ only: ['tool-evm'], settings: { overrides: { plugins: { 'tool-symbolic': { enabled: false } } } } });
  try {
    assert.equal(k.registry.statuses.get('tool-evm')?.status, 'loaded');
    assert.equal(k.registry.tool('vigil-symbolic'), undefined);
    assert.ok(k.registry.tool('vigil-fuzz'));
  } finally {
    await k.stop();
  }
});

test('config: an invalid old setting is reported against the new section', async () => {
  const k = await bootKernel({ only: ['tool-evm'], settings: { overrides: { plugins: { 'tool-fuzzer': { budget_ms: 5 } } } } });
  try {
    const st = k.registry.statuses.get('tool-evm');
    assert.equal(st?.status, 'error');
    assert.match(st?.error ?? '', /fuzz\/budget_ms|fuzz\.budget_ms|budget_ms/);
  } finally {
    await k.stop();
  }
});

test('config: the same section set under the old and the new id is a clear error', async () => {
  const k = await bootKernel({
    only: ['tool-evm'],
    settings: { overrides: { plugins: { 'tool-fuzzer': { budget_ms: 6000 }, 'tool-evm': { fuzz: { budget_ms: 7000 } } } } },
  });
  try {
    const st = k.registry.statuses.get('tool-evm');
    assert.equal(st?.status, 'error');
    assert.match(st?.error ?? '', /plugins\.tool-fuzzer and plugins\.tool-evm\.fuzz are both set/);
  } finally {
    await k.stop();
  }
});

test('full mode compiles once: both EVM tools take the engine compile instead of compiling again', async () => {
  const { createAnalysisEngine } = await import('../../plugins/analysis-engine/engine.ts');
  const { createFuzzTool } = await import('../../plugins/tool-evm/fuzz/tool.ts');
  const { createSymbolicTool } = await import('../../plugins/tool-evm/symbolic/tool.ts');
  const { compileMemoStats } = await import('../../lib/analysis/compiler/index.ts');
  // No pool: every compile runs in this thread, where the memo counts them.
  const engine = createAnalysisEngine({
    registry: { tools: () => [createFuzzTool({ pool: null, budgetMs: 10_000 }), createSymbolicTool({ pool: null, budgetMs: 60_000 })] },
    pool: null,
    // What is proved is pinned, not how fast: a full-mode budget as generous as the tools'.
    fullBudgetMs: 120_000,
  });
  const source =
    '// SPDX-License-Identifier: MIT\npragma solidity ^0.8.0;\ncontract Once {\n  function kill() external { selfdestruct(payable(msg.sender)); }\n}\n';
  const before = compileMemoStats();
  const r = await engine.analyze({ source, file: 'Once.sol' }, { mode: 'full', timeoutMs: 120_000 });
  const after = compileMemoStats();
  assert.deepEqual(
    r.results.map((t) => [t.tool, t.status]),
    [
      ['vigil-fuzz', 'success'],
      ['vigil-symbolic', 'success'],
    ],
  );
  // The engine's compile is the only one (a tool compiling again would be a memo hit here).
  assert.equal(after.misses - before.misses, 1);
  assert.equal(after.hits - before.hits, 0);
  // And both proved the unprotected selfdestruct from that compile.
  for (const tool of ['vigil-fuzz', 'vigil-symbolic'])
    assert.ok(
      r.findings.some((f) => f.tools.includes(tool) && f.location.line === 4),
      `${tool} found the selfdestruct: ${JSON.stringify(r.results.map((t) => [t.tool, t.error, t.findings.map((f) => f.location.line)]))}`,
    );
});
