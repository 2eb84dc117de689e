// The static layer's engine: parse once, compute facts once, then run every enabled detector's
// visitor in ONE traversal (ESLint's model). A detector that throws is switched off for the rest
// of the file and becomes a diagnostic carrying its id; the others keep running.
import type { Detector, Visitor } from '../../../kernel/contracts/detector.ts';
import type { Finding } from '../../../schemas/finding.ts';
import { reportToFinding, STATIC_TOOL } from './report.ts';
import { children, isNode, type Node } from './ast.ts';
import { computeFacts, type StaticFacts } from './facts.ts';
import { parseSolidity, type ParseDiagnostic } from './parse.ts';
import { dedupeFindings } from './dedup.ts';
import { serializeNode, type WasmNodeInput } from './wasm-protocol.ts';
import { sourceMemo } from '../source-memo.ts';

export { STATIC_TOOL, reportToFinding } from './report.ts';

export interface DetectorEntry {
  detector: Detector<StaticFacts>;
  config?: Record<string, unknown>;
  /** The tool its findings are labelled with (vigil-static unless the rule is a layer 7/8 one). */
  tool?: string;
}

export interface EngineDiagnostic {
  kind: 'parse_error' | 'detector_error';
  message: string;
  detector?: string;
  line?: number | null;
  column?: number | null;
  skipped?: { from: number; to: number } | null;
}

export interface AnalyzeOptions {
  /** Node types to collect per WASM detector id (the worker sends these to the guest). */
  collectNodes?: Array<{ id: string; types: string[] }>;
  /** Skip the within-layer dedup (tests that look at one detector's raw reports). */
  raw?: boolean;
}

export interface StaticResult {
  findings: Finding[];
  diagnostics: EngineDiagnostic[];
  /** Per WASM detector id: the protocol input to hand to the guest. */
  wasmInputs: Record<string, { file: string; nodes: WasmNodeInput[] }>;
  stats: { parse_ms: number; facts_ms: number; traverse_ms: number; nodes: number; detectors: number; partial: boolean };
}

function toEntry(d: Detector<StaticFacts> | DetectorEntry): DetectorEntry {
  return 'create' in d ? { detector: d } : d;
}

// The static layer and layers 7/8 run over the same source in the same worker: parse and compute
// facts once per thread (both are read-only to detectors, which already share them in a run).
const units = sourceMemo<{ parsed: ReturnType<typeof parseSolidity>; facts: StaticFacts; parseMs: number; factsMs: number }>({ max: 4 });

