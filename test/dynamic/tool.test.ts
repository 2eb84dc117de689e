// The vigil-fuzz tool as the engine runs it: in a real kernel worker pool, under the request
// deadline, steered by earlier layers' findings (input.prior), and through the analysis engine.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TinyWorkerPool } from '../../kernel/pool.ts';
import { createFuzzTool, DEFAULT_FUZZ_BUDGET_MS } from '../../plugins/tool-evm/fuzz/tool.ts';
import { fuzzProgram, fuzzTask } from '../../plugins/tool-evm/fuzz/task.ts';
import { compileProgram } from '../../plugins/tool-evm/evm/program.ts';
import { createAnalysisEngine } from '../../plugins/analysis-engine/engine.ts';
import type { Finding } from '../../schemas/finding.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const source = fs.readFileSync(path.join(here, 'fixtures', 'reentrancy.sol'), 'utf8');
const pool = new TinyWorkerPool({ maxThreads: 1 });
after(() => pool.close());

const manifest = JSON.parse(fs.readFileSync(path.join(here, '../../plugins/tool-evm/plugin.json'), 'utf8'));

test('manifest: tool vigil-fuzz, layer 2, full mode', () => {
  assert.equal(manifest.kind, 'tool');
  assert.deepEqual(
    manifest.tools.find((t: { name: string }) => t.name === 'vigil-fuzz'),
    { name: 'vigil-fuzz', layer: 2, modes: ['full'] },
  );
  const tool = createFuzzTool({ pool: null });
  assert.equal(tool.name, 'vigil-fuzz');
  assert.equal(tool.layer, 2);
  assert.deepEqual(tool.modes, ['full']);
  assert.equal(tool.builtin, true);
  assert.equal(tool.usesPrior, true);
});

test('runs in the worker pool, uses prior findings, answers before the deadline with a replayed proof', async () => {
  const tool = createFuzzTool({ pool, budgetMs: 60_000 });
  const prior = [{ location: { file: 'Bank.sol', line: 13, end_line: 13, contract: 'EtherBank', function: 'withdraw' } } as Finding];
  const deadline = Date.now() + 60_000;
  const r = await tool.run(
    { source, file: 'Bank.sol', sha256: '', prior },
    { signal: new AbortController().signal, deadline, mode: 'full' },
  );
  assert.ok(Date.now() <= deadline);
  // A plateau ends the run (success); on a loaded machine the request's deadline may end it
  // first, which is a timeout that still carries what was proved.
  assert.ok(r.status === 'success' || r.status === 'timeout', r.error ?? '');
  assert.deepEqual(r.meta?.prior_functions, ['withdraw']);
  const f = r.findings.find((x) => x.category === 'reentrancy');
  assert.ok(f);
  assert.equal(f.location.file, 'Bank.sol');
  assert.equal((f.evidence as any).replayed, true);
});

test('a short deadline is respected: the tool answers by then (timeout or what it proved)', async () => {
  const tool = createFuzzTool({ pool, budgetMs: 60_000 });
  const t0 = Date.now();
  const deadline = t0 + 4000;
  const r = await tool.run({ source, file: 'Bank.sol', sha256: '' }, { signal: new AbortController().signal, deadline, mode: 'full' });
  // The deadline, not the minute-long budget, ended it (how soon after the deadline is a timing,
  // which a loaded machine stretches: tests assert none).
  assert.ok(Date.now() - t0 < 30_000, `answered ${Date.now() - deadline} ms after the deadline`);
  assert.ok(['success', 'timeout'].includes(r.status!), `${r.status}: ${r.error}`);
});

test('through the engine in full mode: results carry vigil-fuzz with its findings', async () => {
  const tool = createFuzzTool({ pool, budgetMs: 30_000 });
  const engine = createAnalysisEngine({ registry: { tools: () => [tool] }, pool });
  try {
    const r = await engine.analyze({ source, file: 'Bank.sol' }, { mode: 'full', timeoutMs: 90_000 });
    const res = r.results.find((x) => x.tool === 'vigil-fuzz');
    assert.ok(res);
    assert.equal(res.status, 'success', res.error ?? '');
    assert.ok(r.findings.some((f) => f.category === 'reentrancy' && f.tools.includes('vigil-fuzz') && f.layers.includes(2)));
    assert.ok(r.layers.includes(2));
  } finally {
    engine.close();
  }
});

test('full mode budget: the default is a per-contract share, and it runs from when a worker starts the task', async () => {
  // The default lives in the code (plugins.tool-evm.fuzz.budget_ms overrides it).
  assert.equal(manifest.defaults.fuzz, undefined);
  assert.equal(manifest.config.properties.fuzz.properties.budget_ms.type, 'integer');
  assert.ok(DEFAULT_FUZZ_BUDGET_MS <= 5000);
  // A far request deadline does not stretch the run: the budget ends it.
  const t0 = Date.now();
  // (8 s, not the 5 s default: the budget includes compiling, which a loaded CI machine slows.)
  const r = await fuzzTask({ source, file: 'Bank.sol', deadline: Date.now() + 300_000, budgetMs: 8000 });
  // The budget, not the five-minute deadline, ended it (budgets run on CPU time, so a loaded
  // machine stretches the wall time: the bound is half the deadline, not budget + slack).
  assert.ok(Date.now() - t0 < 150_000, `took ${Date.now() - t0} ms on an 8 s budget`);
  assert.equal(r.status, 'success', r.error ?? '');
  // Queued behind another task in a one-worker pool, the task still gets its whole budget.
  const busy = new TinyWorkerPool({ maxThreads: 1 });
  try {
    const safe = fs.readFileSync(path.join(here, 'fixtures', 'safe.sol'), 'utf8');
    const blocker = busy.run(path.join(here, '../../plugins/tool-evm/fuzz/task.ts'), 'fuzzTask', {
      source: safe,
      file: 'Safe.sol',
      deadline: Date.now() + 60_000,
      budgetMs: 2500,
    });
    const tool = createFuzzTool({ pool: busy, budgetMs: 8000 });
    const out = await tool.run(
      { source, file: 'Bank.sol', sha256: '' },
      { signal: new AbortController().signal, deadline: Date.now() + 60_000, mode: 'full' },
    );
    await blocker;
    assert.equal(out.status, 'success', out.error ?? '');
    assert.ok(Number(out.meta?.sequences) > 0, 'it fuzzed after waiting for the worker');
  } finally {
    await busy.close();
  }
});

test('coverage plateau: a contract with nothing left to cover stops well before its deadline', async () => {
  const safe = fs.readFileSync(path.join(here, 'fixtures', 'safe.sol'), 'utf8');
  const { program, error } = compileProgram({ source: safe, file: 'Safe.sol' });
  assert.ok(program, error ?? '');
  const t0 = Date.now();
  // A plateau needs 150 sequences without new coverage; a loaded machine runs few a second, so the
  // deadline is far (on a quiet one the plateau ends the run at the same point either way).
  const r = await fuzzProgram(program, { deadline: Date.now() + 120_000 });
  // The plateau, not the deadline, stopped it (how soon is a timing; tests assert none).
  assert.equal(r.stats.stopped, 'plateau', `stopped by ${r.stats.stopped} after ${Date.now() - t0} ms`);
});
