// POST /api/v1/remediate/ and /api/v1/validate-remediation/. Remediation fixes the given
// findings (or the chosen ids of a fresh quick analysis, or all of them) with real source
// transformations, each kept only if the contract still compiles. Validation compiles the patch,
// analyses both versions and compares the findings by category + detector + function.
import type { FastifyInstance } from 'fastify';
import { createHash } from 'node:crypto';
import { HttpError, type Finding, type RemediationService } from '../../../kernel/index.ts';
import { ErrorBody, RemediateRequest, RemediateResponse, ValidateRequest, ValidateResponse } from '../../../schemas/analysis-api.ts';
import { readContract } from '../../../lib/analysis/contract-input.ts';
import { admitted, engineOf, type Ctx } from '../shared.ts';

const errors = { 400: ErrorBody, 403: ErrorBody, 413: ErrorBody, 429: ErrorBody, 503: ErrorBody };

function remediationOf(ctx: Ctx): RemediationService {
  const r = ctx.services.get<RemediationService>('remediation');
  if (!r) throw new HttpError(503, 'unavailable', 'remediation is not available: no remediation plugin is loaded');
  return r;
}

/** Fills what a hand-written finding may leave out, so fix records always carry id and title. */
function normalizeFinding(f: RemediateRequest['findings'] extends Array<infer T> | undefined ? T : never, file: string): Finding {
  const line = f.location.line;
  const id =
    f.id ??
    createHash('sha256')
      .update(`${f.category}|${f.detector ?? ''}|${f.location.contract ?? ''}|${f.location.function ?? ''}|${line}`)
      .digest('hex')
      .slice(0, 16);
  return {
    id,
    detector: f.detector,
    title: f.title ?? f.category.replace(/_/g, ' '),
    description: f.description ?? '',
    severity: f.severity ?? 'MEDIUM',
    confidence: 1,
    category: f.category,
    swc_id: f.swc_id ?? null,
    location: {
      file: f.location.file ?? file,
      line,
      end_line: f.location.end_line ?? line,
      contract: f.location.contract ?? null,
      function: f.location.function ?? null,
    },
    tools: [],
    layers: [],
    recommendation: f.recommendation ?? 'see the finding description',
  };
}

export async function remediateRoutes(app: FastifyInstance, ctx: Ctx) {
  const limits = () => ({ roots: ctx.services.settings.contractRoots, maxBytes: ctx.config.max_contract_bytes });

  app.post(
    '/api/v1/remediate/',
    {
      schema: {
        summary: 'Fix findings in the source; returns the patched code, a unified diff and one record per finding',
        body: RemediateRequest,
        response: { 200: RemediateResponse, ...errors },
      },
    },
    async (req, reply) => {
      const body = req.body as RemediateRequest;
      if (body.findings && body.finding_ids) throw new HttpError(400, 'invalid_request', 'send findings or finding_ids, not both');
      const contract = await readContract(body, 'contract', limits());
      return admitted(req, reply, ctx, body.timeout, async ({ budgetMs, signal, deadline }) => {
        let findings: Finding[];
        let auditId: string | null = null;
        if (body.findings) {
          findings = body.findings.map((f) => normalizeFinding(f, contract.file));
        } else {
          const result = await engineOf(ctx).analyze(
            { source: contract.source, file: contract.file, absPath: contract.absPath },
            { mode: 'quick', timeoutMs: budgetMs, signal },
          );
          auditId = result.audit_id;
          findings = result.findings;
          if (body.finding_ids) {
            const wanted = new Set(body.finding_ids);
            const unknown = [...wanted].filter((id) => !findings.some((f) => f.id === id));
            if (unknown.length) {
              throw new HttpError(
                400,
                'unknown_finding',
                `finding id${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} not found in a quick analysis of this contract`,
                { unknown, available: findings.map((f) => ({ id: f.id, title: f.title, line: f.location.line })) },
              );
            }
            findings = findings.filter((f) => wanted.has(f.id));
          }
        }
        const out = await remediationOf(ctx).remediate(
          { source: contract.source, findings, file: contract.file, absPath: contract.absPath },
          { signal, deadline },
        );
        return {
          ...out,
          audit_id: auditId,
          contract: { file: contract.file, sha256: createHash('sha256').update(contract.source).digest('hex') },
        };
      });
    },
  );

  app.post(
    '/api/v1/validate-remediation/',
    {
      schema: {
        summary: 'Compile a patch and compare its findings with the original',
        body: ValidateRequest,
        response: { 200: ValidateResponse, ...errors },
      },
    },
    async (req, reply) => {
      const body = req.body as ValidateRequest;
      const original = await readContract(body, 'original', limits());
      const patched = await readContract(body, 'patched', limits());
      const remediation = remediationOf(ctx);
      return admitted(req, reply, ctx, body.timeout, ({ budgetMs, signal, deadline }) =>
        remediation.validate(original, patched, { timeoutMs: budgetMs, signal, deadline }),
      );
    },
  );
}
