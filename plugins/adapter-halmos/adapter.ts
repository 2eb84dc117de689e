// Halmos adapter (layer 3, symbolic testing). Halmos proves the check_*/prove* functions of a
// Foundry test contract for all inputs; a refuted one comes with a counterexample model. The
// adapter runs `halmos --root <project> --contract <C> --json-output <tmp>` on the contract
// that declares such functions (a temp Foundry project when the code was submitted as text).
// False positives avoided: only tests with exit code 1 (counterexample found) are findings;
// timeouts and unsupported paths are reported in meta, not as bugs.
import fs from 'node:fs';
import path from 'node:path';
import type { AnalysisInput, AnalysisTool, Finding, ToolRunOutput } from '../../kernel/index.ts';
import {
  defineExternalTool,
  noJson,
  type AdapterOutput,
  type ExternalToolOptions,
  type FindingHelpers,
} from '../../lib/analysis/external/adapter.ts';
import { parseJsonOutput } from '../../lib/analysis/external/process.ts';
import { functionLine, outlineSource } from '../../lib/analysis/outline.ts';

const TEST_FN = /^(check|prove|invariant)_?/;

interface HalmosTest {
  name?: string;
  exitcode?: number;
  num_models?: number | null;
  models?: Array<{ model?: unknown; is_valid?: boolean | null; result?: string }> | null;
  num_paths?: number[] | null;
  time?: number[] | null;
  num_bounded_loops?: number | null;
}

/** Folder of the Foundry project holding a file (a foundry.toml above it), if any. */
export function foundryRoot(file: string | null | undefined): string | null {
  if (!file) return null;
  let dir = path.dirname(file);
  for (let i = 0; i < 12; i++) {
    if (fs.existsSync(path.join(dir, 'foundry.toml'))) return dir;
    const up = path.dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return null;
}

function testContract(input: Pick<AnalysisInput, 'source'>): string | null {
  const o = outlineSource(input.source);
  const c = o.contracts.find((x) => x.kind === 'contract' && x.functions.some((f) => TEST_FN.test(f.name)));
  return c?.name ?? null;
}

export function parseHalmos(out: AdapterOutput, h: FindingHelpers, contract: string): ToolRunOutput {
  const doc = parseJsonOutput<{ exitcode?: number; num_passed?: number; num_failed?: number; test_results?: Record<string, HalmosTest[]> }>(
    out.report ?? out.stdout,
  );
  if (!doc || !doc.test_results) return noJson('halmos', out);
  const findings: Finding[] = [];
  const other: Array<{ test: string; exitcode: number }> = [];
  for (const [key, tests] of Object.entries(doc.test_results)) {
    const c = key.includes(':') ? key.slice(key.lastIndexOf(':') + 1) : contract;
    for (const t of tests ?? []) {
      const name = String(t.name ?? 'test');
      if (t.exitcode === 0) continue;
      if (t.exitcode !== 1) {
        other.push({ test: name, exitcode: Number(t.exitcode) });
        continue;
      }
      const fn = name.replace(/\(.*$/, '');
      const fl = functionLine(h.outline, c, fn) ?? functionLine(h.outline, null, fn);
      const models = (t.models ?? []).map((m) => m.model).filter((m) => m != null);
      findings.push(
        h.finding({
          rule: 'counterexample',
          title: `Property ${fn} refuted`,
          description: `Halmos found ${t.num_models ?? models.length} counterexample(s) for ${c}.${name}${models.length ? `: ${JSON.stringify(models[0])}` : ''}.`,
          severity: 'MEDIUM',
          confidence: 0.9,
          category: 'other',
          swc_id: 'SWC-110',
          cwe_id: 'CWE-617',
          line: fl?.line ?? 1,
          contract: c,
          function: fn,
          recommendation: 'Replay the counterexample as a concrete test and fix the code path (or the property) it breaks.',
          evidence: { kind: 'counterexample', test: name, models, num_paths: t.num_paths ?? null },
        }),
      );
    }
  }
  return { status: 'success', findings, meta: { passed: doc.num_passed ?? null, failed: doc.num_failed ?? null, inconclusive: other } };
}

export function createHalmosAdapter(options: ExternalToolOptions = {}): AnalysisTool {
  return defineExternalTool(
    {
      name: 'halmos',
      layer: 3,
      description: 'Halmos symbolic testing (a16z): proves check_* functions for all inputs, with counterexamples when they fail',
      modes: ['full'],
      binary: 'halmos',
      requires: ['forge'],
      installHint: 'pip install halmos (and Foundry for forge: curl -L https://foundry.paradigm.xyz | bash && foundryup)',
      workspaceFiles: (input) =>
        foundryRoot(input.absPath) ? null : { 'foundry.toml': '[profile.default]\nsrc = "src"\nout = "out"\nlibs = ["lib"]\n' },
      command: (ctx) => {
        const contract = testContract(ctx.input);
        if (!contract)
          return {
            status: 'skipped',
            findings: [],
            error: 'halmos proves check_*/prove* functions of a test contract, and this source declares none',
          };
        const root = foundryRoot(ctx.input.absPath) ?? ctx.ws.dir;
        return { args: ['--root', root, '--contract', contract, '--json-output', ctx.outFile], cwd: root, reportFile: ctx.outFile };
      },
      parse: (out, ctx, h) => parseHalmos(out, h, testContract(ctx.input) ?? ''),
    },
    options,
  );
}
