// Pool task of vigil-signatures: parse once, shared facts, the layer-8 rules in one traversal
// (the static layer's engine), findings re-labelled as this tool's, layer 8.
import { analyzeSource } from '../../lib/analysis/static/index.ts';
import type { Finding } from '../../schemas/finding.ts';
import { SIGNATURE_RULES } from './rules.ts';

export const SIGNATURES_TOOL = 'vigil-signatures';

export async function signaturesTask(args: { source: string; file: string }): Promise<{ findings: Finding[]; diagnostics: unknown[] }> {
  // raw: several rules may flag one line (replay and malleability of the same ecrecover).
  const r = await analyzeSource(args.source, args.file, SIGNATURE_RULES, { raw: true });
  const byId = new Map<string, Finding>();
  for (const f of r.findings) if (!byId.has(f.id)) byId.set(f.id, { ...f, tools: [SIGNATURES_TOOL], layers: [8] });
  return { findings: [...byId.values()], diagnostics: r.diagnostics };
}
