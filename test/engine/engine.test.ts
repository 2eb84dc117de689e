// The analysis engine against a registry view holding real tools (solc SMTChecker, solhint) and
// small purpose-built tools that hang, crash or are missing, as real plugins can.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createAnalysisEngine } from '../../plugins/analysis-engine/engine.ts';
import { createSmtCheckerTool } from '../../plugins/tool-smtchecker/smtchecker.ts';
import { createSolhintTool } from '../../plugins/tool-solhint/solhint.ts';
import { createSlitherAdapter } from '../../plugins/adapter-slither/adapter.ts';
import { TinyWorkerPool } from '../../kernel/pool.ts';
import type { AnalysisTool, Finding } from '../../kernel/index.ts';
import { ANALYSIS_RESULT_KEYS } from '../support.ts';

const pool = new TinyWorkerPool({ maxThreads: 2 });
after(() => pool.close());

const VAULT = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Vault {
    address owner;
    mapping(address => uint256) public balances;
    function withdraw(uint256 amount) public {
        require(tx.origin == owner);
        balances[msg.sender] -= amount;
        assert(amount != 13);
        payable(msg.sender).send(amount);
    }
}
`;

function sleeper(name: string, layer = 2): AnalysisTool {
  return {
    name,
    layer,
    description: 'waits until cancelled',
    builtin: false,
    modes: ['quick', 'full'],
    async availability() {
      return { available: true };
    },
    run: (_input, opts) =>
      new Promise((resolve) => {
        const t = setTimeout(() => resolve({ findings: [] }), 60_000);
        opts.signal.addEventListener('abort', () => {
          clearTimeout(t);
          resolve({ findings: [] });
        });
      }),
  };
}
const crasher: AnalysisTool = {
  name: 'crasher',
  layer: 3,
  description: 'throws',
  builtin: false,
  modes: ['full'],
  async availability() {
    return { available: true };
  },
  async run() {
    throw new Error('segfault in the symbolic engine');
  },
};
function reporter(name: string, layer: number, line: number, extra: Partial<Finding> = {}): AnalysisTool {
  return {
    name,
    layer,
    description: 'reports one finding',
    builtin: false,
    modes: ['full'],
    async availability() {
      return { available: true };
    },
    async run(input) {
      return {
        findings: [
          {
            id: `${name}-1`,
            title: 'tx.origin used for authorization',
            description: 'tx.origin',
            severity: 'HIGH',
            confidence: 0.6,
            category: 'access_control',
            location: { file: input.file, line, end_line: line, contract: 'Vault', function: 'withdraw' },
            tools: [name],
            layers: [layer],
            recommendation: 'use msg.sender',
            ...extra,
          },
        ],
      };
    },
  };
}

const smt = createSmtCheckerTool({ pool, quickBudgetMs: 30_000, fullBudgetMs: 100_000 });
const solhint = createSolhintTool({ pool });
const slither = createSlitherAdapter({ envPath: '/nonexistent' });

// A generous full-mode analysis budget: these tests pin what the tools find, not how fast (the
// shared budget has its own tests below).
function engineWith(tools: AnalysisTool[], extra: Record<string, unknown> = {}) {
  return createAnalysisEngine({ registry: { tools: () => tools }, pool, version: '9.9.9', fullBudgetMs: 120_000, ...extra });
}

test('quick mode leaves the model checker to full mode: only the pattern tools run', async () => {
  const engine = engineWith([smt, solhint, slither]);
  const r = await engine.analyze({ source: VAULT, file: 'Vault.sol' }, { mode: 'quick', timeoutMs: 90_000 });
  assert.deepEqual(r.tools, ['solhint', 'slither']);
  assert.deepEqual(r.layers, [1]);
  assert.ok(!r.results.some((x) => x.tool === 'smtchecker'));
  const solhintRun = r.results.find((x) => x.tool === 'solhint')!;
  assert.equal(solhintRun.status, 'success');
  assert.ok(solhintRun.findings.some((f) => f.detector === 'solhint-avoid-tx-origin' && f.location.line === 7));
});

test('full analysis: response shape, real findings from two layers, compilation, metrics and spans', async () => {
  const metrics = new Registry();
  const exporter = new InMemorySpanExporter();
  const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer('test');
  const engine = engineWith([smt, solhint, slither], { metrics, tracer });
  // A pure check at line 12 is violated from any state. `assert(amount != 13)` at line 9 is not
  // reachable (no balance can ever be funded, so the debit reverts first): BMC, which checks each
  // function from any state, still answers it, and the finding says so and ranks lower.
  const source = VAULT.replace(/}\n$/, '    function check(uint256 a) public pure { assert(a != 7); }\n}\n');
  const r = await engine.analyze({ source, file: 'Vault.sol' }, { mode: 'full', timeoutMs: 120_000 });
  for (const k of [...ANALYSIS_RESULT_KEYS, 'compilation']) assert.ok(k in r, `missing ${k}`);
  assert.equal(r.audit_type, 'full');
  assert.deepEqual(r.contract, { name: 'Vault', sha256: r.contract.sha256, pragma: '^0.8.0', compiler: '0.8.30' });
  assert.match(r.contract.sha256, /^[0-9a-f]{64}$/);
  assert.deepEqual(r.layers, [1, 4, 9]);
  assert.deepEqual(r.tools, ['smtchecker', 'solhint', 'slither']);
  const byTool = Object.fromEntries(r.results.map((x) => [x.tool, x]));
  assert.equal(byTool.smtchecker.status, 'success', byTool.smtchecker.error ?? '');
  assert.equal(byTool.solhint.status, 'success');
  assert.equal(byTool.slither.status, 'not_available');
  assert.match(byTool.slither.error!, /pip install slither-analyzer/);
  const asserts = byTool.smtchecker.findings.filter((f) => f.detector === 'smtchecker-assert');
  assert.ok(asserts.some((f) => f.location.line === 12));
  for (const f of asserts.filter((x) => x.location.line === 9)) {
    assert.match(f.description, /from any state/);
    assert.ok(f.confidence < 0.9 && f.severity !== 'HIGH', JSON.stringify(f));
  }
  assert.ok(byTool.solhint.findings.some((f) => f.detector === 'solhint-avoid-tx-origin' && f.location.line === 7));
  assert.equal(r.total_findings, r.findings.length);
  assert.equal(
    Object.values(r.summary).reduce((a, b) => a + b, 0),
    r.total_findings,
  );
  assert.equal(r.compilation!.ok, true);
  assert.equal(r.version, '9.9.9');
  const text = await metrics.metrics();
  assert.match(text, /vigil_analysis_duration_seconds_count\{audit_type="full"\} 1/);
  assert.match(text, /vigil_analysis_findings_total\{severity="MEDIUM"\} \d/);
  const names = exporter.getFinishedSpans().map((s) => s.name);
  assert.equal(names.filter((n) => n === 'analysis.run').length, 1);
  assert.equal(names.filter((n) => n === 'analysis.tool').length, 3);
});

test('deadline: unfinished tools are "timeout", finished ones still come back', async () => {
  // The sleeper only ends when cancelled, so getting an answer at all shows the deadline ended it.
  // The finished tool is an in-process reporter: a real tool could itself miss a short deadline
  // on a loaded machine, which is not what this test is about.
  const engine = engineWith([reporter('patterns', 1, 7), sleeper('slowfuzz')]);
  const r = await engine.analyze({ source: VAULT, file: 'Vault.sol' }, { mode: 'full', timeoutMs: 10_000 });
  const byTool = Object.fromEntries(r.results.map((x) => [x.tool, x]));
  assert.equal(byTool.slowfuzz.status, 'timeout');
  assert.match(byTool.slowfuzz.error!, /did not finish within the 10 s budget/);
  assert.equal(byTool.patterns.status, 'success');
  assert.equal(r.total_findings, 1);
});

test('a crashing tool is status error with its message; the others are unaffected', async () => {
  const engine = engineWith([crasher, reporter('patterns', 1, 7)]);
  const r = await engine.analyze({ source: VAULT, file: 'Vault.sol' }, { mode: 'full', timeoutMs: 30_000 });
  const byTool = Object.fromEntries(r.results.map((x) => [x.tool, x]));
  assert.equal(byTool.crasher.status, 'error');
  assert.match(byTool.crasher.error!, /segfault in the symbolic engine/);
  assert.equal(byTool.patterns.status, 'success');
  assert.equal(r.total_findings, 1);
});

test('correlation: two tools reporting the same issue become one finding naming both', async () => {
  const engine = engineWith([
    reporter('patterns', 1, 7),
    reporter('prover', 4, 7, { confidence: 0.9, evidence: { kind: 'counterexample', counterexample: { caller: '0x1' } } }),
  ]);
  const r = await engine.analyze({ source: VAULT, file: 'Vault.sol' }, { mode: 'full', timeoutMs: 30_000 });
  assert.equal(r.total_findings, 1);
  const f = r.findings[0];
  assert.deepEqual([...f.tools].sort(), ['patterns', 'prover']);
  assert.deepEqual(f.layers, [1, 4]);
  assert.ok(f.confidence > 0.9);
  assert.deepEqual((f.evidence as any).counterexample, { caller: '0x1' });
  assert.ok(r.layers.includes(9));
});

test('code that fails to compile is still analysed on the parser AST, and the body says so', async () => {
  const engine = engineWith([solhint, smt]);
  const src = VAULT.replace('contract Vault', 'import "./Missing.sol";\ncontract Vault');
  const r = await engine.analyze({ source: src, file: 'Vault.sol' }, { mode: 'full', timeoutMs: 60_000 });
  assert.equal(r.compilation!.ok, false);
  assert.match(r.compilation!.note!, /missing import "Missing\.sol".*analysis ran on the parser AST only/);
  assert.ok(r.notes!.some((n) => /parser AST only/.test(n)));
  const byTool = Object.fromEntries(r.results.map((x) => [x.tool, x]));
  assert.equal(byTool.solhint.status, 'success');
  assert.ok(byTool.solhint.findings.some((f) => f.detector === 'solhint-avoid-tx-origin'));
  assert.equal(byTool.smtchecker.status, 'skipped');
  assert.equal(r.contract.compiler, '0.8.30');
});

test("a syntax error: 400 invalid_solidity with solc's message and position; no tool runs on it", async () => {
  const engine = engineWith([solhint]);
  await assert.rejects(
    engine.analyze(
      { source: 'pragma solidity ^0.8.0;\ncontract C {\n  function f( public {}\n}\n', file: 'C.sol' },
      { mode: 'quick', timeoutMs: 30_000 },
    ),
    (e: any) =>
      e.statusCode === 400 &&
      e.code === 'invalid_solidity' &&
      /^C\.sol is not valid Solidity: ParserError: /.test(e.message) &&
      e.details.errors[0].file === 'C.sol' &&
      e.details.errors[0].line === 3 &&
      !/Cannot read properties/.test(e.message),
  );
});

test('bad input: empty, binary, oversized, unknown tool, bad layer', async () => {
  const engine = engineWith([solhint]);
  const opts = { mode: 'quick' as const, timeoutMs: 10_000 };
  await assert.rejects(
    engine.analyze({ source: '   \n', file: 'E.sol' }, opts),
    (e: any) => e.statusCode === 400 && /empty/.test(e.message),
  );
  await assert.rejects(
    engine.analyze({ source: 'contract C {}\u0000', file: 'B.sol' }, opts),
    (e: any) => e.statusCode === 400 && /binary/.test(e.message),
  );
  await assert.rejects(
    engine.analyze({ source: 'x'.repeat(1024 * 1024 + 1), file: 'Big.sol' }, opts),
    (e: any) => e.statusCode === 413 && e.code === 'payload_too_large',
  );
  await assert.rejects(
    engine.analyze({ source: VAULT, file: 'V.sol' }, { mode: 'tool', tool: 'nope', timeoutMs: 1000 }),
    (e: any) => e.statusCode === 404 && /no analysis tool named "nope"; available: solhint/.test(e.message),
  );
  await assert.rejects(
    engine.analyze({ source: VAULT, file: 'V.sol' }, { mode: 'layer', layer: 10, timeoutMs: 1000 }),
    (e: any) => e.statusCode === 400 && e.code === 'unknown_layer',
  );
});

test('selection: layer N runs that layer, tool runs one tool, quick skips full-only tools', async () => {
  const tools = [reporter('a1', 1, 7), reporter('b4', 4, 7), { ...reporter('q1', 1, 8), modes: ['quick' as const, 'full' as const] }];
  const engine = engineWith(tools);
  const src = { source: VAULT, file: 'Vault.sol' };
  assert.deepEqual((await engine.analyze(src, { mode: 'layer', layer: 4, timeoutMs: 5000 })).tools, ['b4']);
  assert.deepEqual((await engine.analyze(src, { mode: 'tool', tool: 'a1', timeoutMs: 5000 })).tools, ['a1']);
  assert.deepEqual((await engine.analyze(src, { mode: 'quick', timeoutMs: 5000 })).tools, ['q1']);
  assert.deepEqual((await engine.analyze(src, { mode: 'layer', layer: 9, timeoutMs: 5000 })).tools, ['a1', 'b4', 'q1']);
});

test('tools that use prior findings start after layer 1 and receive its findings', async () => {
  let seen: Finding[] | undefined;
  const consumer: AnalysisTool = {
    name: 'ai',
    layer: 5,
    description: 'reads prior',
    builtin: false,
    modes: ['full'],
    usesPrior: true,
    async availability() {
      return { available: true };
    },
    async run(input) {
      seen = input.prior;
      return { findings: [] };
    },
  };
  const engine = engineWith([consumer, reporter('patterns', 1, 7)]);
  await engine.analyze({ source: VAULT, file: 'Vault.sol' }, { mode: 'full', timeoutMs: 10_000 });
  assert.equal(seen?.length, 1);
  assert.deepEqual(seen[0].tools, ['patterns']);
});

test('full mode: one analysis budget for the request, shared by every tool; a partial answer says so in the notes', async () => {
  const seen = new Map<string, { deadline: number; budgetDeadline?: number }>();
  const searcher = (name: string, layer: number, partial: string | null): AnalysisTool => ({
    ...reporter(name, layer, 1),
    modes: ['quick', 'full'],
    async run(_input, opts) {
      seen.set(name, { deadline: opts.deadline, budgetDeadline: opts.budgetDeadline });
      return { status: 'success', findings: [], meta: partial ? { budget_exhausted: partial } : {} };
    },
  });
  const tools = [searcher('fuzz', 2, 'the budget ended the campaign after 12 sequences'), searcher('smt', 4, null)];
  const engine = engineWith(tools, { fullBudgetMs: 2000 });
  const t0 = Date.now();
  const r = await engine.analyze({ source: VAULT, file: 'Vault.sol' }, { mode: 'full', timeoutMs: 60_000 });
  const fuzz = seen.get('fuzz')!;
  const smtRun = seen.get('smt')!;
  // The same budget end for both, from the request's start, well before the request's deadline.
  assert.equal(fuzz.budgetDeadline, smtRun.budgetDeadline);
  assert.ok(fuzz.budgetDeadline! >= t0 + 2000 && fuzz.budgetDeadline! < fuzz.deadline, JSON.stringify(fuzz));
  assert.deepEqual(
    r.results.map((x) => [x.tool, x.status]),
    [
      ['fuzz', 'success'],
      ['smt', 'success'],
    ],
  );
  assert.ok(r.notes?.includes('fuzz: partial result: the budget ended the campaign after 12 sequences'), JSON.stringify(r.notes));
  assert.ok(!r.notes?.some((n) => n.startsWith('smt:')), 'a complete answer gets no note');
  // The budget never outlasts the request: a shorter timeout is the budget's end too.
  await engine.analyze({ source: VAULT, file: 'Vault.sol' }, { mode: 'full', timeoutMs: 1500 });
  assert.ok(seen.get('fuzz')!.budgetDeadline! <= seen.get('fuzz')!.deadline);
  // Quick mode and a tool asked for by name keep their own budgets.
  seen.clear();
  await engine.analyze({ source: VAULT, file: 'Vault.sol' }, { mode: 'quick', timeoutMs: 60_000 });
  await engine.analyze({ source: VAULT, file: 'Vault.sol' }, { mode: 'tool', tool: 'smt', timeoutMs: 60_000 });
  assert.equal(seen.get('fuzz')?.budgetDeadline, undefined);
  assert.equal(seen.get('smt')?.budgetDeadline, undefined);
});

test('full mode: the deeper layers start after layer 1, in layer order, so the searches get the workers first', async () => {
  const order: string[] = [];
  let patternsDone = false;
  const patterns: AnalysisTool = {
    ...reporter('patterns', 1, 7),
    async run(input, opts) {
      order.push('patterns');
      await new Promise((r) => setTimeout(r, 200));
      patternsDone = true;
      return reporter('patterns', 1, 7).run(input, opts);
    },
  };
  const starter = (name: string, layer: number, usesPrior = false): AnalysisTool => ({
    ...reporter(name, layer, 1),
    usesPrior,
    async run() {
      order.push(`${name}${patternsDone ? '' : ' (before layer 1 answered)'}`);
      return { findings: [] };
    },
  });
  // Registered in an order that is not the layer order (as plugin discovery may give).
  const engine = engineWith([starter('ml', 6), starter('smt', 4), starter('symbolic', 3), starter('fuzz', 2, true), patterns]);
  await engine.analyze({ source: VAULT, file: 'Vault.sol' }, { mode: 'full', timeoutMs: 60_000 });
  assert.deepEqual(order, ['patterns', 'fuzz', 'symbolic', 'smt', 'ml']);
});

test('full mode: a bounded search (model checking) starts first with a reserved slice of the budget; the open-ended ones get none', async () => {
  const order: string[] = [];
  const seen = new Map<string, { budgetDeadline?: number; sliceDeadline?: number; at: number }>();
  const starter = (name: string, layer: number, extra: Partial<AnalysisTool> = {}): AnalysisTool => ({
    ...reporter(name, layer, 1),
    ...extra,
    async run(_input, opts) {
      order.push(name);
      seen.set(name, { budgetDeadline: opts.budgetDeadline, sliceDeadline: opts.sliceDeadline, at: Date.now() });
      return { findings: [] };
    },
  });
  const engine = engineWith(
    [starter('ml', 6), starter('smt', 4, { boundedSearch: true }), starter('symbolic', 3), starter('fuzz', 2, { usesPrior: true })],
    { fullBudgetMs: 4000 },
  );
  await engine.analyze({ source: VAULT, file: 'Vault.sol' }, { mode: 'full', timeoutMs: 60_000 });
  assert.deepEqual(order, ['smt', 'fuzz', 'symbolic', 'ml']);
  const s = seen.get('smt')!;
  // Half of what is left of the budget when it starts: after it, before the budget's end.
  const left = s.budgetDeadline! - s.at;
  assert.ok(s.sliceDeadline! > s.at && s.sliceDeadline! < s.budgetDeadline!, JSON.stringify(s));
  assert.ok(Math.abs(s.sliceDeadline! - s.at - left / 2) < 100, JSON.stringify(s));
  for (const t of ['fuzz', 'symbolic', 'ml']) assert.equal(seen.get(t)!.sliceDeadline, undefined, t);
  // No shared budget (one tool by name): no slice either.
  await engine.analyze({ source: VAULT, file: 'Vault.sol' }, { mode: 'tool', tool: 'smt', timeoutMs: 60_000 });
  assert.equal(seen.get('smt')!.sliceDeadline, undefined);
  assert.equal(seen.get('smt')!.budgetDeadline, undefined);
});

test('full mode: the SMTChecker answers although two open-ended searches would hold both pool workers until the budget ends', async () => {
  const tasks = new URL('../fixtures/pool/tasks.ts', import.meta.url).pathname;
  // Each holds a pool worker (without computing) from when it gets one until the shared budget
  // ends, as the fuzzer and the symbolic engine do; the SMTChecker used to queue behind them.
  const holder = (name: string, layer: number): AnalysisTool => ({
    ...reporter(name, layer, 1),
    async run(_input, opts) {
      assert.equal(opts.sliceDeadline, undefined);
      await pool.run(tasks, 'sleepIdle', { ms: Math.max(0, opts.budgetDeadline! - Date.now()) });
      return { findings: [], meta: { budget_exhausted: `the request's analysis budget ended the ${name} search` } };
    },
  });
  const engine = engineWith([holder('fuzz', 2), holder('symbolic', 3), smt], { fullBudgetMs: 8000 });
  const r = await engine.analyze({ source: VAULT, file: 'Vault.sol' }, { mode: 'full', timeoutMs: 60_000 });
  const m = r.results.find((x) => x.tool === 'smtchecker')!;
  assert.equal(m.status, 'success', m.error ?? '');
  // Its one job was answered: the assertion's counterexample, and no note of a partial answer.
  assert.ok(
    m.findings.some((f) => f.detector === 'smtchecker-assert' && f.location.line === 9),
    JSON.stringify({ findings: m.findings, notes: r.notes }),
  );
  assert.ok(!r.notes?.some((n) => n.startsWith('smtchecker:')), JSON.stringify(r.notes));
  // The open-ended searches' partial answers are still said.
  assert.ok(r.notes?.includes("fuzz: partial result: the request's analysis budget ended the fuzz search"), JSON.stringify(r.notes));
  assert.ok(r.notes?.includes("symbolic: partial result: the request's analysis budget ended the symbolic search"));
});

