// Mythril adapter (layer 3, symbolic execution). Runs `myth analyze <file> -o json
// --execution-timeout N [--solv X]` and maps each issue: SWC id -> category, severity as
// reported, and the transaction sequence that reaches the bug kept as evidence.
// False positives avoided: issues located in other files (libraries) are dropped; issues
// without a source line (bytecode-only) are kept at the contract line with lower confidence.
import type { AnalysisTool, Finding, ToolRunOutput } from '../../kernel/index.ts';
import {
  defineExternalTool,
  noJson,
  reportedFailure,
  type AdapterOutput,
  type ExternalToolOptions,
  type FindingHelpers,
} from '../../lib/analysis/external/adapter.ts';
import { categoryFor, cweForSwc, severityFromText, swcId } from '../../lib/analysis/taxonomy.ts';
import { parseJsonOutput } from '../../lib/analysis/external/process.ts';
import { chooseCompiler } from '../../lib/analysis/compiler/index.ts';

interface MythrilIssue {
  title?: string;
  'swc-id'?: string;
  severity?: string;
  contract?: string;
  function?: string;
  filename?: string;
  lineno?: number;
  code?: string;
  description?: string;
  address?: number;
  tx_sequence?: unknown;
}

export function parseMythril(out: AdapterOutput, h: FindingHelpers, mainContract: string | null): ToolRunOutput {
  const doc = parseJsonOutput<{ success?: boolean; error?: string | null; issues?: MythrilIssue[] }>(out.stdout);
  if (!doc) return noJson('mythril', out);
  if (doc.success === false || (doc.error && !(doc.issues ?? []).length)) {
    return reportedFailure('mythril', doc.error, 3);
  }
  const findings: Finding[] = [];
  for (const i of doc.issues ?? []) {
    if (i.filename && !h.isTarget(i.filename)) continue;
    const fnName = i.function ? i.function.replace(/\(.*$/, '') : null;
    const contract = i.contract ?? mainContract;
    let line = Number(i.lineno) || 0;
    if (!line) {
      const c = h.outline.contracts.find((x) => x.name === contract);
      line = c?.line ?? 1;
    }
    const swc = swcId(i['swc-id']);
    findings.push(
      h.finding({
        rule: `swc-${i['swc-id'] ?? 'unknown'}`,
        title: i.title ?? 'Mythril issue',
        description: String(i.description ?? i.title ?? '').trim(),
        severity: severityFromText(i.severity, 'MEDIUM'),
        confidence: i.tx_sequence ? 0.8 : i.lineno ? 0.65 : 0.45,
        category: categoryFor(i['swc-id'], i.title),
        swc_id: swc,
        cwe_id: cweForSwc(i['swc-id']),
        line,
        contract,
        function: fnName && fnName !== 'fallback' ? fnName : (fnName ?? null),
        ...(i.tx_sequence ? { evidence: { kind: 'transaction_sequence', tx_sequence: i.tx_sequence, address: i.address ?? null } } : {}),
      }),
    );
  }
  return { status: 'success', findings };
}

export function createMythrilAdapter(options: ExternalToolOptions = {}): AnalysisTool {
  return defineExternalTool(
    {
      name: 'mythril',
      layer: 3,
      description: 'Mythril symbolic executor (Consensys): EVM-level bugs with the transaction sequence that reaches them',
      modes: ['full'],
      binary: 'myth',
      installHint: 'pip install mythril',
      versionArgs: ['version'],
      command: (ctx) => {
        const args = ['analyze', ctx.ws.file, '-o', 'json', '--execution-timeout', String(Math.max(1, ctx.secondsLeft - 5))];
        const choice = chooseCompiler(ctx.input.source);
        // Tell mythril which solc to fetch/use, same choice as our own compilation.
        if (choice.ok && choice.pragma) args.push('--solv', choice.candidates[0].version);
        return { args };
      },
      parse: (out, ctx, h) => parseMythril(out, h, ctx.input.contract ?? null),
    },
    options,
  );
}
