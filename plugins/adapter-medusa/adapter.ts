// Medusa adapter (layer 2, fuzzing). Medusa has no JSON report, so this adapter reads its
// console test report ("[FAILED] Assertion Test: C.f(uint256)" followed by the "[Call Sequence]"
// that reproduces it); the format is documented in medusa's README and CLI docs.
// False positives avoided: only [FAILED] tests are findings; [PASSED] lines and the execution
// trace are ignored.
import type { AnalysisTool, Finding, ToolRunOutput } from '../../kernel/index.ts';
import {
  defineExternalTool,
  type AdapterOutput,
  type ExternalToolOptions,
  type FindingHelpers,
} from '../../lib/analysis/external/adapter.ts';
import { tail } from '../../lib/analysis/external/process.ts';
import { functionLine } from '../../lib/analysis/outline.ts';

// eslint-disable-next-line no-control-regex -- matches ANSI colour escapes (ESC [ ... m)
const ANSI = /\x1b\[[0-9;]*m/g;

export function parseMedusa(out: AdapterOutput, h: FindingHelpers): ToolRunOutput {
  const text = `${out.stdout}\n${out.stderr}`.replace(ANSI, '');
  const lines = text.split('\n');
  const findings: Finding[] = [];
  let passed = 0;
  let sawReport = false;
  for (let i = 0; i < lines.length; i++) {
    const m = /\[(FAILED|PASSED)\]\s+(Assertion|Property|Optimization) Test:\s+([\w$]+)\.([\w$]+)\(([^)]*)\)/.exec(lines[i]);
    if (!m) continue;
    sawReport = true;
    if (m[1] === 'PASSED') {
      passed++;
      continue;
    }
    const [, , kind, contract, fn, params] = m;
    const sequence: string[] = [];
    for (let j = i + 1; j < lines.length; j++) {
      const l = lines[j].trim();
      if (/\[(FAILED|PASSED)\]/.test(l) || /^\[Execution Trace\]/.test(l)) break;
      const s = /^\d+\)\s+(.*?)(?:\s+\(block=.*)?$/.exec(l);
      if (s) sequence.push(s[1]);
    }
    const fl = functionLine(h.outline, contract, fn) ?? functionLine(h.outline, null, fn);
    findings.push(
      h.finding({
        rule: kind.toLowerCase(),
        title: kind === 'Assertion' ? `Assertion failure reachable in ${fn}` : `${kind} test ${fn} failed`,
        description: `Medusa found a call sequence that fails the ${kind.toLowerCase()} test ${contract}.${fn}(${params}): ${sequence.join(' -> ') || '(see medusa output)'}.`,
        severity: 'MEDIUM',
        confidence: 0.95,
        category: 'other',
        swc_id: kind === 'Assertion' ? 'SWC-110' : null,
        cwe_id: 'CWE-617',
        line: fl?.line ?? h.outline.contracts.find((c) => c.name === contract)?.line ?? 1,
        contract,
        function: fn,
        recommendation: 'Reproduce the sequence in a unit test, then fix the state transition that breaks the invariant.',
        evidence: { kind: 'transaction_sequence', test: `${contract}.${fn}(${params})`, call_sequence: sequence },
      }),
    );
  }
  if (!sawReport && out.code !== 0) {
    return { status: 'error', findings: [], error: `medusa failed (exit ${out.code}): ${tail(text)}` };
  }
  return { status: 'success', findings, meta: { passed, failed: findings.length } };
}

export function createMedusaAdapter(options: ExternalToolOptions & { testLimit?: number } = {}): AnalysisTool {
  return defineExternalTool(
    {
      name: 'medusa',
      layer: 2,
      description: 'Medusa coverage-guided fuzzer (Trail of Bits): failing assertion/property tests with a reproducing call sequence',
      modes: ['full'],
      binary: 'medusa',
      installHint: 'download a release from https://github.com/crytic/medusa/releases (needs crytic-compile: pip install crytic-compile)',
      command: (ctx) => {
        const contract = ctx.input.contract;
        if (!contract)
          return { status: 'skipped', findings: [], error: 'medusa needs a deployable contract and none was found in the source' };
        return {
          args: [
            'fuzz',
            '--compilation-target',
            ctx.ws.file,
            '--target-contracts',
            contract,
            '--timeout',
            String(Math.max(1, ctx.secondsLeft - 3)),
            '--test-limit',
            String(options.testLimit ?? 50_000),
          ],
        };
      },
      parse: (out, _ctx, h) => parseMedusa(out, h),
    },
    options,
  );
}
