// The fixed host↔guest protocol for WASM detectors. The host sends only the node types a
// detector declared (manifest.detector.node_types), each with a ref, its location and the
// parser node's own properties (loc/range removed, nesting cut at depth 3 so a guest never
// receives a whole subtree); the guest answers with {findings:[{messageId,nodeRef,data}]}.
import type { DetectorMeta } from '../../../kernel/contracts/detector.ts';
import type { Finding } from '../../../schemas/finding.ts';
import { CATEGORIES, SEVERITIES } from '../../../schemas/finding.ts';
import type { Node } from './ast.ts';
import type { StaticFacts } from './facts.ts';
import { reportToFinding } from './report.ts';

export interface WasmNodeInput {
  ref: number;
  type: string;
  line: number;
  end_line: number;
  column: number;
  contract: string | null;
  function: string | null;
  [prop: string]: unknown;
}

export interface WasmDetectorOutput {
  findings: Array<{ messageId?: string; nodeRef: number; data?: Record<string, string | number> }>;
}

const MAX_DEPTH = 3;

function strip(v: unknown, depth: number): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (depth >= MAX_DEPTH) {
    const type = (v as { type?: unknown }).type;
    return Array.isArray(v) ? [] : type ? { type } : {};
  }
  if (Array.isArray(v)) return v.map((x) => strip(x, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    if (k === 'loc' || k === 'range') continue;
    out[k] = strip(x, depth + 1);
  }
  return out;
}

export function serializeNode(n: Node, ref: number, facts: Pick<StaticFacts, 'enclosing'>): WasmNodeInput {
  const enc = facts.enclosing(n);
  const props = strip(n, 0) as Record<string, unknown>;
  delete props.type;
  return {
    ...props,
    ref,
    type: n.type,
    line: n.loc?.start?.line ?? 1,
    end_line: n.loc?.end?.line ?? n.loc?.start?.line ?? 1,
    column: n.loc?.start?.column ?? 0,
    contract: enc.contract?.name ?? null,
    function: enc.fn?.name ?? null,
  };
}

/** Reads `manifest.detector.meta` of a WASM detector into DetectorMeta, or explains what is wrong. */
export function wasmDetectorMeta(id: string, detectorDecl: Record<string, unknown> | undefined): DetectorMeta {
  const m = (detectorDecl?.meta ?? {}) as Partial<DetectorMeta>;
  const problems: string[] = [];
  if (!m.title) problems.push('title');
  if (!m.description) problems.push('description');
  if (!m.recommendation) problems.push('recommendation');
  if (!m.severity || !(SEVERITIES as readonly string[]).includes(m.severity)) problems.push('severity');
  if (!m.category || !(CATEGORIES as readonly string[]).includes(m.category)) problems.push('category');
  if (typeof m.confidence !== 'number' || m.confidence < 0 || m.confidence > 1) problems.push('confidence');
  if (problems.length) throw new Error(`wasm detector ${id}: manifest detector.meta is missing or invalid: ${problems.join(', ')}`);
  return { ...(m as DetectorMeta), id: m.id ?? id };
}

/** Maps a guest's answer to findings; refs that do not exist are an error, not a crash. */
export function mapWasmFindings(
  meta: DetectorMeta,
  input: { file: string; nodes: WasmNodeInput[] },
  output: unknown,
  source: string,
): Finding[] {
  const out = output as WasmDetectorOutput;
  if (!out || typeof out !== 'object' || !Array.isArray(out.findings))
    throw new Error(`wasm detector ${meta.id}: output must be {"findings": [...]}`);
  const byRef = new Map(input.nodes.map((n) => [n.ref, n]));
  const findings: Finding[] = [];
  for (const f of out.findings) {
    const n = byRef.get(f?.nodeRef);
    if (!n) throw new Error(`wasm detector ${meta.id}: nodeRef ${String(f?.nodeRef)} is not one of the ${input.nodes.length} nodes sent`);
    const facts = { source, file: input.file, enclosing: () => ({ contract: null, fn: null }) };
    findings.push(
      reportToFinding(
        meta,
        {
          loc: { line: n.line, end_line: n.end_line, column: n.column },
          messageId: f.messageId,
          data: f.data,
          contract: n.contract,
          function: n.function,
        },
        facts,
      ),
    );
  }
  return findings;
}
