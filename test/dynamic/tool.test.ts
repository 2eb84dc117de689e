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
import { budgetExhausted, ensureMinimum, MIN_SHARED_SLICE_MS, planSearch } from '../../plugins/tool-evm/outcome.ts';
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
  // A full-mode budget as generous as the tool's: this pins what is found, not how fast.
  const engine = createAnalysisEngine({ registry: { tools: () => [tool] }, pool, fullBudgetMs: 30_000 });
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

test("full mode's shared analysis budget: a campaign that starts with it spent runs its minimum, keeps its proofs and says it is partial", async () => {
  const takeover = fs.readFileSync(path.join(here, 'fixtures', 'owner-takeover.sol'), 'utf8');
  // The request has minutes left and the tool its own minute; the request's shared budget is spent.
  const r = await fuzzTask({
    source: takeover,
    file: 'Takeover.sol',
    deadline: Date.now() + 120_000,
    budgetMs: 60_000,
    budgetDeadline: Date.now() - 1000,
  });
  assert.equal(r.status, 'success', r.error ?? '');
  // Partial iff the budget ended it (a tiny contract may reach its coverage plateau first).
  if (r.meta.stopped === 'deadline')
    assert.match(
      String(r.meta.budget_exhausted),
      /the request's analysis budget was spent when the campaign could start; it was given its 1000 ms minimum/,
    );
  else assert.equal(r.meta.budget_exhausted, undefined);
  for (const f of r.findings) assert.equal((f.evidence as any).replayed, true, 'what was proved is kept, replayed');
});

test('budget plan: the earliest bound wins; a spent shared budget still buys the minimum; only the request deadline is a timeout', () => {
  const now = Date.now();
  // The shared budget ends first: a planned end (partial result), not a timeout.
  assert.deepEqual(planSearch(now, now + 60_000, 5000, now + 2000), { deadline: now + 2000, bound: 'shared', late: false });
  // The tool's own budget ends first.
  assert.deepEqual(planSearch(now, now + 60_000, 5000, now + 9000), { deadline: now + 5000, bound: 'own', late: false });
  // The request's deadline ends first: a timeout.
  assert.deepEqual(planSearch(now, now + 1000, 5000, now + 2000), { deadline: now + 1000, bound: 'request', late: false });
  // No budgets at all (the tool alone, no shared budget): the request's deadline.
  assert.equal(planSearch(now, now + 60_000).bound, 'request');
  // Spent before the search could begin: the minimum, as far as the request allows.
  const spent = ensureMinimum(planSearch(now, now + 60_000, 5000, now - 500), now + 60_000, 2500);
  assert.equal(spent.bound, 'shared');
  assert.equal(spent.late, true);
  assert.ok(spent.deadline >= now + MIN_SHARED_SLICE_MS && spent.deadline <= Date.now() + MIN_SHARED_SLICE_MS);
  assert.match(
    budgetExhausted(spent, 'campaign', 5000, 'after 3 sequences'),
    /analysis budget was spent .* was given its 1000 ms minimum and ended after 3 sequences/,
  );
  // ...and when the request cannot give it, the request's deadline is what ends it.
  const squeezed = ensureMinimum(planSearch(now, now + 200, 5000, now - 500), now + 200, 2500);
  assert.deepEqual([squeezed.bound, squeezed.deadline], ['request', now + 200]);
  // A plan with time left is not extended.
  const roomy = planSearch(now, now + 60_000, 5000, now + 30_000);
  assert.equal(ensureMinimum(roomy, now + 60_000, 2500), roomy);
  assert.match(budgetExhausted(roomy, 'campaign', 5000, 'after 9 sequences'), /^the 5000 ms budget ended the campaign after 9 sequences/);
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
