// Semgrep adapter (layer 1). Runs `semgrep --config <rules> --json --metrics=off <file>` with the
// configured rule set (a local rules folder, or a registry pack such as p/smart-contracts, which
// semgrep downloads) and maps each result: rule severity -> severity, rule id and metadata ->
// category and CWE.
// False positives avoided: results in other files are dropped; semgrep's own parse errors are
// reported in meta, not as findings.
import type { AnalysisTool, Finding, ToolRunOutput } from '../../kernel/index.ts';
import {
  defineExternalTool,
  noJson,
  type AdapterOutput,
  type ExternalToolOptions,
  type FindingHelpers,
} from '../../lib/analysis/external/adapter.ts';
import { categoryFromText, confidenceFromText, severityFromText } from '../../lib/analysis/taxonomy.ts';
import { parseJsonOutput } from '../../lib/analysis/external/process.ts';

interface SemgrepResult {
  check_id?: string;
  path?: string;
  start?: { line?: number; col?: number };
  end?: { line?: number; col?: number };
  extra?: {
    message?: string;
    severity?: string;
    lines?: string;
    metadata?: { category?: string; cwe?: string | string[]; confidence?: string; references?: string[]; impact?: string };
  };
}

export function parseSemgrep(out: AdapterOutput, h: FindingHelpers): ToolRunOutput {
  const doc = parseJsonOutput<{ results?: SemgrepResult[]; errors?: Array<{ message?: string; level?: string; type?: unknown }> }>(
    out.stdout,
  );
  if (!doc || !Array.isArray(doc.results)) return noJson('semgrep', out);
  const fatal = (doc.errors ?? []).filter((e) => String(e.level ?? '').toLowerCase() === 'error');
  if (!doc.results.length && fatal.length && out.code !== 0) {
    return {
      status: 'error',
      findings: [],
      error: `semgrep failed: ${String(fatal[0].message ?? JSON.stringify(fatal[0].type))
        .trim()
        .slice(0, 400)}`,
    };
  }
  const findings: Finding[] = [];
  for (const r of doc.results) {
    if (!h.isTarget(r.path)) continue;
    const id = String(r.check_id ?? 'rule');
    const short = id.split('.').pop() ?? id;
    const meta = r.extra?.metadata ?? {};
    const cweRaw = Array.isArray(meta.cwe) ? meta.cwe[0] : meta.cwe;
    const cwe = cweRaw ? (/CWE-\d+/.exec(String(cweRaw))?.[0] ?? null) : null;
    findings.push(
      h.finding({
        rule: short,
        title: short.replace(/[-_]/g, ' ').replace(/^./, (c) => c.toUpperCase()),
        description: String(r.extra?.message ?? id).trim(),
        severity: severityFromText(meta.impact ?? r.extra?.severity, 'MEDIUM'),
        confidence: confidenceFromText(meta.confidence, 0.5),
        category: categoryFromText(id, meta.category),
        cwe_id: cwe,
        line: Number(r.start?.line) || 1,
        end_line: Number(r.end?.line) || Number(r.start?.line) || 1,
        column: r.start?.col != null ? Math.max(0, Number(r.start.col) - 1) : undefined,
        recommendation: meta.references?.length ? `See ${meta.references[0]}` : null,
      }),
    );
  }
  return { status: 'success', findings, meta: { errors: (doc.errors ?? []).length } };
}

export function createSemgrepAdapter(options: ExternalToolOptions & { rules?: string } = {}): AnalysisTool {
  const rules = options.rules ?? 'p/smart-contracts';
  return defineExternalTool(
    {
      name: 'semgrep',
      layer: 1,
      description: `Semgrep pattern rules for Solidity (config: ${rules})`,
      modes: ['full'],
      binary: 'semgrep',
      installHint:
        'pip install semgrep (rules: a local clone of github.com/Decurity/semgrep-smart-contracts, or p/smart-contracts with network access)',
      command: (ctx) => ({ args: ['--config', rules, '--json', '--metrics=off', '--disable-version-check', ctx.ws.file] }),
      parse: (out, _ctx, h) => parseSemgrep(out, h),
    },
    options,
  );
}
