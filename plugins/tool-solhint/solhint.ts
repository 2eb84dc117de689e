// solhint as a layer-1 tool. Only its security rules run, with a fixed configuration, because
// style rules (naming, natspec, ordering) would bury the findings that matter; each rule is mapped
// to a DASP category, a severity and an SWC id. solhint's rules are syntactic (any state write
// after any call, any timestamp read, a missing visibility keyword), so they are rated INFO/LOW
// with low confidence: vigil-static's data-flow rules decide severity, and correlation raises a
// solhint hit only when another tool agrees. Visibility and fallback-size rules are hygiene
// (category other), not access-control bugs.
//
// Quick mode runs only the rules whose hit is a vulnerability claim by itself (unchecked
// send/call, block-hash use, an immutable read before it is set) and tx.origin, whose hit backs
// vigil-static's tx.origin-authorization rule (most tx.origin reads are not authorization).
// Rules that flag a construct rather than a flaw run in full mode and as a single tool: a
// low-level call, .call.value, a timestamp read, missing visibility keywords, deprecated names,
// inline assembly, a large fallback, several sends in one function (push payments), and
// solhint's reentrancy rule, which flags any state write after any call, send and transfer
// included (vigil-static's data-flow rule answers that question in quick mode).
//
// Those construct and hygiene hits carry `evidence.kind: 'lint'`: the tool's own result lists
// every one (an auditor reading solhint's output sees them), but correlation treats them as
// support, not claims. A lint hit joins the claim it agrees with (vigil-static's data-flow
// reentrancy, timestamp or unchecked-call finding on that line) and raises its confidence;
// alone it is not a finding of the audit. An auditor does not report "a low-level call exists"
// or "visibility keyword missing" as a vulnerability: whether the call is unchecked, the
// timestamp decides a payout or the default-public function is sensitive is what the data-flow
// and access-control rules judge, and those are what the verdict lists.
//
// False positives avoided: compiler-version (it would flag every contract not on solhint's
// preferred release) and the style/gas rule families are off; low-level calls are INFO, since a
// checked call is fine; constructors are not asked for a visibility keyword.
import type {
  AnalysisInput,
  AnalysisTool,
  Category,
  Finding,
  Severity,
  ToolRunOptions,
  ToolRunOutput,
  WorkerPool,
} from '../../kernel/index.ts';
import { findingId, sliceLines } from '../../lib/analysis/ids.ts';
import { locate, outlineSource } from '../../lib/analysis/outline.ts';
import { LINT_MODULE, lintTask, solhintVersion, type SolhintReport } from './lint-task.ts';

interface RuleMap {
  category: Category;
  severity: Severity;
  confidence: number;
  swc: string | null;
  cwe: string | null;
  title: string;
  recommendation: string;
}

