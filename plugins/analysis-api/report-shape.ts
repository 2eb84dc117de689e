// What a stored report may look like, and how a stored row is made safe to render or list.
//
// A POSTed body that claims to be an analysis (it has `findings` or `summary`) must match the
// analysis shape exactly as the engine writes it: counts are integers, lines are integers,
// confidence is a number in 0..1, severities come from the list, and so on — else 400
// invalid_report naming the first wrong fields. Other objects are stored as free-form
// "submitted" reports and only ever returned as JSON. Bodies nested deeper than 64 levels are
// refused too (SQLite's JSON functions fail on very deep documents, which broke listings).
//
// Rows written before this validation existed (or by hand) are never trusted: rendering goes
// through coerceAnalysis(), which rebuilds the result field by field with the right types, and
// the listing shows a row whose summary is not a set of counts as damaged instead of failing.
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { HttpError, type AnalysisResult } from '../../kernel/index.ts';
import { CATEGORIES, Finding, SEVERITIES } from '../../schemas/finding.ts';

export const MAX_REPORT_DEPTH = 64;

const Count = Type.Integer({ minimum: 0 });
const NullableString = Type.Union([Type.String(), Type.Null()]);

export const StoredAnalysis = Type.Object(
  {
    audit_id: Type.String({ minLength: 1, maxLength: 200 }),
    audit_type: Type.Union(['quick', 'full', 'layer', 'tool'].map((t) => Type.Literal(t))),
    contract: Type.Object(
      { name: NullableString, sha256: Type.String(), pragma: NullableString, compiler: NullableString },
      { additionalProperties: true },
    ),
    layers: Type.Array(Type.Integer({ minimum: 0, maximum: 99 })),
    tools: Type.Array(Type.String()),
    results: Type.Array(
      Type.Object(
        {
          tool: Type.String(),
          layer: Type.Integer({ minimum: 0, maximum: 99 }),
          status: Type.String(),
          findings: Type.Array(Type.Unknown()),
          execution_time: Type.Number({ minimum: 0 }),
          error: NullableString,
        },
        { additionalProperties: true },
      ),
    ),
    findings: Type.Array(Finding),
    summary: Type.Record(Type.String(), Count),
    total_findings: Count,
    execution_time: Type.Number({ minimum: 0 }),
    timestamp: Type.String(),
    version: Type.String(),
    notes: Type.Optional(Type.Array(Type.String())),
  },
  { additionalProperties: true },
);
export type StoredAnalysis = Static<typeof StoredAnalysis>;

/** Depth of a JSON value (a scalar is 0, `[]` is 1), stopping once `limit` is passed. */
export function jsonDepth(v: unknown, limit = MAX_REPORT_DEPTH): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[v, 0]];
  while (stack.length) {
    const [x, d] = stack.pop()!;
    if (x === null || typeof x !== 'object') continue;
    const nd = d + 1;
    if (nd > max) max = nd;
    if (max > limit) return max;
    for (const c of Array.isArray(x) ? x : Object.values(x)) stack.push([c, nd]);
  }
  return max;
}

/** Validates a body for POST /api/v1/reports/ and says which kind of report it is. */
export function classifyReport(body: Record<string, unknown>): 'analysis' | 'submitted' {
  if (jsonDepth(body) > MAX_REPORT_DEPTH) {
    throw new HttpError(400, 'invalid_report', `the report is nested more than ${MAX_REPORT_DEPTH} levels deep`, {
      max_depth: MAX_REPORT_DEPTH,
    });
  }
  if (!('findings' in body) && !('summary' in body)) return 'submitted';
  if (Value.Check(StoredAnalysis, body)) {
    const s = body;
    const unknownSeverity = Object.keys(s.summary).filter((k) => !(SEVERITIES as readonly string[]).includes(k));
    if (!unknownSeverity.length) return 'analysis';
    throw new HttpError(
      400,
      'invalid_report',
      `summary may only count ${SEVERITIES.join(', ')}; got ${unknownSeverity.slice(0, 3).join(', ')}`,
      { errors: unknownSeverity.map((k) => ({ path: `/summary/${k}`, message: 'not a severity' })) },
    );
  }
  const errors = [...Value.Errors(StoredAnalysis, body)].slice(0, 10).map((e) => ({ path: e.path, message: e.message }));
  throw new HttpError(
    400,
    'invalid_report',
    `a report with findings or summary must be an analysis result (the body analyze returns): ${errors
      .slice(0, 3)
      .map((e) => `${e.path || '/'} ${e.message}`)
      .join('; ')}`,
    { errors },
  );
}