test('inventory: tools with availability and self-tests; layers; health', async () => {
  const broken: AnalysisTool = {
    ...reporter('brokenbuiltin', 1, 1),
    builtin: true,
    async selfTest() {
      throw new Error('rule table missing');
    },
  };
  const engine = engineWith([solhint, slither, broken]);
  const res = await engine.runSelfTests();
  assert.equal(res.solhint.ok, true, res.solhint.error ?? '');
  assert.equal(res.brokenbuiltin.ok, false);
  const tools = await engine.listTools();
  const sl = tools.find((t) => t.name === 'slither')!;
  assert.equal(sl.available, false);
  assert.equal(sl.runtime, 'external');
  assert.equal(sl.status, 'not_available');
  assert.match(sl.install_hint!, /pip install slither-analyzer/);
  const sh = tools.find((t) => t.name === 'solhint')!;
  assert.equal(sh.runtime, 'ts');
  assert.deepEqual(sh.self_test, { ok: true, error: null });
  assert.equal(tools.find((t) => t.name === 'brokenbuiltin')!.status, 'error');
  assert.equal(await engine.getTool('nope'), null);
  const layers = await engine.layers();
  assert.equal(layers.length, 9);
  assert.deepEqual(layers[0].tools.sort(), ['brokenbuiltin', 'slither', 'solhint']);
  const h = await engine.health();
  assert.equal(h.status, 'degraded');
  assert.ok(h.reasons.some((r) => /brokenbuiltin failed its self-test: rule table missing/.test(r)));
  assert.equal(h.self_tests_done, true);
});

