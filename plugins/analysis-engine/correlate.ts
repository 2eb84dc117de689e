// Layer 9, correlation: findings of every tool merged by category and location, so one bug seen
// by a static rule, a fuzzer and the SMTChecker is one finding that names all three. Agreement
// between independent tools raises confidence, proof (a counterexample or transaction sequence)
// raises it further, and the severity comes from the most trusted reporter.
//
// Support-only findings are signals that back another layer's claim but are no claim by
// themselves: an ML prediction (a function resembles vulnerable ones), an AI item that confirms
// an earlier finding, a lint hit on a construct or on hygiene (a low-level call, a timestamp
// read, a missing visibility keyword). They join
// the claim they agree with (same category, near it or in the same function) and raise its
// confidence; alone they are not reported in the verdict (the tool's own result still lists
// them), so agreement never counts as extra findings and a hint never reads as a vulnerability.
import type { Finding } from '../../schemas/finding.ts';
import { findingId, sliceLines } from '../../lib/analysis/ids.ts';

export interface CorrelateOptions {
  /** Findings this many lines apart (or overlapping) can be the same issue. Default 3. */
  nearLines?: number;
  /** Keep clusters made only of support-only findings (default false: they are no claim). */
  keepUnsupported?: boolean;
}

/** Evidence kinds that support a claim without making one. */
export const SUPPORT_ONLY_EVIDENCE: ReadonlySet<string> = new Set(['prediction', 'lint', 'llm_review']);

/**
 * True for a finding that only supports others: an ML prediction, a lint hit, or an
 * AI item that is not its own (llm_only) claim. An LLM-only finding stays a claim, marked as such.
 */
export function supportOnly(f: Finding): boolean {
  const e = f.evidence as { kind?: string } | undefined | null;
  if (!e || typeof e !== 'object' || typeof e.kind !== 'string' || !SUPPORT_ONLY_EVIDENCE.has(e.kind)) return false;
  return !(e.kind === 'llm_review' && f.llm_only);
}

/** Trust of a layer's verdicts: proofs and executions over patterns over predictions. */
const LAYER_TRUST: Record<number, number> = { 4: 9, 3: 8, 2: 7, 1: 5, 7: 4, 8: 4, 6: 2, 5: 1 };

function hasProof(f: Finding): boolean {
  const e = f.evidence as { kind?: string; counterexample?: unknown; transactions?: unknown; tx_sequence?: unknown } | undefined | null;
  if (!e || typeof e !== 'object') return false;
  return (
    e.kind === 'counterexample' ||
    e.kind === 'transaction_sequence' ||
    e.counterexample != null ||
    e.transactions != null ||
    e.tx_sequence != null
  );
}

export function trustOf(f: Finding): number {
  const layer = Math.max(...(f.layers.length ? f.layers : [0]).map((l) => LAYER_TRUST[l] ?? 0));
  return (hasProof(f) ? 100 : 0) + layer * 10 + f.confidence;
}

interface Cluster {
  members: Finding[];
  file: string;
  category: string;
  fn: string | null;
  contract: string | null;
  line: number;
  end: number;
}

function near(c: Cluster, f: Finding, slack: number): boolean {
  const a0 = c.line - slack;
  const a1 = c.end + slack;
  return f.location.line <= a1 && f.location.end_line >= a0;
}

function compatible(c: Cluster, f: Finding, slack: number): boolean {
  if (c.category !== f.category || c.file !== f.location.file) return false;
  const fn = f.location.function ?? null;
  if (c.fn && fn && c.fn !== fn) return false;
  const ct = f.location.contract ?? null;
  if (c.contract && ct && c.contract !== ct) return false;
  // A support-only finding about a function (an ML prediction sits on its header) backs a claim
  // anywhere in that function.
  if (!near(c, f, slack) && !(supportOnly(f) && fn && c.fn === fn)) return false;
  // Two hits of one tool on different lines are two issues; on the same line, one.
  return !c.members.some((m) => m.tools.some((t) => f.tools.includes(t)) && m.location.line !== f.location.line);
}

/** Lines between a cluster and a finding (0 when they overlap). */
function distance(c: Cluster, f: Finding): number {
  return Math.max(0, c.line - f.location.end_line, f.location.line - c.end);
}

/** The compatible cluster a finding belongs to: the one holding what it confirms, else the nearest. */
function bestCluster(clusters: Cluster[], f: Finding, slack: number): Cluster | undefined {
  const confirms = (f.evidence as { confirms?: unknown } | undefined)?.confirms;
  let best: Cluster | undefined;
  let bestD = Infinity;
  for (const c of clusters) {
    if (!compatible(c, f, slack)) continue;
    if (typeof confirms === 'string' && c.members.some((m) => m.id === confirms)) return c;
    const d = distance(c, f);
    if (d < bestD) {
      best = c;
      bestD = d;
    }
  }
  return best;
}