export const SOLHINT_RULES: Record<string, RuleMap> = {
  reentrancy: {
    category: 'reentrancy',
    severity: 'LOW',
    confidence: 0.3,
    swc: 'SWC-107',
    cwe: 'CWE-841',
    title: 'Possible reentrancy',
    recommendation: 'Update state before the external call (checks-effects-interactions) or use a reentrancy guard.',
  },
  'avoid-call-value': {
    category: 'reentrancy',
    severity: 'INFO',
    confidence: 0.3,
    swc: 'SWC-107',
    cwe: 'CWE-841',
    title: 'Ether sent with .call.value()',
    recommendation: 'Prefer a pull-payment pattern; if call{value:} is needed, update state first and check the result.',
  },
  'check-send-result': {
    category: 'unchecked_low_level_calls',
    severity: 'MEDIUM',
    confidence: 0.7,
    swc: 'SWC-104',
    cwe: 'CWE-252',
    title: 'Result of send() not checked',
    recommendation: 'Check the boolean returned by send() or use transfer()/call with require.',
  },
  'no-unchecked-calls': {
    category: 'unchecked_low_level_calls',
    severity: 'MEDIUM',
    confidence: 0.6,
    swc: 'SWC-104',
    cwe: 'CWE-252',
    title: 'Unchecked low-level call',
    recommendation: 'Check the success flag returned by the low-level call.',
  },
  'avoid-low-level-calls': {
    category: 'unchecked_low_level_calls',
    severity: 'INFO',
    confidence: 0.3,
    swc: 'SWC-104',
    cwe: 'CWE-252',
    title: 'Low-level call',
    recommendation: 'Low-level calls bypass type checks; make sure the return value is checked.',
  },
  'avoid-tx-origin': {
    category: 'access_control',
    severity: 'MEDIUM',
    confidence: 0.7,
    swc: 'SWC-115',
    cwe: 'CWE-477',
    title: 'Authorization through tx.origin',
    recommendation: 'Use msg.sender for authorization.',
  },
  'func-visibility': {
    category: 'access_control',
    severity: 'INFO',
    confidence: 0.5,
    swc: 'SWC-100',
    cwe: 'CWE-710',
    title: 'Function visibility not set',
    recommendation: 'Declare the visibility of every function explicitly.',
  },
  'state-visibility': {
    category: 'access_control',
    severity: 'INFO',
    confidence: 0.4,
    swc: 'SWC-108',
    cwe: 'CWE-710',
    title: 'State variable visibility not set',
    recommendation: 'Declare the visibility of every state variable explicitly.',
  },
  'avoid-suicide': {
    category: 'other',
    severity: 'INFO',
    confidence: 0.4,
    swc: 'SWC-111',
    cwe: 'CWE-477',
    title: 'Use of deprecated suicide()',
    recommendation: 'Use selfdestruct only behind strict access control (or not at all).',
  },
  'multiple-sends': {
    category: 'denial_of_service',
    severity: 'LOW',
    confidence: 0.5,
    swc: 'SWC-113',
    cwe: 'CWE-703',
    title: 'Multiple sends in one transaction',
    recommendation: 'Favour pull over push payments so one failing recipient cannot block the others.',
  },
  'no-complex-fallback': {
    category: 'other',
    severity: 'INFO',
    confidence: 0.4,
    swc: null,
    cwe: 'CWE-400',
    title: 'Complex fallback function',
    recommendation: 'Keep fallback functions within the 2300-gas stipend of transfer/send.',
  },
  'not-rely-on-block-hash': {
    category: 'bad_randomness',
    severity: 'LOW',
    confidence: 0.6,
    swc: 'SWC-120',
    cwe: 'CWE-330',
    title: 'Block hash used',
    recommendation: 'Do not use block hashes as a source of randomness; use a commit-reveal scheme or an oracle.',
  },
  'not-rely-on-time': {
    category: 'time_manipulation',
    severity: 'INFO',
    confidence: 0.3,
    swc: 'SWC-116',
    cwe: 'CWE-829',
    title: 'Block timestamp used',
    recommendation: 'Do not rely on block.timestamp/now for critical decisions or randomness; miners can shift it.',
  },
  'avoid-throw': {
    category: 'other',
    severity: 'INFO',
    confidence: 0.9,
    swc: 'SWC-111',
    cwe: 'CWE-477',
    title: 'Deprecated throw',
    recommendation: 'Use revert(), require() or assert().',
  },
  'avoid-sha3': {
    category: 'other',
    severity: 'INFO',
    confidence: 0.9,
    swc: 'SWC-111',
    cwe: 'CWE-477',
    title: 'Deprecated sha3()',
    recommendation: 'Use keccak256().',
  },
  'no-inline-assembly': {
    category: 'other',
    severity: 'INFO',
    confidence: 0.3,
    swc: null,
    cwe: 'CWE-710',
    title: 'Inline assembly',
    recommendation: "Review inline assembly carefully; it bypasses the compiler's safety checks.",
  },
  'no-immutable-before-declaration': {
    category: 'other',
    severity: 'LOW',
    confidence: 0.6,
    swc: null,
    cwe: 'CWE-457',
    title: 'Immutable read before its declaration',
    recommendation: 'Initialise immutables before other state that reads them.',
  },
};

/** Rules quick mode runs: those whose hit claims a vulnerability by itself, plus tx.origin. */
export const SOLHINT_QUICK_RULES: ReadonlySet<string> = new Set([
  'check-send-result',
  'no-unchecked-calls',
  'avoid-tx-origin',
  'not-rely-on-block-hash',
  'no-immutable-before-declaration',
]);

/**
 * avoid-tx-origin flags every read of tx.origin, and most are not authorization: the
 * `msg.sender == tx.origin` externally-owned-account check, crediting `balances[tx.origin]`.
 * vigil-static's data-flow rule decides whether tx.origin guards access; this hit backs it.
 */
const SOLHINT_SUPPORT_IN_QUICK: ReadonlySet<string> = new Set(['avoid-tx-origin']);

