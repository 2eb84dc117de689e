// The `contract_audit` skill: runs the analysis engine (service "analysis", the same one behind
// the REST API and the CLI) on Solidity given inline or as a workspace file, and hands the model
// a short summary plus the top findings, most severe first — the full report would swamp its
// context. Files are read only inside the workspace (symlinks out are refused). When the
// analysis service is not loaded the call fails with that reason instead of guessing.
import fs from 'node:fs/promises';
import { definePlugin, type AnalysisEngine, type AnalysisResult, type SkillResult } from '../../kernel/index.ts';
import { PathError, protectedPaths, realRoot, resolveExisting } from '../../lib/gateway/agent/workspace-path.ts';
import { checkSourceShape } from '../../lib/analysis/contract-input.ts';

interface AuditConfig extends Record<string, unknown> {
  timeout_s: number;
  max_findings: number;
}

const ORDER = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'] as const;
const MAX_SOURCE = 1024 * 1024;

export function summarise(r: AnalysisResult, max: number) {
  const counts = ORDER.filter((s) => r.summary[s]).map((s) => `${r.summary[s]} ${s}`);
  const top = [...r.findings]
    .sort((a, b) => ORDER.indexOf(a.severity) - ORDER.indexOf(b.severity) || b.confidence - a.confidence)
    .slice(0, max);
  const name = r.contract.name ?? 'the contract';
  const head = r.total_findings
    ? `${name}: ${r.total_findings} finding${r.total_findings === 1 ? '' : 's'} (${counts.join(', ')}).`
    : `${name}: no findings from ${r.tools.length} tool${r.tools.length === 1 ? '' : 's'}.`;
  const lines = top.map(
    (f) =>
      `${f.severity} ${f.title} at line ${f.location.line}${f.location.function ? ` in ${f.location.function}()` : ''}${f.swc_id ? ` [${f.swc_id}]` : ''}`,
  );
  return {
    summary: [head, ...lines].join('\n'),
    audit_id: r.audit_id,
    contract: r.contract,
    total_findings: r.total_findings,
    by_severity: r.summary,
    findings: top.map((f) => ({
      id: f.id,
      title: f.title,
      severity: f.severity,
      confidence: f.confidence,
      category: f.category,
      swc_id: f.swc_id ?? null,
      line: f.location.line,
      function: f.location.function ?? null,
      recommendation: f.recommendation,
    })),
    tools: r.results.map((t) => ({ tool: t.tool, status: t.status })),
    compilation: r.compilation ?? null,
  };
}

export default definePlugin<AuditConfig>({
  setup(ctx) {
    const cfg = ctx.config;
    // The server's data dir and config are not audit input, even inside the workspace.
    const protect = protectedPaths(ctx.services.settings);
    ctx.registerSkill({
      name: 'contract_audit',
      description:
        'Audit Solidity source (code) or a .sol file in the workspace (path) for vulnerabilities; returns a summary and the most severe findings with lines and recommendations.',
      capabilities: ['contract_analysis', 'file_read'],
      inputSchema: {
        type: 'object',
        additionalProperties: false,
        properties: {
          code: { type: 'string', minLength: 1, maxLength: MAX_SOURCE, description: 'Solidity source' },
          path: { type: 'string', minLength: 1, maxLength: 4096, description: 'A .sol file relative to the workspace' },
          mode: { enum: ['quick', 'full'], default: 'quick' },
        },
        oneOf: [{ required: ['code'] }, { required: ['path'] }],
      },
      async call(input, sc): Promise<SkillResult> {
        const engine = ctx.services.get<AnalysisEngine>('analysis');
        if (!engine) return { ok: false, output: null, error: 'contract analysis is not available: the analysis plugin is not loaded' };
        let source: string;
        let file = 'input.sol';
        let absPath: string | null = null;
        if (typeof input.path === 'string') {
          try {
            const root = await realRoot(sc.workspace);
            // Only Solidity is read (the link target too): this skill is also an MCP tool.
            if (!/\.sol$/i.test(input.path))
              return { ok: false, output: null, error: `not_solidity: "${input.path}" is not a .sol file; only Solidity files are read` };
            const t = await resolveExisting(root, input.path, { protect });
            if (!/\.sol$/i.test(t.abs))
              return { ok: false, output: null, error: `not_solidity: "${input.path}" links to a file that is not a .sol file` };
            const st = await fs.stat(t.abs);
            if (!st.isFile()) return { ok: false, output: null, error: `not_a_file: "${t.rel}" is not a file` };
            if (st.size > MAX_SOURCE) return { ok: false, output: null, error: `"${t.rel}" is larger than 1 MiB` };
            source = await fs.readFile(t.abs, 'utf8');
            file = t.rel;
            absPath = t.abs;
          } catch (e) {
            return { ok: false, output: null, error: e instanceof PathError ? `${e.code}: ${e.message}` : (e as Error).message };
          }
        } else source = String(input.code);
        try {
          checkSourceShape(source, typeof input.path === 'string' ? 'path' : 'code');
        } catch (e) {
          return { ok: false, output: null, error: `${(e as { code?: string }).code ?? 'invalid_request'}: ${(e as Error).message}` };
        }
        try {
          const r = await engine.analyze(
            { source, file, absPath },
            // suppress: comments in the source silence findings, as in the REST API's answer.
            { mode: (input.mode as 'quick' | 'full') ?? 'quick', timeoutMs: cfg.timeout_s * 1000, signal: sc.signal, suppress: true },
          );
          return { ok: true, output: summarise(r, cfg.max_findings) };
        } catch (e) {
          if (sc.signal.aborted) throw e;
          return { ok: false, output: null, error: `analysis failed: ${(e as Error).message}` };
        }
      },
    });
  },
});
