// Before/after comparison for validate-remediation. Finding ids hash the flagged code, so a
// fixed line gets a new id even when the issue is still there, and ids of untouched code can
// shift with moved lines. Findings are therefore matched by what they are about: category +
// detector (or title when a tool names no detector) + contract + function. Several findings with
// one key are paired in line order; unpaired originals were fixed, unpaired new ones introduced.
import type { Finding, Severity } from '../../schemas/finding.ts';

export type Verdict = 'improved' | 'unchanged' | 'regressed' | 'broken';

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
