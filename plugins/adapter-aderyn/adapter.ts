// Aderyn adapter (layer 1). Runs `aderyn <folder> --output <tmp>/report.json` and maps every
// instance of every issue in the analysed file to a finding; the report section
// (critical/high/medium/low/nc _issues) gives the severity, the detector name the category.
// False positives avoided: instances in other files of the folder are dropped.
import type { AnalysisTool, Finding, ToolRunOutput } from '../../kernel/index.ts';
import type { Severity } from '../../kernel/index.ts';
import {
  defineExternalTool,
  noJson,
  type AdapterOutput,
  type ExternalToolOptions,
  type FindingHelpers,
} from '../../lib/analysis/external/adapter.ts';
import { categoryFromText } from '../../lib/analysis/taxonomy.ts';
import { parseJsonOutput } from '../../lib/analysis/external/process.ts';

const SECTION_SEVERITY: Record<string, Severity> = { critical: 'CRITICAL', high: 'HIGH', medium: 'MEDIUM', low: 'LOW', nc: 'INFO' };

interface AderynIssue {
  title?: string;
  description?: string;
  detector_name?: string;
  instances?: Array<{ contract_path?: string; line_no?: number; src?: string; src_char?: string; hint?: string }>;
}

export function parseAderyn(out: AdapterOutput, h: FindingHelpers): ToolRunOutput {
  const doc = parseJsonOutput<Record<string, unknown>>(out.report ?? out.stdout);
  if (!doc || typeof doc !== 'object') return noJson('aderyn', out);
  const findings: Finding[] = [];
  for (const [key, section] of Object.entries(doc)) {
    const m = /^(critical|high|medium|low|nc)_issues$/.exec(key);
    if (!m || !section || typeof section !== 'object') continue;
    const severity = SECTION_SEVERITY[m[1]];
    for (const issue of (section as { issues?: AderynIssue[] }).issues ?? []) {
      const rule = issue.detector_name ?? (issue.title ?? 'issue').toLowerCase().replace(/[^a-z0-9]+/g, '-');
      for (const inst of issue.instances ?? []) {
        if (!h.isTarget(inst.contract_path)) continue;
        findings.push(
          h.finding({
            rule,
            title: issue.title ?? rule,
            description: `${String(issue.description ?? issue.title ?? '').trim()}${inst.hint ? ` (${inst.hint})` : ''}`,
            severity,
            confidence: severity === 'HIGH' || severity === 'CRITICAL' ? 0.7 : 0.5,
            category: categoryFromText(rule, issue.title),
            line: Number(inst.line_no) || 1,
          }),
        );
      }
    }
  }
  return { status: 'success', findings };
}

export function createAderynAdapter(options: ExternalToolOptions = {}): AnalysisTool {
  return defineExternalTool(
    {
      name: 'aderyn',
      layer: 1,
      description: 'Aderyn static analyzer (Cyfrin): fast Rust detectors over the solc AST',
      modes: ['quick', 'full'],
      binary: 'aderyn',
      installHint:
        'curl -L https://raw.githubusercontent.com/Cyfrin/aderyn/dev/cyfrinup/install | bash && cyfrinup (or: cargo install aderyn)',
      command: (ctx) => ({ args: [ctx.ws.dir, '--output', ctx.outFile], reportFile: ctx.outFile }),
      parse: (out, _ctx, h) => parseAderyn(out, h),
    },
    options,
  );
}
