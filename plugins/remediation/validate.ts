// Before/after comparison for validate-remediation. Finding ids hash the flagged code, so a
// fixed line gets a new id even when the issue is still there, and ids of untouched code can
// shift with moved lines. Findings are therefore matched by what they are about: category +
// detector (or title when a tool names no detector) + contract + function. Several findings with
// one key are paired in line order; unpaired originals were fixed, unpaired new ones introduced.
import type { Finding, Severity } from '../../schemas/finding.ts';
import type { AnalysisEngine, PatchSide, PatchValidation, RemediationVerdict as Verdict, WorkerPool } from '../../kernel/index.ts';
import { compileSolidity, oneLine } from '../../lib/analysis/compiler/index.ts';

export const SEVERITY_WEIGHT: Record<Severity, number> = { CRITICAL: 10, HIGH: 5, MEDIUM: 2, LOW: 1, INFO: 0 };

export function matchKey(f: Finding): string {
  return [f.category, f.detector ?? f.title, f.location?.contract ?? '', f.location?.function ?? ''].join('|');
}

export interface Comparison {
  fixed: Finding[];
  remaining: Array<Finding & { original_id: string }>;
  introduced: Finding[];
  score_before: number;
  score_after: number;
}

export function compareFindings(before: Finding[], after: Finding[]): Comparison {
  const group = (xs: Finding[]) => {
    const m = new Map<string, Finding[]>();
    for (const f of xs) m.set(matchKey(f), [...(m.get(matchKey(f)) ?? []), f]);
    for (const v of m.values()) v.sort((a, b) => (a.location?.line ?? 0) - (b.location?.line ?? 0));
    return m;
  };
  const a = group(before);
  const b = group(after);
  const fixed: Finding[] = [];
  const remaining: Comparison['remaining'] = [];
  const introduced: Finding[] = [];
  for (const [k, olds] of a) {
    const news = b.get(k) ?? [];
    const n = Math.min(olds.length, news.length);
    for (let i = 0; i < n; i++) remaining.push({ ...news[i], original_id: olds[i].id });
    fixed.push(...olds.slice(n));
  }
  for (const [k, news] of b) introduced.push(...news.slice((a.get(k) ?? []).length));
  const score = (xs: Finding[]) => xs.reduce((s, f) => s + (SEVERITY_WEIGHT[f.severity] ?? 0), 0);
  return { fixed, remaining, introduced, score_before: score(before), score_after: score(after) };
}

/**
 * broken: the patch does not compile. regressed: it introduces a HIGH/CRITICAL finding or raises
 * the severity-weighted total. improved: it removes findings and lowers that total. Otherwise
 * unchanged.
 */
export function decideVerdict(compiles: boolean, c: Comparison): Verdict {
  if (!compiles) return 'broken';
  const severe = c.introduced.some((f) => f.severity === 'CRITICAL' || f.severity === 'HIGH');
  if (severe || c.score_after > c.score_before) return 'regressed';
  if (c.fixed.length > 0 && c.score_after < c.score_before) return 'improved';
  return 'unchanged';
}

/**
 * validate-remediation, shared by the REST route and the MCP tool so the two cannot drift:
 * compile both sides, analyse both in quick mode, compare. A patch that is not even Solidity is
 * a verdict ("broken"), not a bad request; the original must be valid (the caller's input check).
 */
export async function validatePatch(
  deps: {
    engine: Pick<AnalysisEngine, 'analyze'>;
    compile: { pool?: WorkerPool | null; signal?: AbortSignal; deadline?: number; roots: string[] };
  },
  original: PatchSide,
  patched: PatchSide,
  opts: { timeoutMs: number; signal?: AbortSignal },
): Promise<PatchValidation> {
  const { roots, ...compileOpts } = deps.compile;
  const [cOrig, cPatch] = await Promise.all(
    [original, patched].map((c) =>
      compileSolidity({ source: c.source, file: c.file, absPath: c.absPath, roots, outputs: 'check' }, compileOpts),
    ),
  );
  const analyzeOpts = { mode: 'quick' as const, timeoutMs: opts.timeoutMs, signal: opts.signal };
  const [aOrig, aPatch] = await Promise.all([
    deps.engine.analyze({ source: original.source, file: original.file, absPath: original.absPath }, analyzeOpts),
    deps.engine
      .analyze({ source: patched.source, file: original.file, absPath: patched.absPath }, analyzeOpts)
      .catch((e: { code?: string }) => {
        if (e?.code !== 'invalid_solidity') throw e;
        return { findings: [] as Finding[], total_findings: 0, audit_id: null };
      }),
  ]);
  const cmp = compareFindings(aOrig.findings, aPatch.findings);
  const verdict = decideVerdict(cPatch.ok, cmp);
  const compileErrors = cPatch.errors.map(oneLine);
  const summary =
    verdict === 'broken'
      ? `The patch does not compile with solc ${cPatch.compiler ?? '(none selected)'}: ${compileErrors[0] ?? cPatch.reason}.`
      : `${cmp.fixed.length} finding${cmp.fixed.length === 1 ? '' : 's'} fixed, ${cmp.remaining.length} remaining, ${cmp.introduced.length} introduced; severity score ${cmp.score_before} -> ${cmp.score_after} (${verdict}).`;
  return {
    compiles: cPatch.ok,
    compiler: cPatch.compiler,
    compile_errors: compileErrors,
    original: { compiles: cOrig.ok, compiler: cOrig.compiler, total_findings: aOrig.total_findings, audit_id: aOrig.audit_id },
    patched: { total_findings: aPatch.total_findings, audit_id: aPatch.audit_id },
    fixed: cmp.fixed,
    remaining: cmp.remaining,
    introduced: cmp.introduced,
    score: { before: cmp.score_before, after: cmp.score_after },
    verdict,
    summary,
    matching:
      'findings are matched by category + detector + contract + function, paired in line order; ids are not compared because they change when code moves',
  };
}
