// SARIF 2.1.0 output for GitHub code scanning and other SARIF consumers. One rule per detector
// (with help text and a security-severity GitHub uses to rank alerts), one result per finding,
// and partialFingerprints from the stable finding id, so alerts survive unrelated edits.
import type { AnalysisResult } from '../../../kernel/contracts/analysis.ts';
import type { Finding, Severity } from '../../../schemas/finding.ts';
import { LAYER_NAMES } from '../../../schemas/finding.ts';
import { CATEGORY } from '../../../lib/analysis/taxonomy.ts';

export interface SarifOptions {
  /** URI of the analysed file as the repository sees it (e.g. "contracts/Token.sol"). */
  uri?: string;
  /** Prefix for relative file paths of a folder analysis (e.g. "contracts/"). */
  uriBase?: string;
  informationUri?: string;
}

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = {
  CRITICAL: 'error',
  HIGH: 'error',
  MEDIUM: 'warning',
  LOW: 'note',
  INFO: 'note',
};
/** GitHub ranks: >= 9 critical, 7-8.9 high, 4-6.9 medium, 0.1-3.9 low. */
const SECURITY_SEVERITY: Record<Severity, string | null> = { CRITICAL: '9.5', HIGH: '8.0', MEDIUM: '5.5', LOW: '3.0', INFO: null };
const RANK: Record<Severity, number> = { CRITICAL: 4, HIGH: 3, MEDIUM: 2, LOW: 1, INFO: 0 };

function ruleIdOf(f: Finding): string {
  return (f.detector ?? `${f.tools[0] ?? 'vigil'}-${f.category}`).replace(/[^A-Za-z0-9._/-]/g, '-');
}

function ruleName(id: string): string {
  return id
    .split(/[-_/.]+/)
    .filter(Boolean)
    .map((p) => p[0].toUpperCase() + p.slice(1))
    .join('');
}

