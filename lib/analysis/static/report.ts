// Turns a detector report into the normalized finding (schemas/finding.ts): stable id from the
// detector, contract, function and the flagged code; 1-based lines clamped to the source.
import type { DetectorMeta, DetectorReport } from '../../../kernel/contracts/detector.ts';
import type { Finding } from '../../../schemas/finding.ts';
import { findingId, sliceLines } from '../ids.ts';
import type { StaticFacts } from './facts.ts';

export const STATIC_TOOL = 'vigil-static';

function fill(template: string, data: Record<string, string | number> | undefined): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, k: string) => (data && k in data ? String(data[k]) : `{{${k}}}`));
}

/** Builds a schema-conformant finding from a detector report. */
export function reportToFinding(
  meta: DetectorMeta,
  r: DetectorReport,
  facts: Pick<StaticFacts, 'enclosing' | 'source' | 'file'>,
  tool = STATIC_TOOL,
): Finding {
  const lineCount = facts.source.split('\n').length;
  const loc = r.node?.loc;
  let line = r.loc?.line ?? loc?.start.line ?? 1;
  let end = r.loc?.end_line ?? (r.loc ? line : (loc?.end.line ?? line));
  line = Math.min(Math.max(1, line), lineCount);
  end = Math.min(Math.max(line, end), lineCount);
  const column = r.loc?.column ?? loc?.start.column;
  const enc = r.node ? facts.enclosing(r.node) : { contract: null, fn: null };
  const contract = r.contract !== undefined ? r.contract : (enc.contract?.name ?? null);
  const fn = r.function !== undefined ? r.function : enc.fn ? enc.fn.name : null;
  const message = r.message ?? (r.messageId && meta.messages?.[r.messageId] ? fill(meta.messages[r.messageId], r.data) : null);
  const finding: Finding = {
    id: findingId({ detector: meta.id, contract, function: fn, code: sliceLines(facts.source, line, end) }),
    detector: meta.id,
    title: meta.title,
    description: message ? `${message} ${meta.description}`.trim() : meta.description,
    severity: r.severity ?? meta.severity,
    confidence: Math.min(1, Math.max(0, r.confidence ?? meta.confidence)),
    category: meta.category,
    swc_id: meta.swc ?? null,
    cwe_id: meta.cwe ?? null,
    location: { file: facts.file, line, end_line: end, ...(typeof column === 'number' ? { column } : {}), contract, function: fn },
    tools: [tool],
    layers: [meta.layer ?? 1],
    recommendation: meta.recommendation,
  };
  if (r.evidence !== undefined) finding.evidence = r.evidence;
  return finding;
}