/** Rules whose hit is a claim of its own (the rest are lint: support for other tools' claims). */
export const SOLHINT_CLAIM_RULES: ReadonlySet<string> = new Set([...SOLHINT_QUICK_RULES].filter((id) => !SOLHINT_SUPPORT_IN_QUICK.has(id)));

const ruleConfig = (ids: string[]): Record<string, unknown> =>
  Object.fromEntries(ids.map((id) => [id, id === 'func-visibility' ? ['warn', { ignoreConstructors: true }] : 'warn']));

/** The exact rule configuration solhint runs with in full mode (and as a single tool). */
export const SOLHINT_CONFIG: Record<string, unknown> = ruleConfig(Object.keys(SOLHINT_RULES));
/** The rule configuration of quick mode: security claims only. */
export const SOLHINT_QUICK_CONFIG: Record<string, unknown> = ruleConfig(
  Object.keys(SOLHINT_RULES).filter((id) => SOLHINT_QUICK_RULES.has(id)),
);

export function solhintFindings(reports: SolhintReport[], input: Pick<AnalysisInput, 'source' | 'file'>): Finding[] {
  const outline = outlineSource(input.source);
  const out: Finding[] = [];
  for (const r of reports) {
    if (!r.ruleId) continue;
    const rule = SOLHINT_RULES[r.ruleId];
    if (!rule) continue;
    const where = locate(outline, r.line);
    out.push({
      id: findingId({
        detector: `solhint:${r.ruleId}`,
        contract: where.contract,
        function: where.function,
        code: sliceLines(input.source, r.line),
      }),
      detector: `solhint-${r.ruleId}`,
      title: rule.title,
      description: `solhint ${r.ruleId}: ${r.message}`,
      severity: rule.severity,
      confidence: rule.confidence,
      category: rule.category,
      swc_id: rule.swc,
      cwe_id: rule.cwe,
      location: {
        file: input.file,
        line: r.line,
        end_line: r.line,
        column: Math.max(0, r.column),
        contract: where.contract,
        function: where.function,
      },
      tools: ['solhint'],
      layers: [1],
      recommendation: rule.recommendation,
      ...(SOLHINT_CLAIM_RULES.has(r.ruleId) ? {} : { evidence: { kind: 'lint', rule: r.ruleId } }),
    });
  }
  return out;
}

export function createSolhintTool(opts: { pool: WorkerPool | null }): AnalysisTool {
  const tool: AnalysisTool = {
    name: 'solhint',
    layer: 1,
    description:
      'solhint security rules (reentrancy, tx.origin, unchecked send/call, timestamp and block-hash use, visibility) mapped to DASP categories',
    builtin: true,
    modes: ['quick', 'full'],
    async availability() {
      try {
        return { available: true, version: solhintVersion() };
      } catch (e) {
        return { available: false, reason: `solhint is not installed: ${(e as Error).message}`, install_hint: 'npm install' };
      }
    },
    async selfTest() {
      const source =
        'pragma solidity ^0.8.0;\ncontract T {\n  address owner;\n  function f() public view {\n    require(tx.origin == owner);\n  }\n}\n';
      const r = await tool.run(
        { source, file: 'T.sol', sha256: '' },
        { signal: new AbortController().signal, deadline: Date.now() + 30_000 },
      );
      if (!r.findings.some((f) => f.detector === 'solhint-avoid-tx-origin' && f.location.line === 5)) {
        throw new Error(
          `solhint self-test: expected avoid-tx-origin on line 5, got ${r.findings.map((f) => f.detector).join(', ') || 'nothing'}`,
        );
      }
    },
    async run(input: AnalysisInput, run: ToolRunOptions): Promise<ToolRunOutput> {
      const rules = run.mode === 'quick' ? SOLHINT_QUICK_CONFIG : SOLHINT_CONFIG;
      const args = { source: input.source, file: input.file, rules };
      const res = opts.pool
        ? await opts.pool.run<ReturnType<typeof lintTask>>(LINT_MODULE, 'lintTask', args, { signal: run.signal, deadline: run.deadline })
        : lintTask(args);
      const parseErrors = res.reports.filter((r) => !r.ruleId && /^Parse error/i.test(r.message));
      if (parseErrors.length) {
        return {
          status: 'error',
          findings: [],
          error: `solhint could not parse the source: line ${parseErrors[0].line}: ${parseErrors[0].message.replace(/^Parse error:\s*/i, '')}`,
        };
      }
      return {
        status: 'success',
        findings: solhintFindings(res.reports, input),
        meta: { version: res.version, rules: Object.keys(rules) },
      };
    },
  };
  return tool;
}
