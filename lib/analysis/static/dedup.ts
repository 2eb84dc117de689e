// Within-layer dedup: two rules (or two report paths of one rule) describing the same bug on the
// same line would only be noise. One finding per (category, line) survives: the most severe,
// then the most confident; the others are named in its evidence so nothing is silently lost.
import type { Finding } from '../../../schemas/finding.ts';

const RANK: Record<string, number> = { CRITICAL: 5, HIGH: 4, MEDIUM: 3, LOW: 2, INFO: 1 };

/** `f` with `extra` merged into its evidence (a non-object evidence is kept as `detail`). */
function withEvidence(f: Finding, extra: Record<string, unknown>): Finding {
  const ev =
    f.evidence && typeof f.evidence === 'object' && !Array.isArray(f.evidence)
      ? (f.evidence as Record<string, unknown>)
      : f.evidence === undefined
        ? {}
        : { detail: f.evidence };
  return { ...f, evidence: { ...ev, ...extra } };
}

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
    const better =
      RANK[f.severity] > RANK[cur.f.severity] || (RANK[f.severity] === RANK[cur.f.severity] && f.confidence > cur.f.confidence);
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
      g = withEvidence(f, { also_reported_by: [...also].sort() });
    }
    // Identical code in one function yields one hash; keep ids unique and still stable.
    const n = seenIds.get(g.id) ?? 0;
    seenIds.set(g.id, n + 1);
    if (n > 0) g = { ...g, id: `${g.id}-${n + 1}` };
    out.push(g);
  }
  return out.sort((a, b) => a.location.line - b.location.line || a.category.localeCompare(b.category));
}

/** Notes that describe the project's configuration rather than one file's code: one per run. */
const PROJECT_NOTES = new Set(['floating-pragma']);

/**
 * Groups informational notes over a run that covers several files: a project-wide note
 * (floating-pragma) is kept once, naming every file it applies to, and INFO notes of one detector
 * are capped per file (`perFileCap`, the rest folded into the last kept note). Nothing is dropped
 * silently: the folded locations are listed in the kept note's evidence.
 */
export function groupProjectNotes(findings: Finding[], opts: { perFileCap?: number } = {}): Finding[] {
  const cap = opts.perFileCap ?? 3;
  const out: Finding[] = [];
  const project = new Map<string, { at: number; files: Set<string> }>();
  const perFile = new Map<string, { at: number; kept: number; folded: number[] }>();
  for (const f of findings) {
    if (f.severity !== 'INFO' || !f.detector) {
      out.push(f);
      continue;
    }
    if (PROJECT_NOTES.has(f.detector)) {
      const g = project.get(f.detector);
      if (g) g.files.add(f.location.file);
      else {
        project.set(f.detector, { at: out.length, files: new Set([f.location.file]) });
        out.push(f);
      }
      continue;
    }
    const key = `${f.detector}\u0000${f.location.file}`;
    const g = perFile.get(key);
    if (!g || g.kept < cap) {
      if (g) {
        g.kept++;
        g.at = out.length;
      } else perFile.set(key, { at: out.length, kept: 1, folded: [] });
      out.push(f);
    } else g.folded.push(f.location.line);
  }
  for (const g of project.values()) {
    if (g.files.size < 2) continue;
    const f = out[g.at];
    out[g.at] = withEvidence(
      { ...f, description: `${f.description} The same applies to ${g.files.size - 1} more file(s) of this run.` },
      { files: [...g.files].sort() },
    );
  }
  for (const g of perFile.values()) {
    if (!g.folded.length) continue;
    const f = out[g.at];
    out[g.at] = withEvidence(
      { ...f, description: `${f.description} ${g.folded.length} more similar note(s) in this file were folded into this one.` },
      { folded_lines: g.folded },
    );
  }
  return out;
}
