// GET/POST /api/v1/reports/ and GET /api/v1/reports/{report_id}/. A JSON object is accepted and
// stored (201) under the caller's tenant: free-form, or — when it has findings or summary — an
// analysis result that must match the engine's shape (report-shape.ts). Lists are newest first
// with limit/offset paging and show only the caller's reports; another tenant's report answers
// 404 like a missing one. One report renders as JSON, Markdown, HTML (escaped) or SARIF; what is
// rendered is rebuilt field by field with the right types first, so no stored row (an older
// version's, or one written by hand) can break a page or a listing.
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../../../kernel/index.ts';
import {
  ErrorBody,
  FreeObject,
  ReportAccepted,
  ReportListQuery,
  ReportListResponse,
  ReportParams,
  ReportQuery,
} from '../../../schemas/analysis-api.ts';
import { classifyReport, coerceAnalysis, listingSummary } from '../report-shape.ts';
import { CONTENT_TYPES, formatter, reportScope, type Ctx } from '../shared.ts';

export async function reportRoutes(app: FastifyInstance, ctx: Ctx) {
  const store = () => ctx.services.store;

  app.post(
    '/api/v1/reports/',
    {
      schema: {
        summary: 'Store a report (a JSON object; one with findings or summary must be an analysis result)',
        body: FreeObject,
        response: { 201: ReportAccepted, 400: ErrorBody },
      },
    },
    async (req, reply) => {
      const body = req.body;
      if (body === null || typeof body !== 'object' || Array.isArray(body))
        throw new HttpError(400, 'invalid_request', 'a report must be a JSON object');
      if (Object.keys(body).length === 0) throw new HttpError(400, 'invalid_request', 'a report must not be an empty object');
      const kind = classifyReport(body as Record<string, unknown>);
      const { owner } = await reportScope(req, ctx);
      const rec = await store().putReport({ kind, tenant: owner, data: body as Record<string, unknown> });
      reply.code(201);
      return { report_id: rec.id, status: 'accepted' as const, created_at: rec.created_at };
    },
  );

  app.get(
    '/api/v1/reports/',
    {
      schema: {
        summary: 'Stored reports of the caller, newest first',
        querystring: ReportListQuery,
        response: { 200: ReportListResponse, 400: ErrorBody },
      },
    },
    async (req) => {
      const q = req.query as { limit?: number; offset?: number };
      const limit = q.limit ?? 20;
      const offset = q.offset ?? 0;
      const { scope } = await reportScope(req, ctx);
      const page = await store().listReports({ limit, offset, tenant: scope });
      return {
        reports: page.items.map((r) => {
          const s = listingSummary(r.summary);
          const damaged = Boolean(r.damaged) || (s.damaged && r.kind === 'analysis');
          // Columns are coerced too: SQLite lets a hand-written row put any type in any column.
          // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a hand-written SQLite cell of any type is shown as text
          const text = (v: unknown) => (typeof v === 'string' ? v : v == null ? '' : Buffer.isBuffer(v) ? v.toString('utf8') : String(v));
          return {
            report_id: text(r.id),
            kind: text(r.kind),
            created_at: text(r.created_at),
            summary: s.summary,
            ...(damaged ? { damaged: true } : {}),
          };
        }),
        total: page.total,
        limit,
        offset,
      };
    },
  );

  app.get(
    '/api/v1/reports/:report_id/',
    {
      schema: {
        summary: 'One report as JSON, Markdown, HTML or SARIF',
        params: ReportParams,
        querystring: ReportQuery,
        response: { 404: ErrorBody, 400: ErrorBody, 422: ErrorBody },
      },
    },
    async (req, reply) => {
      const { report_id } = req.params as { report_id: string };
      const format = (req.query as { format?: string }).format ?? 'json';
      const { scope } = await reportScope(req, ctx);
      const rec = await store().getReport(report_id, scope);
      if (!rec) throw new HttpError(404, 'report_not_found', `no report with id "${report_id}"`);
      if (rec.damaged)
        throw new HttpError(422, 'report_damaged', `report "${report_id}" is stored but cannot be read back: ${rec.damaged}`);
      if (format === 'json') {
        return reply.type(CONTENT_TYPES.json).send({ report_id: rec.id, kind: rec.kind, created_at: rec.created_at, report: rec.data });
      }
      if (!Array.isArray(rec.data.findings) || typeof rec.data.summary !== 'object' || rec.data.summary === null) {
        throw new HttpError(
          400,
          'invalid_request',
          `report "${report_id}" is not an analysis result (no findings/summary), so it can only be returned as JSON`,
          { formats: ['json'] },
        );
      }
      const render = await formatter(ctx, format as 'sarif' | 'markdown' | 'html');
      const out = render(coerceAnalysis(rec.data));
      reply.type(CONTENT_TYPES[format as 'sarif' | 'markdown' | 'html']);
      return reply.send(typeof out === 'string' ? out : JSON.stringify(out));
    },
  );
}