/** The lines a merged finding covers: every member's that makes a claim of its own (hints such as an
 *  ML prediction on a function header do not widen it). A static rule on a mis-named constructor's
 *  header and the fuzzer's proof on the owner write two lines below are one finding about both lines;
 *  the proof's exact line stays in its evidence. */
function span(members: Finding[], primary: Finding): Finding['location'] {
  const claims = members.filter((m) => !supportOnly(m));
  const from = claims.length ? claims : [primary];
  const line = Math.min(...from.map((m) => m.location.line));
  const end_line = Math.max(...from.map((m) => m.location.end_line));
  if (line === primary.location.line) return { ...primary.location, end_line };
  // The column belongs to whichever member starts the span.
  const { column: _c, ...rest } = primary.location;
  const column = from.find((m) => m.location.line === line)?.location.column;
  return { ...rest, line, end_line, ...(column !== undefined ? { column } : {}) };
}

/** Merges findings from all tools; the result is sorted by severity then location. */
export function correlate(findings: Finding[], source?: string | null, opts: CorrelateOptions = {}): Finding[] {
  const slack = opts.nearLines ?? 3;
  // Claims first (most trusted first), so a cluster's primary is always a claim.
  const rankOf = (f: Finding) => (supportOnly(f) ? 0 : 1000) + trustOf(f);
  const sorted = [...findings].sort((a, b) => rankOf(b) - rankOf(a));
  const clusters: Cluster[] = [];
  for (const f of sorted) {
    const c = bestCluster(clusters, f, slack);
    if (c) {
      c.members.push(f);
      c.fn ??= f.location.function ?? null;
      c.contract ??= f.location.contract ?? null;
    } else {
      clusters.push({
        members: [f],
        file: f.location.file,
        category: f.category,
        fn: f.location.function ?? null,
        contract: f.location.contract ?? null,
        line: f.location.line,
        end: f.location.end_line,
      });
    }
  }
  const out = clusters.filter((c) => opts.keepUnsupported || !c.members.every(supportOnly)).map((c) => merge(c, source ?? null));
  const rank: Record<string, number> = { CRITICAL: 0, HIGH: 1, MEDIUM: 2, LOW: 3, INFO: 4 };
  return out.sort(
    (a, b) =>
      rank[a.severity] - rank[b.severity] ||
      a.location.file.localeCompare(b.location.file) ||
      a.location.line - b.location.line ||
      a.id.localeCompare(b.id),
  );
}

function merge(c: Cluster, source: string | null): Finding {
  const primary = c.members[0];
  if (c.members.length === 1) return primary;
  const tools: string[] = [];
  const layers = new Set<number>();
  const bestPerTool = new Map<string, number>();
  for (const m of c.members) {
    // The offline demo review restates the finding it confirms: listed, but no independent vote.
    const echo = (m.evidence as { kind?: string; provider?: string } | undefined)?.provider === 'demo';
    for (const t of m.tools) {
      if (!tools.includes(t)) tools.push(t);
      if (!echo) bestPerTool.set(t, Math.max(bestPerTool.get(t) ?? 0, m.confidence));
    }
    for (const l of m.layers) layers.add(l);
  }
  // Independent agreement: 1 - P(all reporters wrong); proof adds on top.
  let confidence = 1 - [...bestPerTool.values()].reduce((p, conf) => p * (1 - Math.min(conf, 0.95)), 1);
  const proof = c.members.find(hasProof);
  if (proof) confidence = Math.max(confidence, proof.confidence) + 0.05;
  confidence = Math.round(Math.min(0.99, Math.max(confidence, primary.confidence)) * 100) / 100;
  const fn = primary.location.function ?? c.fn;
  const contract = primary.location.contract ?? c.contract;
  const code = source
    ? sliceLines(source, primary.location.line, primary.location.end_line)
    : c.members
        .map((m) => m.id)
        .sort()
        .join(',');
  const others = c.members.slice(1).map((m) => `${m.tools.join('+')} (${m.detector ?? m.title}, line ${m.location.line})`);
  const merged: Finding = {
    ...primary,
    id: tools.length > 1 ? findingId({ detector: `correlated:${primary.category}`, contract, function: fn, code }) : primary.id,
    description: `${primary.description} Also reported by ${others.join('; ')}.`,
    confidence,
    location: { ...span(c.members, primary), contract: contract ?? null, function: fn ?? null },
    tools,
    layers: [...layers].sort((a, b) => a - b),
    swc_id: primary.swc_id ?? c.members.find((m) => m.swc_id)?.swc_id ?? null,
    cwe_id: primary.cwe_id ?? c.members.find((m) => m.cwe_id)?.cwe_id ?? null,
  };
  if (proof && merged.evidence === undefined) merged.evidence = proof.evidence;
  if (c.members.some((m) => !m.llm_only)) delete merged.llm_only;
  return merged;
}
