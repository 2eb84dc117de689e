// `vigil analyze --baseline FILE`: report and fail only on findings that are not in an earlier
// vigil output (decisions.md, "Added 2026-11-25"). Findings are compared by their stable id (a
// hash of detector, contract, function and normalised code, so moved lines keep their id).
//
// FILE is an earlier `--format json` or `--format sarif` output of vigil: JSON ids come from
// `findings`, `suppressed` and `baseline.known_findings` (so an output made with a baseline is a
// complete baseline again); SARIF ids from each result's `partialFingerprints["vigilFindingId/v1"]`.
// Anything else (missing, unreadable, not JSON, another tool's output) is a BaselineError: the
// CLI answers exit 2 with its message, never a run that silently compares against nothing.
import fs from 'node:fs';
import type { AnalysisResult } from '../../kernel/index.ts';
import type { Finding } from '../../schemas/finding.ts';
import { recount } from './suppress.ts';

export class BaselineError extends Error {}

export interface Baseline {
  file: string;
  format: 'json' | 'sarif';
  ids: Set<string>;
}

export const SARIF_FINGERPRINT = 'vigilFindingId/v1';

const ids = (list: unknown): string[] =>
  Array.isArray(list)
    ? list
        .map((f) => (f && typeof f === 'object' ? (f as { id?: unknown }).id : null))
        .filter((x): x is string => typeof x === 'string' && x !== '')
    : [];

/** Reads the finding ids of an earlier vigil output. Throws BaselineError with a sentence a user can act on. */
export function loadBaseline(file: string): Baseline {
  let text: string;
  try {
    const st = fs.statSync(file);
    if (st.isDirectory())
      throw new BaselineError(
        `baseline ${file} is a folder; give the JSON or SARIF file an earlier \`vigil analyze --format json|sarif\` wrote`,
      );
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if (e instanceof BaselineError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT')
      throw new BaselineError(`baseline file not found: ${file} (write one with \`vigil analyze PATH --format sarif > ${file}\`)`);
    throw new BaselineError(`cannot read baseline file ${file}: ${(e as Error).message}`);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    const hint = /^\s*#/.test(text) ? ' (it looks like a Markdown report)' : '';
    throw new BaselineError(
      `baseline ${file} is not JSON${hint}: give an earlier \`vigil analyze --format json\` or \`--format sarif\` output`,
    );
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc))
    throw new BaselineError(`baseline ${file} is not a vigil JSON or SARIF output (expected an object)`);
  const d = doc as Record<string, unknown>;

  if (Array.isArray(d.runs) && typeof d.version === 'string') {
    const runs = d.runs as Array<{ tool?: { driver?: { name?: unknown } }; results?: unknown }>;
    const ours = runs.filter((r) => r?.tool?.driver?.name === 'vigil');
    if (!ours.length) {
      const names = [
        ...new Set(runs.map((r) => (typeof r?.tool?.driver?.name === 'string' ? r.tool.driver.name : 'an unnamed tool'))),
      ].join(', ');
      throw new BaselineError(
        `baseline ${file} is a SARIF log from ${names || 'no tool'}, not from vigil: its results have no vigil finding ids to compare with`,
      );
    }
    const set = new Set<string>();
    for (const run of ours) {
      for (const r of Array.isArray(run.results) ? (run.results as Array<{ partialFingerprints?: Record<string, unknown> }>) : []) {
        const id = r?.partialFingerprints?.[SARIF_FINGERPRINT];
        if (typeof id === 'string' && id) set.add(id);
      }
    }
    return { file, format: 'sarif', ids: set };
  }

  if (Array.isArray(d.findings) && (typeof d.audit_id === 'string' || typeof d.audit_type === 'string')) {
    const b = d.baseline as { known_findings?: unknown } | undefined;
    return { file, format: 'json', ids: new Set([...ids(d.findings), ...ids(d.suppressed), ...ids(b?.known_findings)]) };
  }
  throw new BaselineError(
    `baseline ${file} is not a vigil output: expected the JSON (with audit_id and findings) or the SARIF log that \`vigil analyze\` prints`,
  );
}

/**
 * Moves findings whose id is in the baseline from `findings` to `baseline.known_findings`,
 * recounts the summary and records how many were known and how many are new.
 */
export function applyBaseline(result: AnalysisResult, baseline: Baseline): AnalysisResult {
  const known: Finding[] = [];
  const fresh: Finding[] = [];
  for (const f of result.findings) (baseline.ids.has(f.id) ? known : fresh).push(f);
  result.findings = fresh;
  recount(result);
  result.baseline = { file: baseline.file, format: baseline.format, known: known.length, new: fresh.length, known_findings: known };
  return result;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** One line each for what suppressions and the baseline took out of the report (for stderr and summaries). */
export function filterNotes(result: AnalysisResult): string[] {
  const notes: string[] = [];
  const suppressed = Array.isArray(result.suppressed) ? result.suppressed.length : 0;
  if (suppressed)
    notes.push(`${plural(suppressed, 'finding')} suppressed by comments in the source (kept in the output as suppressed, not counted)`);
  const b = result.baseline as { file?: string; known?: number; new?: number } | undefined;
  if (b && typeof b.known === 'number')
    notes.push(`baseline ${b.file}: ${plural(b.known, 'finding')} already known (not reported), ${plural(b.new ?? 0, 'new finding')}`);
  return notes;
}
