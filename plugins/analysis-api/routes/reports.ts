// GET/POST /api/v1/reports/ and GET /api/v1/reports/{report_id}/. Any non-empty JSON object is
// accepted and stored (201); lists are newest first with limit/offset paging; one report renders
// as JSON, Markdown, HTML (escaped) or SARIF. Full analyses land here under their audit_id.
import type { FastifyInstance } from 'fastify';
import { HttpError, type AnalysisResult } from '../../../kernel/index.ts';
import { ErrorBody, FreeObject, ReportAccepted, ReportListQuery, ReportListResponse, ReportParams, ReportQuery } from '../../../schemas/analysis-api.ts';
import { CONTENT_TYPES, formatter, type Ctx } from '../shared.ts';

/** Rendering needs an analysis-shaped report (what analyze returns); other reports are JSON only. */
function asAnalysis(data: Record<string, unknown>): AnalysisResult | null {
  return Array.isArray(data.findings) && typeof data.summary === 'object' && data.summary !== null ? (data as AnalysisResult) : null;
}

export async function reportRoutes(app: FastifyInstance, ctx: Ctx) {
  const store = () => ctx.services.store;

  app.post('/api/v1/reports/', { schema: { summary: 'Store a report (any non-empty JSON object)', body: FreeObject, response: { 201: ReportAccepted, 400: ErrorBody } } }, async (req, reply) => {
    const body = req.body as unknown;
    if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new HttpError(400, 'invalid_request', 'a report must be a JSON object');
    if (Object.keys(body).length === 0) throw new HttpError(400, 'invalid_request', 'a report must not be an empty object');
    const rec = await store().putReport({ kind: asAnalysis(body as Record<string, unknown>) ? 'analysis' : 'submitted', data: body as Record<string, unknown> });
    reply.code(201);
    return { report_id: rec.id, status: 'accepted' as const, created_at: rec.created_at };
  });

  app.get('/api/v1/reports/', { schema: { summary: 'Stored reports, newest first', querystring: ReportListQuery, response: { 200: ReportListResponse, 400: ErrorBody } } }, async (req) => {
    const q = req.query as { limit?: number; offset?: number };
    const limit = q.limit ?? 20;
    const offset = q.offset ?? 0;
    const page = await store().listReports({ limit, offset });
    return {
      reports: page.items.map((r) => ({ report_id: r.id, kind: r.kind, created_at: r.created_at, summary: r.summary && typeof r.summary === 'object' ? r.summary : null })),
      total: page.total,
      limit,
      offset,
    };
  });

  app.get(
    '/api/v1/reports/:report_id/',
    { schema: { summary: 'One report as JSON, Markdown, HTML or SARIF', params: ReportParams, querystring: ReportQuery, response: { 404: ErrorBody, 400: ErrorBody } } },
    async (req, reply) => {
      const { report_id } = req.params as { report_id: string };
      const format = (req.query as { format?: string }).format ?? 'json';
      const rec = await store().getReport(report_id);
      if (!rec) throw new HttpError(404, 'report_not_found', `no report with id "${report_id}"`);
      if (format === 'json') {
        return reply.type(CONTENT_TYPES.json).send({ report_id: rec.id, kind: rec.kind, created_at: rec.created_at, report: rec.data });
      }
      const analysis = asAnalysis(rec.data);
      if (!analysis) {
        throw new HttpError(400, 'invalid_request', `report "${report_id}" is not an analysis result (no findings/summary), so it can only be returned as JSON`, { formats: ['json'] });
      }
      const render = await formatter(format as 'sarif' | 'markdown' | 'html');
      const out = render(analysis);
      reply.type(CONTENT_TYPES[format as 'sarif' | 'markdown' | 'html']);
      return reply.send(typeof out === 'string' ? out : JSON.stringify(out));
    },
  );
}
