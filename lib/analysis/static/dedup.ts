// Within-layer dedup: two rules (or two report paths of one rule) describing the same bug on the
// same line would only be noise. One finding per (category, line) survives: the most severe,
// then the most confident; the others are named in its evidence so nothing is silently lost.
import type { Finding } from '../../../schemas/finding.ts';

const RANK: Record<string, number> = { CRITICAL: 5, HIGH: 4, MEDIUM: 3, LOW: 2, INFO: 1 };

export function dedupeFindings(findings: Finding[]): Finding[] {
  const best = new Map<string, { f: Finding; also: Set<string> }>();
  const order: string[] = [];
  for (const f of findings) {
    const key = `${f.location.file}\u0000${f.category}\u0000${f.location.line}`;
    const cur = best.get(key);
    if (!cur) {
      best.set(key, { f, also: new Set() });
      order.push(key);
      continue;
    }
    const better = RANK[f.severity] > RANK[cur.f.severity] || (RANK[f.severity] === RANK[cur.f.severity] && f.confidence > cur.f.confidence);
    const loser = better ? cur.f : f;
    if (better) cur.f = f;
    if (loser.detector && loser.detector !== cur.f.detector) cur.also.add(loser.detector);
  }
  const out: Finding[] = [];
  const seenIds = new Map<string, number>();
  for (const k of order) {
    const { f, also } = best.get(k)!;
    let g = f;
    if (also.size) {
      const ev = f.evidence && typeof f.evidence === 'object' && !Array.isArray(f.evidence) ? (f.evidence as Record<string, unknown>) : f.evidence === undefined ? {} : { detail: f.evidence };
      g = { ...f, evidence: { ...ev, also_reported_by: [...also].sort() } };
    }
    // Identical code in one function yields one hash; keep ids unique and still stable.
    const n = seenIds.get(g.id) ?? 0;
    seenIds.set(g.id, n + 1);
    if (n > 0) g = { ...g, id: `${g.id}-${n + 1}` };
    out.push(g);
  }
  return out.sort((a, b) => a.location.line - b.location.line || a.category.localeCompare(b.category));
}
