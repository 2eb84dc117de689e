// POST /api/v1/analyze/{quick,full}/, /layer/{layer_num}/, /tool/{tool_name}/. The request's
// timeout (seconds, held to --max-analysis-timeout) is the budget for waiting for an analysis
// slot (admission control) and the engine's work; the client going away aborts both. Full
// audits are stored as reports, owned by the caller's tenant, under their audit_id so
// GET /api/v1/reports/{audit_id}/ finds them.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError, type AnalysisResult, type AuditType } from '../../../kernel/index.ts';
import { AnalysisResponse, AnalyzeRequest, ErrorBody, FreeObject, LayerParams, ToolParams } from '../../../schemas/analysis-api.ts';
import { readContract } from '../../../lib/analysis/contract-input.ts';
import { admit, CONTENT_TYPES, engineOf, formatter, noteTimeout, reportScope, requestSignal, timeoutOf, type Ctx } from '../shared.ts';

const errors = { 400: ErrorBody, 403: ErrorBody, 413: ErrorBody, 429: ErrorBody, 503: ErrorBody };

export async function analyzeRoutes(app: FastifyInstance, ctx: Ctx) {
  const run = async (req: FastifyRequest, reply: FastifyReply, mode: AuditType, extra: { layer?: number; tool?: string }) => {
    const body = (req.body ?? {}) as AnalyzeRequest;
    const contract = await readContract(body, 'contract', {
      roots: ctx.services.settings.contractRoots,
      maxBytes: ctx.config.max_contract_bytes,
    });
    const engine = engineOf(ctx);
    if (extra.layer !== undefined) {
      const layers = await engine.layers();
      if (!layers.some((l) => l.layer === extra.layer)) {
        throw new HttpError(
          400,
          'unknown_layer',
          `layer ${extra.layer} does not exist; layers are ${layers.map((l) => l.layer).join(', ')}`,
          { layers: layers.map((l) => ({ layer: l.layer, name: l.name })) },
        );
      }
    }
    if (extra.tool !== undefined && !(await engine.getTool(extra.tool))) {
      throw new HttpError(400, 'unknown_tool', `no tool named "${extra.tool}"`, {
        available_tools: (await engine.listTools()).map((t) => t.name),
      });
    }
    const t = timeoutOf(body.timeout, ctx, reply);
    const cancel = requestSignal(req, reply, t.applied);
    let result: AnalysisResult;
    // Both paths ask for `suppress`: comments in the submitted source silence findings (kept under
    // `suppressed`) before the result is stored.
    // An API replica of a shared deployment hands the work to the workers and waits for it;
    // the queue's bound (503 queue_full with Retry-After) is then the back-pressure.
    const jobs = ctx.services.get('analysis-jobs');
    try {
      if (jobs?.remote) {
        const { owner } = await reportScope(req, ctx);
        const job = await jobs.runAndWait(
          {
            tenant: owner,
            mode,
            layer: extra.layer,
            tool: extra.tool,
            source: contract.source,
            file: contract.file,
            timeoutS: t.applied,
            suppress: true,
          },
          { signal: cancel.signal, deadline: cancel.deadline },
        );
        reply.header('x-vigil-job-id', job.jobId);
        result = job.result;
      } else {
        const slot = await admit(req, ctx, cancel.signal, cancel.deadline);
        try {
          result = await engine.analyze(
            { source: contract.source, file: contract.file, absPath: contract.absPath },
            { mode, layer: extra.layer, tool: extra.tool, timeoutMs: slot.budgetMs, signal: cancel.signal, suppress: true },
          );
        } finally {
          slot.release();
        }
      }
    } finally {
      cancel.done();
    }
    result = noteTimeout(result, t);
    // A worker that ran it as a job stored the full report already (under the job id).
    if (mode === 'full' && ctx.config.store_full_reports && result.report_url === undefined) {
      try {
        const { owner } = await reportScope(req, ctx);
        await ctx.services.store.putReport({
          id: result.audit_id,
          kind: 'analysis',
          tenant: owner,
          data: result,
        });
        result.report_url = `/api/v1/reports/${result.audit_id}/`;
      } catch (e) {
        req.log.error({ err: e, audit_id: result.audit_id }, 'could not store the full analysis report');
        result.report_url = null;
      }
    }
    let out: Record<string, unknown> = result;
    if (mode === 'tool') {
      const entry = result.results.find((r) => r.tool === extra.tool) ?? {
        tool: extra.tool!,
        layer: 0,
        status: 'error' as const,
        findings: [],
        execution_time: 0,
        error: 'the engine returned no result for this tool',
      };
      out = noteTimeout(
        {
          ...entry,
          findings: result.findings,
          audit_id: result.audit_id,
          audit_type: result.audit_type,
          contract: result.contract,
          summary: result.summary,
          total_findings: result.total_findings,
          suppressed: result.suppressed,
          total_suppressed: result.total_suppressed,
          timestamp: result.timestamp,
          version: result.version,
        },
        t,
      );
    }
    if (body.format === 'sarif') {
      const toSarif = await formatter(ctx, 'sarif');
      reply.type(CONTENT_TYPES.sarif);
      // Sent pre-serialised: the SARIF log is not the JSON analysis shape the response schema describes.
      return reply.serializer((x: unknown) => JSON.stringify(x)).send(toSarif(result));
    }
    return out;
  };

  const schema = (summary: string, extra: Record<string, unknown> = {}, ok: unknown = AnalysisResponse) => ({
    summary,
    body: AnalyzeRequest,
    response: { 200: ok, ...errors },
    ...extra,
  });
  app.post('/api/v1/analyze/quick/', { schema: schema('Quick scan: fast built-in tools only') }, (req, reply) =>
    run(req, reply, 'quick', {}),
  );
  app.post('/api/v1/analyze/full/', { schema: schema('Full multi-layer audit (stored as a report under its audit_id)') }, (req, reply) =>
    run(req, reply, 'full', {}),
  );
  app.post('/api/v1/analyze/layer/:layer_num/', { schema: schema('Run one analysis layer', { params: LayerParams }) }, (req, reply) =>
    run(req, reply, 'layer', { layer: (req.params as { layer_num: number }).layer_num }),
  );
  app.post(
    '/api/v1/analyze/tool/:tool_name/',
    { schema: schema('Run one tool: its result entry plus findings', { params: ToolParams }, FreeObject) },
    (req, reply) => run(req, reply, 'tool', { tool: (req.params as { tool_name: string }).tool_name }),
  );
}
