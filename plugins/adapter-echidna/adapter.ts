// Echidna adapter (layer 2, fuzzing). Runs echidna in assertion mode on the main contract
// (`--format json --test-mode assertion`) so it needs no hand-written properties: every
// reachable assert(false) / panic it triggers becomes a finding whose evidence is the
// shrunk call sequence that reproduces it. Property tests (echidna_*) that the contract
// carries are reported the same way.
// False positives avoided: only "solved" tests (a concrete falsifying sequence exists) are
// findings; "passed", "fuzzing" and "shrinking" are not.
import type { AnalysisTool, Finding, ToolRunOutput } from '../../kernel/index.ts';
import {
  defineExternalTool,
  noJson,
  reportedFailure,
  type AdapterOutput,
  type ExternalToolOptions,
  type FindingHelpers,
} from '../../lib/analysis/external/adapter.ts';
import { parseJsonOutput } from '../../lib/analysis/external/process.ts';
import { functionLine } from '../../lib/analysis/outline.ts';

interface EchidnaTest {
  contract?: string;
  name?: string;
  status?: string;
  error?: string | null;
  type?: string;
  testType?: string;
  transactions?: Array<{ contract?: string; function?: string; arguments?: string[] | null; value?: unknown; gas?: number }> | null;
}

/** "assertion in withdraw(uint256)" / "withdraw(uint256)" / "echidna_balance" -> function name. */
function testFunction(name: string): string {
  return name
    .replace(/^assertion in\s+/i, '')
    .replace(/\(.*$/, '')
    .trim();
}

export function parseEchidna(out: AdapterOutput, h: FindingHelpers, mainContract: string | null): ToolRunOutput {
  const doc = parseJsonOutput<{ success?: boolean; error?: string | null; tests?: EchidnaTest[] }>(out.stdout);
  if (!doc) return noJson('echidna', out);
  if (doc.success === false) return reportedFailure('echidna', doc.error, 3);
  const findings: Finding[] = [];
  const tests = doc.tests ?? [];
  for (const t of tests) {
    if (t.status !== 'solved') continue;
    const name = String(t.name ?? 'test');
    const fn = testFunction(name);
    const contract = t.contract || mainContract;
    const fl = functionLine(h.outline, contract, fn) ?? functionLine(h.outline, null, fn);
    const kind = (t.type ?? t.testType ?? 'assertion').toLowerCase();
    const seq = (t.transactions ?? []).map((x) => `${x.function ?? '?'}(${(x.arguments ?? []).join(', ')})`);
    findings.push(
      h.finding({
        rule: kind === 'property' ? 'property' : 'assertion',
        title: kind === 'property' ? `Property ${fn} falsified` : `Assertion failure reachable in ${fn}`,
        description: `Echidna found a call sequence that ${kind === 'property' ? `makes property ${name} return false` : `triggers an assertion failure in ${name}`}: ${seq.join(' -> ') || '(single call)'}.`,
        severity: 'MEDIUM',
        confidence: 0.95,
        category: 'other',
        swc_id: kind === 'property' ? null : 'SWC-110',
        cwe_id: 'CWE-617',
        line: fl?.line ?? h.outline.contracts.find((c) => c.name === contract)?.line ?? 1,
        end_line: fl?.line,
        contract,
        function: fn,
        recommendation: 'Reproduce the sequence in a unit test, then fix the state transition that breaks the invariant.',
        evidence: { kind: 'transaction_sequence', test: name, transactions: t.transactions ?? [] },
      }),
    );
  }
  return { status: 'success', findings, meta: { tests: tests.length, solved: findings.length } };
}

export function createEchidnaAdapter(options: ExternalToolOptions & { testLimit?: number } = {}): AnalysisTool {
  return defineExternalTool(
    {
      name: 'echidna',
      layer: 2,
      description: 'Echidna property/assertion fuzzer (Trail of Bits): reachable assertion failures with a reproducing call sequence',
      modes: ['full'],
      binary: 'echidna',
      installHint: 'download a release from https://github.com/crytic/echidna/releases (needs crytic-compile: pip install crytic-compile)',
      command: (ctx) => {
        const contract = ctx.input.contract;
        if (!contract)
          return { status: 'skipped', findings: [], error: 'echidna needs a deployable contract and none was found in the source' };
        return {
          args: [
            ctx.ws.file,
            '--contract',
            contract,
            '--format',
            'json',
            '--test-mode',
            'assertion',
            '--test-limit',
            String(options.testLimit ?? 50_000),
            '--timeout',
            String(Math.max(1, ctx.secondsLeft - 3)),
          ],
        };
      },
      parse: (out, ctx, h) => parseEchidna(out, h, ctx.input.contract ?? null),
    },
    options,
  );
}
