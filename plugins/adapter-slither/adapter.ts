// Slither adapter (layer 1). Runs `slither <file> --json -` and maps each detector result to a
// finding: impact -> severity, confidence -> 0..1, check id -> DASP category (explicit table,
// keyword fallback), first source-mapped element in the analysed file -> location.
// False positives avoided: results whose elements all live in other files (imports,
// libraries) are dropped, and "optimization" results are INFO, not vulnerabilities.
import type { AnalysisTool, Category } from '../../kernel/index.ts';
import {
  defineExternalTool,
  noJson,
  reportedFailure,
  type AdapterOutput,
  type ExternalToolOptions,
  type FindingHelpers,
} from '../../lib/analysis/external/adapter.ts';
import { categoryFromText, confidenceFromText, severityFromText } from '../../lib/analysis/taxonomy.ts';
import { parseJsonOutput } from '../../lib/analysis/external/process.ts';
import type { Finding, ToolRunOutput } from '../../kernel/index.ts';

/** Slither check ids whose category the keyword rules would not get right. */
export const SLITHER_CATEGORIES: Record<string, { category: Category; swc?: string; cwe?: string }> = {
  'reentrancy-eth': { category: 'reentrancy', swc: 'SWC-107', cwe: 'CWE-841' },
  'reentrancy-no-eth': { category: 'reentrancy', swc: 'SWC-107', cwe: 'CWE-841' },
  'reentrancy-benign': { category: 'reentrancy', swc: 'SWC-107', cwe: 'CWE-841' },
  'reentrancy-events': { category: 'reentrancy', swc: 'SWC-107', cwe: 'CWE-841' },
  'reentrancy-unlimited-gas': { category: 'reentrancy', swc: 'SWC-107', cwe: 'CWE-841' },
  'arbitrary-send-eth': { category: 'access_control', swc: 'SWC-105', cwe: 'CWE-284' },
  'arbitrary-send-erc20': { category: 'access_control', swc: 'SWC-105', cwe: 'CWE-284' },
  suicidal: { category: 'access_control', swc: 'SWC-106', cwe: 'CWE-284' },
  'tx-origin': { category: 'access_control', swc: 'SWC-115', cwe: 'CWE-477' },
  'controlled-delegatecall': { category: 'access_control', swc: 'SWC-112', cwe: 'CWE-829' },
  'delegatecall-loop': { category: 'access_control', swc: 'SWC-112' },
  'unprotected-upgrade': { category: 'access_control', cwe: 'CWE-284' },
  'protected-vars': { category: 'access_control' },
  'missing-zero-check': { category: 'access_control' },
  'uninitialized-state': { category: 'other', swc: 'SWC-109' },
  'uninitialized-storage': { category: 'other', swc: 'SWC-109' },
  'arbitrary-storage': { category: 'access_control', swc: 'SWC-124' },
  'unchecked-lowlevel': { category: 'unchecked_low_level_calls', swc: 'SWC-104', cwe: 'CWE-252' },
  'unchecked-send': { category: 'unchecked_low_level_calls', swc: 'SWC-104', cwe: 'CWE-252' },
  'unchecked-transfer': { category: 'unchecked_low_level_calls', swc: 'SWC-104', cwe: 'CWE-252' },
  'unused-return': { category: 'unchecked_low_level_calls', swc: 'SWC-104', cwe: 'CWE-252' },
  'low-level-calls': { category: 'unchecked_low_level_calls', swc: 'SWC-104' },
  'weak-prng': { category: 'bad_randomness', swc: 'SWC-120', cwe: 'CWE-330' },
  timestamp: { category: 'time_manipulation', swc: 'SWC-116', cwe: 'CWE-829' },
  'divide-before-multiply': { category: 'arithmetic', swc: 'SWC-101', cwe: 'CWE-682' },
  'incorrect-exp': { category: 'arithmetic', cwe: 'CWE-682' },
  tautology: { category: 'arithmetic' },
  'calls-loop': { category: 'denial_of_service', swc: 'SWC-113', cwe: 'CWE-703' },
  'costly-loop': { category: 'denial_of_service', swc: 'SWC-128', cwe: 'CWE-400' },
  'msg-value-loop': { category: 'other' },
  'locked-ether': { category: 'denial_of_service', cwe: 'CWE-400' },
  'incorrect-equality': { category: 'denial_of_service', swc: 'SWC-132' },
  'erc20-interface': { category: 'other' },
  'shadowing-state': { category: 'other', swc: 'SWC-119' },
  'deprecated-standards': { category: 'other', swc: 'SWC-111' },
};

