// A folder of many single-file contracts (issue #15: 350 SolidiFI contracts once gave zero findings
// and exit 0). The rule: every file completes with its findings, or the run exits 3 naming each
// file and tool that did not finish; never 0 with less. Each file has its own budget, so the
// folder's budget grows with its size; --timeout caps the run and what it cuts off is named.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AnalysisTool } from '../../kernel/index.ts';
import { runAnalyzeCommand } from '../../plugins/analysis-engine/cli-analyze.ts';
import { createAnalysisEngine } from '../../plugins/analysis-engine/engine.ts';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-folder-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

function folder(name: string, n: number): string {
  const dir = path.join(tmp, name);
  fs.mkdirSync(dir, { recursive: true });
  for (let i = 0; i < n; i++)
    fs.writeFileSync(
      path.join(dir, `C${String(i).padStart(3, '0')}.sol`),
      `pragma solidity ^0.8.0;\ncontract C${i} {\n    function f() public view returns (address) {\n        return tx.origin;\n    }\n}\n`,
    );
  return dir;
}

/** A tool that needs `ms` per file, stops at the deadline like the real ones, and finds line 4. */
function slowTool(ms: number, budgets: number[]): AnalysisTool {
  return {
    name: 'slow',
    layer: 1,
    description: 'test tool: one finding per file after a fixed amount of work',
    builtin: true,
    modes: ['quick', 'full'],
    availability: async () => ({ available: true }),
    async run(input, run) {
      budgets.push(run.deadline - Date.now());
      await new Promise<void>((resolve, reject) => {
        const t = setTimeout(resolve, ms);
        run.signal.addEventListener('abort', () => (clearTimeout(t), reject(new Error('aborted'))), { once: true });
      });
      return {
        status: 'success',
        findings: [{ title: 'tx.origin', severity: 'MEDIUM', category: 'access_control', location: { file: input.file, line: 4 } } as any],
      };
    },
  };
}

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: { stdout: { write: (s: string) => out.push(s) }, stderr: { write: (s: string) => err.push(s) } },
    body: () => JSON.parse(out.join('')),
    err: () => err.join(''),
  };
}

test('40 files, no --timeout: each file gets the full per-file budget, every file completes with its finding, exit 0', async () => {
  const budgets: number[] = [];
  const engine = createAnalysisEngine({ registry: { tools: () => [slowTool(30, budgets)] }, pool: null });
  const dir = folder('many', 40);
  const c = capture();
  const code = await runAnalyzeCommand(engine, dir, { format: 'json', progress: false }, c.io);
  assert.equal(code, 0, c.err());
  const body = c.body();
  assert.equal(body.files.length, 40);
  assert.ok(
    body.files.every((f: any) => f.total_findings === 1 && f.compilation?.ok),
    JSON.stringify(body.files.filter((f: any) => f.total_findings !== 1)),
  );
  assert.equal(body.incomplete.length, 0);
  // The budget does not shrink with the folder: the 40th file has what the first had (120 s in quick mode).
  assert.equal(budgets.length, 40);
  assert.ok(Math.min(...budgets) > 100_000, `smallest per-file budget ${Math.min(...budgets)} ms`);
});

test('--timeout too short for the folder: exit 3 and every file that did not finish is named; none is dropped silently', async () => {
  const engine = createAnalysisEngine({ registry: { tools: () => [slowTool(1500, [])] }, pool: null });
  const dir = folder('capped', 4);
  const c = capture();
  const code = await runAnalyzeCommand(engine, dir, { format: 'json', progress: false, timeout: 1 }, c.io);
  assert.equal(code, 3, c.err());
  const body = c.body();
  assert.equal(body.files.length, 4);
  const named = new Set(body.incomplete.filter((i: any) => i.what === 'slow').map((i: any) => path.basename(i.file)));
  // Each file either completed with its finding or is named as incomplete, in the body and on stderr.
  for (const f of body.files) {
    const base = path.basename(f.file);
    assert.ok(f.total_findings === 1 || named.has(base), `${base}: neither a finding nor named`);
    if (named.has(base)) assert.match(c.err(), new RegExp(`${base}: tool slow: timeout`));
  }
  assert.ok(named.size >= 1);
  assert.match(c.err(), /incomplete: \d+ items? did not complete/);

  // --allow-partial: exit 0 (no --fail-on), the same files still named.
  const p = capture();
  assert.equal(await runAnalyzeCommand(engine, dir, { format: 'json', progress: false, timeout: 1, allowPartial: true }, p.io), 0);
  assert.match(p.err(), /\(--allow-partial\)/);
  assert.match(p.err(), /C000\.sol: tool slow: timeout/);
});

test('a tool that skips a file by design (a mode scope) is not incomplete, but it is named on stderr and in "skipped"', async () => {
  const scoped: AnalysisTool = {
    ...slowTool(1, []),
    name: 'scoped',
    async run(input) {
      if (input.file.endsWith('C001.sol')) return { status: 'skipped', findings: [], error: 'quick mode checks units of up to 10 lines' };
      return { status: 'success', findings: [] };
    },
  };
  const engine = createAnalysisEngine({ registry: { tools: () => [scoped] }, pool: null });
  const dir = folder('scoped', 3);
  const c = capture();
  assert.equal(await runAnalyzeCommand(engine, dir, { format: 'json', progress: false }, c.io), 0, c.err());
  const body = c.body();
  assert.equal(body.incomplete.length, 0);
  assert.deepEqual(
    body.skipped.map((k: any) => [path.basename(k.file), k.what, k.detail]),
    [['C001.sol', 'scoped', 'quick mode checks units of up to 10 lines']],
  );
  assert.match(
    c.err(),
    /skipped by design[\s\S]*tool scoped skipped 1 file, e\.g\. \S*C001\.sol: quick mode checks units of up to 10 lines/,
  );
});