function toUri(p: string): string {
  return p
    .replace(/\\/g, '/')
    .replace(/^\.\//, '')
    .split('/')
    .map((s) => encodeURIComponent(s))
    .join('/');
}

type Suppression = { kind: string; directive?: string; line?: number; rules?: string[]; justification?: string };
interface Entry {
  f: Finding;
  suppression?: Suppression;
  /** Set when the run compared against a baseline (--baseline). */
  baselineState?: 'new' | 'unchanged';
}

/** Reported findings, then those suppressed in source and those known from the baseline: all kept,
 *  marked the SARIF way (`suppressions`, `baselineState`) so viewers and code scanning show them right. */
function entriesOf(result: AnalysisResult): Entry[] {
  const b = result.baseline as { known_findings?: Finding[] } | undefined;
  const hasBaseline = Boolean(b && Array.isArray(b.known_findings));
  const out: Entry[] = result.findings.map((f) => ({ f, ...(hasBaseline ? { baselineState: 'new' as const } : {}) }));
  for (const f of (Array.isArray(result.suppressed) ? result.suppressed : []) as Array<Finding & { suppression?: Suppression }>) {
    const { suppression, ...rest } = f;
    out.push({ f: rest, suppression: suppression ?? { kind: 'inSource' } });
  }
  if (hasBaseline) for (const f of b!.known_findings!) out.push({ f, baselineState: 'unchanged' });
  return out;
}

export function toSarif(result: AnalysisResult, opts: SarifOptions = {}): Record<string, unknown> {
  const entries = entriesOf(result);
  const files = new Set(entries.map((e) => e.f.location.file));
  const singleFile = files.size <= 1 && !Array.isArray((result as { files?: unknown }).files);
  const uriFor = (f: Finding) => (opts.uri && singleFile ? toUri(opts.uri) : toUri((opts.uriBase ?? '') + f.location.file));

  const rules: Array<Record<string, any>> = [];
  const ruleIndex = new Map<string, number>();
  const ruleSeverity = new Map<string, Severity>();
  for (const { f } of entries) {
    const id = ruleIdOf(f);
    const prev = ruleSeverity.get(id);
    if (!prev || RANK[f.severity] > RANK[prev]) ruleSeverity.set(id, f.severity);
    if (ruleIndex.has(id)) continue;
    ruleIndex.set(id, rules.length);
    const tags = [
      'security',
      f.category.replace(/_/g, '-'),
      ...(f.swc_id ? [f.swc_id] : []),
      ...(f.cwe_id ? [`external/cwe/${f.cwe_id.toLowerCase()}`] : []),
    ];
    const layerNames = f.layers.map((l) => LAYER_NAMES[l] ?? `layer ${l}`).join(', ');
    rules.push({
      id,
      name: ruleName(id),
      shortDescription: { text: f.title },
      fullDescription: { text: `${f.title} (${CATEGORY[f.category]?.label ?? f.category}; reported by ${f.tools.join(', ')}).` },
      help: {
        text: `${f.recommendation || 'Review the reported code.'}${f.swc_id ? ` See ${f.swc_id}.` : ''}`,
        markdown: `**${f.title}**\n\nCategory: \`${f.category}\`${f.swc_id ? ` · ${f.swc_id}` : ''}${f.cwe_id ? ` · ${f.cwe_id}` : ''}\n\nLayers: ${layerNames}\n\n**Recommendation:** ${f.recommendation || 'Review the reported code.'}`,
      },
      ...(f.swc_id ? { helpUri: `https://swcregistry.io/docs/${f.swc_id}` } : {}),
      properties: { tags, precision: f.confidence >= 0.8 ? 'high' : f.confidence >= 0.5 ? 'medium' : 'low' },
      defaultConfiguration: { level: LEVEL[f.severity] },
    });
  }
  for (const r of rules) {
    const sev = ruleSeverity.get(r.id)!;
    r.defaultConfiguration.level = LEVEL[sev];
    const ss = SECURITY_SEVERITY[sev];
    if (ss) r.properties['security-severity'] = ss;
  }

  const results = entries.map(({ f, suppression, baselineState }) => {
    const id = ruleIdOf(f);
    const region: Record<string, number> = { startLine: f.location.line, endLine: Math.max(f.location.line, f.location.end_line) };
    if (f.location.column != null) region.startColumn = f.location.column + 1; // SARIF columns are 1-based
    const logical = [f.location.contract, f.location.function].filter(Boolean).join('.');
    return {
      ruleId: id,
      ruleIndex: ruleIndex.get(id),
      level: LEVEL[f.severity],
      message: { text: `${f.title}: ${f.description}` },
      locations: [
        {
          physicalLocation: { artifactLocation: { uri: uriFor(f) }, region },
          ...(logical ? { logicalLocations: [{ fullyQualifiedName: logical, kind: f.location.function ? 'function' : 'type' }] } : {}),
        },
      ],
      partialFingerprints: { 'vigilFindingId/v1': f.id },
      ...(baselineState ? { baselineState } : {}),
      ...(suppression
        ? {
            suppressions: [
              {
                kind: suppression.kind === 'external' ? 'external' : 'inSource',
                ...(suppression.justification ? { justification: suppression.justification } : {}),
                properties: {
                  ...(suppression.directive ? { directive: suppression.directive } : {}),
                  ...(suppression.line ? { line: suppression.line } : {}),
                  ...(suppression.rules ? { rules: suppression.rules } : {}),
                },
              },
            ],
          }
        : {}),
      properties: {
        severity: f.severity,
        confidence: f.confidence,
        category: f.category,
        tools: f.tools,
        layers: f.layers,
        ...(f.swc_id ? { swc: f.swc_id } : {}),
        ...(f.cwe_id ? { cwe: f.cwe_id } : {}),
        ...(f.evidence !== undefined ? { evidence: f.evidence } : {}),
      },
    };
  });

  const notifications = result.results
    .filter((r) => r.status !== 'success')
    .map((r) => ({
      level: r.status === 'error' ? 'error' : r.status === 'timeout' ? 'warning' : 'note',
      message: { text: `${r.tool} (layer ${r.layer}): ${r.status}${r.error ? ` — ${r.error}` : ''}` },
      descriptor: { id: `tool-${r.status}` },
    }));
  const compilation = result.compilation;
  if (compilation && !compilation.ok) {
    notifications.push({
      level: 'warning',
      message: { text: compilation.note ?? `compilation failed: ${compilation.errors[0] ?? ''}` },
      descriptor: { id: 'compilation-failed' },
    });
  }

  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'vigil',
            version: result.version,
            semanticVersion: result.version,
            informationUri: opts.informationUri ?? 'https://github.com/vigil-security/vigil',
            rules,
          },
        },
        automationDetails: { id: `vigil/${result.audit_type}/` },
        invocations: [
          {
            executionSuccessful: result.results.length === 0 || result.results.some((r) => r.status === 'success'),
            endTimeUtc: result.timestamp,
            toolExecutionNotifications: notifications,
          },
        ],
        results,
        properties: {
          audit_id: result.audit_id,
          summary: result.summary,
          tools: result.tools,
          layers: result.layers,
          contract: result.contract,
          ...(Array.isArray(result.suppressed) ? { suppressed: result.suppressed.length } : {}),
          ...(result.baseline
            ? {
                baseline: (({ file, known, new: fresh }) => ({ file, known, new: fresh }))(
                  result.baseline as { file: string; known: number; new: number },
                ),
              }
            : {}),
        },
      },
    ],
  };
}