interface SlitherElement {
  type?: string;
  name?: string;
  source_mapping?: {
    filename_relative?: string;
    filename_absolute?: string;
    filename_short?: string;
    filename_used?: string;
    lines?: number[];
    starting_column?: number;
  };
  type_specific_fields?: { parent?: SlitherElement & { type_specific_fields?: { parent?: SlitherElement } } };
}

interface SlitherDetector {
  check: string;
  impact?: string;
  confidence?: string;
  description?: string;
  markdown?: string;
  first_markdown_element?: string;
  id?: string;
  elements?: SlitherElement[];
}

function names(el: SlitherElement): { contract: string | null; fn: string | null } {
  const stripSig = (s?: string) => (s ? s.replace(/\(.*$/, '') : null);
  if (el.type === 'function') return { contract: el.type_specific_fields?.parent?.name ?? null, fn: stripSig(el.name) };
  if (el.type === 'contract') return { contract: el.name ?? null, fn: null };
  const p = el.type_specific_fields?.parent;
  if (p?.type === 'function') return { contract: p.type_specific_fields?.parent?.name ?? null, fn: stripSig(p.name) };
  if (p?.type === 'contract') return { contract: p.name ?? null, fn: null };
  return { contract: null, fn: null };
}

export function parseSlither(out: AdapterOutput, h: FindingHelpers): ToolRunOutput {
  const doc = parseJsonOutput<{ success?: boolean; error?: string | null; results?: { detectors?: SlitherDetector[] } }>(out.stdout);
  if (!doc) return noJson('slither', out);
  if (doc.success === false) return reportedFailure('slither', doc.error, 4);
  const findings: Finding[] = [];
  for (const d of doc.results?.detectors ?? []) {
    const inFile = (d.elements ?? []).filter((e) => {
      const sm = e.source_mapping;
      return (
        sm &&
        (h.isTarget(sm.filename_absolute) ||
          h.isTarget(sm.filename_relative) ||
          h.isTarget(sm.filename_short) ||
          h.isTarget(sm.filename_used))
      );
    });
    const el = inFile.find((e) => e.type !== 'contract' && (e.source_mapping?.lines?.length ?? 0) > 0) ?? inFile[0];
    if (!el) continue;
    const lines = el.source_mapping?.lines ?? [];
    const line = lines.length ? Math.min(...lines) : 1;
    const end = lines.length ? Math.max(...lines) : line;
    const known = SLITHER_CATEGORIES[d.check];
    const category = known?.category ?? categoryFromText(d.check, d.description);
    const n = names(el);
    findings.push(
      h.finding({
        rule: d.check,
        title: d.check.replace(/-/g, ' ').replace(/^./, (c) => c.toUpperCase()),
        description: String(d.description ?? d.check).trim(),
        severity: severityFromText(d.impact, 'MEDIUM'),
        confidence: confidenceFromText(d.confidence, 0.5),
        category,
        swc_id: known?.swc ?? null,
        cwe_id: known?.cwe ?? null,
        line,
        end_line: end,
        contract: n.contract,
        function: n.fn,
        recommendation: `See https://github.com/crytic/slither/wiki/Detector-Documentation#${d.check}`,
      }),
    );
  }
  return { status: 'success', findings };
}

export function createSlitherAdapter(options: ExternalToolOptions = {}): AnalysisTool {
  return defineExternalTool(
    {
      name: 'slither',
      layer: 1,
      description: 'Slither static analyzer (Trail of Bits): reentrancy, access control, unchecked calls and 90+ more detectors',
      modes: ['quick', 'full'],
      binary: 'slither',
      installHint: 'pip install slither-analyzer (and a solc binary, e.g. pip install solc-select)',
      command: (ctx) => ({ args: [ctx.ws.file, '--json', '-', '--disable-color'] }),
      parse: (out, _ctx, h) => parseSlither(out, h),
    },
    options,
  );
}
