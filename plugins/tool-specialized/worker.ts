// Pool task of vigil-specialized: parse once, shared facts, the layer-7 rules in one traversal
// (the static layer's engine), findings re-labelled as this tool's, layer 7.
import { analyzeSource } from '../../lib/analysis/static/index.ts';
import type { Finding } from '../../schemas/finding.ts';
import { SPECIALIZED_RULES } from './rules.ts';

export const SPECIALIZED_TOOL = 'vigil-specialized';

export async function specializedTask(args: { source: string; file: string }): Promise<{ findings: Finding[]; diagnostics: unknown[] }> {
  // raw: several rules may flag one line (replay and malleability of the same ecrecover).
  const r = await analyzeSource(args.source, args.file, SPECIALIZED_RULES, { raw: true });
  const byId = new Map<string, Finding>();
  for (const f of r.findings) if (!byId.has(f.id)) byId.set(f.id, { ...f, tools: [SPECIALIZED_TOOL], layers: [7] });
  return { findings: [...byId.values()], diagnostics: r.diagnostics };
}
