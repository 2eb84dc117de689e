// Provides the "remediation" service: the fix engine (run in the kernel pool) and patch
// validation, one implementation behind POST /api/v1/remediate/ and /validate-remediation/ and
// the MCP tools remediate and validate_remediation.
import { definePlugin, HttpError, type AnalysisEngine, type RemediationService } from '../../kernel/index.ts';
import { remediateOffThread } from './task.ts';
import { validatePatch } from './validate.ts';

export default definePlugin({
  setup(ctx) {
    const roots = () => ctx.services.settings.contractRoots;
    const service: RemediationService = {
      remediate: (c, opts) =>
        remediateOffThread(
          { source: c.source, findings: c.findings, file: c.file, compile: { absPath: c.absPath, roots: roots() } },
          { pool: ctx.services.pool, signal: opts.signal, deadline: opts.deadline },
        ),
      validate: (original, patched, opts) => {
        // Looked up per call: the analysis engine is another plugin's service.
        const engine = ctx.services.get<AnalysisEngine>('analysis');
        if (!engine) throw new HttpError(503, 'unavailable', 'patch validation is not available: the analysis engine is not loaded');
        return validatePatch(
          { engine, compile: { pool: ctx.services.pool, signal: opts.signal, deadline: opts.deadline, roots: roots() } },
          original,
          patched,
          { timeoutMs: opts.timeoutMs, signal: opts.signal },
        );
      },
    };
    ctx.provide('remediation', service);
  },
});