/** Analyses one Solidity source with the given detectors, in process. */
export async function analyzeSource(
  source: string,
  file: string,
  detectors: Array<Detector<StaticFacts> | DetectorEntry>,
  opts: AnalyzeOptions = {},
): Promise<StaticResult> {
  if (typeof source !== 'string') throw new TypeError('analyzeSource: source must be a string');
  const diagnostics: EngineDiagnostic[] = [];
  const t0 = performance.now();
  let reused = true;
  const { parsed, facts, parseMs, factsMs } = units.get(`${file}\u0000${source}`, () => {
    reused = false;
    const a = performance.now();
    const parsed = parseSolidity(source);
    const b = performance.now();
    const facts = computeFacts(parsed.ast, source, file);
    return { parsed, facts, parseMs: b - a, factsMs: performance.now() - b };
  });
  for (const d of parsed.diagnostics) diagnostics.push(parseDiag(d));
  // Stats report what this call spent: nothing for parse and facts on a memo hit.
  const t1 = t0 + (reused ? 0 : parseMs);
  const t2 = t1 + (reused ? 0 : factsMs);

  const findings: Finding[] = [];
  const entries = detectors.map(toEntry);
  const dead = new Set<string>();
  const handlers = new Map<string, Array<{ id: string; fn: (n: Node, p?: Node) => void }>>();
  const finishers: Array<{ id: string; fn: () => Promise<void> }> = [];
  const fail = (id: string, e: unknown, node?: Node) => {
    if (dead.has(id)) return;
    dead.add(id);
    diagnostics.push({
      kind: 'detector_error',
      detector: id,
      message: `detector ${id} failed${node?.type ? ` on ${node.type}` : ''}: ${e instanceof Error ? e.message : String(e)}`,
      line: node?.loc?.start?.line ?? null,
    });
  };

  for (const { detector, config, tool } of entries) {
    const meta = detector.meta;
    let visitor: Visitor & { $finish?: () => Promise<void> };
    try {
      visitor = detector.create({
        source,
        file,
        ast: parsed.ast,
        facts,
        config: config ?? {},
        report: (r) => {
          if (dead.has(meta.id)) return;
          // Behaviour of code no transaction can reach is not a finding.
          if (r.node && facts.unreachable(r.node)) return;
          findings.push(reportToFinding(meta, r, facts, tool));
        },
      });
    } catch (e) {
      fail(meta.id, e);
      continue;
    }
    for (const [key, fn] of Object.entries(visitor ?? {})) {
      if (key === '$finish') continue;
      if (typeof fn !== 'function') continue;
      let list = handlers.get(key);
      if (!list) handlers.set(key, (list = []));
      list.push({ id: meta.id, fn });
    }
    if (typeof visitor?.$finish === 'function') finishers.push({ id: meta.id, fn: visitor.$finish });
  }

  const collect = opts.collectNodes ?? [];
  const collectByType = new Map<string, string[]>();
  const wasmInputs: StaticResult['wasmInputs'] = {};
  for (const c of collect) {
    wasmInputs[c.id] = { file, nodes: [] };
    for (const t of c.types) {
      const l = collectByType.get(t) ?? [];
      l.push(c.id);
      collectByType.set(t, l);
    }
  }

  let count = 0;
  const call = (key: string, n: Node, p: Node | null) => {
    const list = handlers.get(key);
    if (!list) return;
    for (const h of list) {
      if (dead.has(h.id)) continue;
      try {
        h.fn(n, p ?? undefined);
      } catch (e) {
        fail(h.id, e, n);
      }
    }
  };
  // Iterative traversal: a deeply nested 1 MB source must not overflow the stack.
  const stack: Array<{ n: Node; p: Node | null; exit: boolean }> = [{ n: parsed.ast, p: null, exit: false }];
  while (stack.length) {
    const { n, p, exit } = stack.pop()!;
    if (exit) {
      call(`${n.type}:exit`, n, p);
      continue;
    }
    count++;
    call(n.type, n, p);
    const ids = collectByType.get(n.type);
    if (ids) for (const id of ids) wasmInputs[id].nodes.push(serializeNode(n, wasmInputs[id].nodes.length, facts));
    stack.push({ n, p, exit: true });
    const kids = children(n);
    for (let i = kids.length - 1; i >= 0; i--) if (isNode(kids[i])) stack.push({ n: kids[i], p: n, exit: false });
  }
  for (const f of finishers) {
    if (dead.has(f.id)) continue;
    try {
      await f.fn();
    } catch (e) {
      fail(f.id, e);
    }
  }
  const t3 = performance.now();
  // Reports of a detector that later failed are kept: they were produced before the failure.
  return {
    findings: opts.raw ? findings : dedupeByTool(findings),
    diagnostics,
    wasmInputs,
    stats: {
      parse_ms: round(t1 - t0),
      facts_ms: round(t2 - t1),
      traverse_ms: round(t3 - t2),
      nodes: count,
      detectors: entries.length,
      partial: parsed.partial,
    },
  };
}

/**
 * The within-layer dedup applies to the static layer's findings. Layer 7/8 rules may flag one
 * line for two reasons (replay and malleability of one ecrecover): only exact repeats go.
 */
function dedupeByTool(findings: Finding[]): Finding[] {
  const own = findings.filter((f) => f.tools[0] === STATIC_TOOL);
  const seen = new Set<string>();
  const rest = findings.filter((f) => f.tools[0] !== STATIC_TOOL && !seen.has(f.id) && (seen.add(f.id), true));
  return [...dedupeFindings(own), ...rest];
}

function parseDiag(d: ParseDiagnostic): EngineDiagnostic {
  const where = d.line ? ` at line ${d.line}${d.column !== null ? `:${d.column}` : ''}` : '';
  const skip = d.skipped ? ` (lines ${d.skipped.from}-${d.skipped.to} skipped, the rest was analysed)` : '';
  return {
    kind: 'parse_error',
    message: `syntax error${where}: ${d.message}${skip}`,
    line: d.line,
    column: d.column,
    skipped: d.skipped ?? null,
  };
}

const round = (x: number) => Math.round(x * 100) / 100;