const str = (v: unknown, dflt = ''): string =>
  typeof v === 'string' ? v : v === null || v === undefined ? dflt : typeof v === 'number' || typeof v === 'boolean' ? String(v) : dflt;
const nstr = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown, dflt = 0): number => (typeof v === 'number' && Number.isFinite(v) ? v : dflt);
const int = (v: unknown, dflt = 0): number => (typeof v === 'number' && Number.isInteger(v) ? v : dflt);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const obj = (v: unknown): Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const oneOf = <T extends string>(v: unknown, list: readonly T[], dflt: T): T =>
  typeof v === 'string' && (list as readonly string[]).includes(v) ? (v as T) : dflt;

/**
 * A stored analysis rebuilt with the right type in every field the formatters read, so a row
 * written by hand or by an older version can neither break rendering nor smuggle markup through
 * a field a formatter trusts to be a number.
 */
export function coerceAnalysis(data: Record<string, unknown>): AnalysisResult {
  const c = obj(data.contract);
  const summary = obj(data.summary);
  const finding = (x: unknown) => {
    const f = obj(x);
    const loc = obj(f.location);
    const line = Math.max(1, int(loc.line, 1));
    return {
      id: str(f.id),
      detector: typeof f.detector === 'string' ? f.detector : undefined,
      title: str(f.title, 'untitled finding'),
      description: str(f.description),
      severity: oneOf(f.severity, SEVERITIES, 'INFO'),
      confidence: Math.min(1, Math.max(0, num(f.confidence))),
      category: oneOf(f.category, CATEGORIES, 'other'),
      swc_id: nstr(f.swc_id),
      cwe_id: nstr(f.cwe_id),
      location: {
        file: str(loc.file),
        line,
        end_line: Math.max(line, int(loc.end_line, line)),
        contract: nstr(loc.contract),
        function: nstr(loc.function),
      },
      tools: arr(f.tools).map((t) => str(t)),
      layers: arr(f.layers).filter((l): l is number => Number.isInteger(l)),
      recommendation: str(f.recommendation),
      ...(f.evidence !== undefined ? { evidence: f.evidence } : {}),
    };
  };
  const findings = arr(data.findings).map(finding);
  return {
    audit_id: str(data.audit_id),
    audit_type: oneOf(data.audit_type, ['quick', 'full', 'layer', 'tool'] as const, 'quick'),
    contract: { name: nstr(c.name), sha256: str(c.sha256), pragma: nstr(c.pragma), compiler: nstr(c.compiler) },
    layers: arr(data.layers).filter((l): l is number => Number.isInteger(l)),
    tools: arr(data.tools).map((t) => str(t)),
    results: arr(data.results).map((x) => {
      const r = obj(x);
      return {
        tool: str(r.tool),
        layer: int(r.layer),
        status: oneOf(r.status, ['success', 'error', 'timeout', 'not_available', 'skipped'] as const, 'error'),
        findings: arr(r.findings).map(finding),
        execution_time: Math.max(0, num(r.execution_time)),
        error: nstr(r.error),
      };
    }),
    findings,
    summary: Object.fromEntries(SEVERITIES.map((s) => [s, Math.max(0, int(summary[s]))])) as AnalysisResult['summary'],
    total_findings: Math.max(0, int(data.total_findings, findings.length)),
    execution_time: Math.max(0, num(data.execution_time)),
    timestamp: str(data.timestamp),
    version: str(data.version),
    notes: arr(data.notes).filter((n): n is string => typeof n === 'string'),
  };
}

/** A listing row's summary: counts per severity, or null when the stored value is not that. */
export function listingSummary(raw: unknown): { summary: Record<string, number> | null; damaged: boolean } {
  if (raw === null || raw === undefined) return { summary: null, damaged: false };
  const o = obj(raw);
  const entries = Object.entries(o);
  if (raw !== o || entries.some(([, v]) => !Number.isInteger(v) || (v as number) < 0)) return { summary: null, damaged: true };
  return { summary: Object.fromEntries(entries) as Record<string, number>, damaged: false };
}