test('a large source is parsed off the main thread: the event loop keeps answering during the analysis', async () => {
  // ~400 KB of real contracts: seconds of parsing, which used to run on the thread that serves
  // both HTTP surfaces (a 1 MiB source froze the gateway for ~18 s).
  const parts: string[] = [];
  for (let i = 0; parts.join('').length < 400_000; i++)
    parts.push(
      VAULT.replace(/^.*pragma.*$/m, '')
        .replace('contract Vault', `contract Vault${i}`)
        .repeat(1),
    );
  const big = `pragma solidity ^0.8.0;\n${parts.join('\n')}`;
  const engine = engineWith([solhint]);
  let maxGap = 0;
  const start = performance.now();
  let last = start;
  const tick = setInterval(() => {
    const now = performance.now();
    maxGap = Math.max(maxGap, now - last);
    last = now;
  }, 10);
  const r = await engine.analyze({ source: big, file: 'Big.sol' }, { mode: 'tool', tool: 'solhint', timeoutMs: 120_000 });
  clearInterval(tick);
  const elapsed = performance.now() - start;
  assert.equal(r.results[0].status, 'success', JSON.stringify(r.results[0]));
  assert.ok(r.findings.length > 100, `expected findings across the file, got ${r.findings.length}`);
  assert.equal(r.contract.name, `Vault${parts.length - 1}`, 'the outline (from the worker) names the last contract');
  assert.ok(
    r.findings.every((f) => f.location.contract?.startsWith('Vault')),
    'findings are located through the primed outline',
  );
  // Parsing 400 KB takes seconds: on the main thread it would be one stall making up most of the
  // run. Measured against the run itself, so a loaded machine (which stretches both) cannot fail
  // it; an absolute bound would be a timing, which tests do not assert.
  assert.ok(maxGap < elapsed / 2, `the event loop was blocked for ${maxGap.toFixed(0)} of ${elapsed.toFixed(0)} ms`);
});
