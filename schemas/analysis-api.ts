// Request/response schemas of the contract-analysis REST API (spec: contract-analysis-api.md,
// gaps filled by decisions.md). Requests are validated by Fastify with these; responses are
// declared open (additionalProperties) so the OpenAPI document names the fields clients read
// while every field the engine adds still reaches them.
import { Type, type Static } from '@sinclair/typebox';
import { Category, Finding, Severity } from './finding.ts';

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);
const Open = { additionalProperties: true } as const;

export const ErrorBody = Type.Object(
  {
    error: Type.String({ description: 'What went wrong, in one sentence' }),
    code: Type.String({ description: 'snake_case error code' }),
    details: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { $id: 'ErrorBody', description: 'Every 4xx/5xx answer' },
);

export const MAX_CONTRACT_BYTES = 1024 * 1024;

/** Fields shared by every request that names a contract. */
const contractFields = {
  contract_code: Type.Optional(Type.String({ minLength: 1, description: 'Solidity source text (at most 1 MiB)' })),
  contract_path: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 4096,
      description: 'Path of a .sol file inside the allowed contract roots (VIGIL_CONTRACT_ROOTS)',
    }),
  ),
};

export const AnalyzeRequest = Type.Object(
  {
    ...contractFields,
    timeout: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 3600, default: 300, description: 'Budget for the whole request, in seconds' }),
    ),
    format: Type.Optional(
      Type.Union([Type.Literal('json'), Type.Literal('sarif')], {
        default: 'json',
        description: 'json (default) or sarif (SARIF 2.1.0 log)',
      }),
    ),
  },
  { description: 'Exactly one of contract_code and contract_path' },
);
export type AnalyzeRequest = Static<typeof AnalyzeRequest>;

export const LayerParams = Type.Object({ layer_num: Type.Integer({ minimum: 1, description: 'Layer number (1..9)' }) });
export const ToolParams = Type.Object({ tool_name: Type.String({ minLength: 1, maxLength: 128 }) });
export const ReportParams = Type.Object({ report_id: Type.String({ minLength: 1, maxLength: 128 }) });

export const ToolResultBody = Type.Object(
  {
    tool: Type.String(),
    layer: Type.Integer(),
    status: Type.String({ description: 'success | error | timeout | not_available | skipped' }),
    findings: Type.Array(Type.Unknown()),
    execution_time: Type.Number(),
    error: Type.Union([Type.String(), Type.Null()]),
  },
  Open,
);

export const AnalysisResponse = Type.Object(
  {
    audit_id: Type.String(),
    audit_type: Type.String({ description: 'quick | full | layer | tool' }),
    contract: Type.Object(
      { name: Nullable(Type.String()), sha256: Type.String(), pragma: Nullable(Type.String()), compiler: Nullable(Type.String()) },
      Open,
    ),
    layers: Type.Array(Type.Integer()),
    tools: Type.Array(Type.String()),
    results: Type.Array(ToolResultBody),
    findings: Type.Array(Type.Unknown({ description: 'Finding (see the finding schema)' })),
    summary: Type.Record(Type.String(), Type.Integer(), { description: 'Findings per severity: CRITICAL, HIGH, MEDIUM, LOW, INFO' }),
    total_findings: Type.Integer(),
    execution_time: Type.Number(),
    timestamp: Type.String(),
    version: Type.String(),
  },
  { ...Open, description: 'Analysis result; with format "sarif" a SARIF 2.1.0 log instead' },
);

export const RootResponse = Type.Object({
  service: Type.String(),
  version: Type.String(),
  description: Type.String(),
  endpoints: Type.Record(Type.String(), Type.Unknown()),
});

export const HealthResponse = Type.Object({
  status: Type.Union([Type.Literal('healthy'), Type.Literal('degraded'), Type.Literal('unhealthy')]),
  version: Type.String(),
  timestamp: Type.String({ format: 'date-time' }),
  tools: Type.Record(Type.String(), Type.Unknown()),
  dependencies: Type.Record(Type.String(), Type.Unknown()),
});

export const FreeObject = Type.Object({}, Open);

/** A finding handed to remediate: only what the fix engine needs is required. */
export const RemediationFinding = Type.Object(
  {
    id: Type.Optional(Type.String({ minLength: 1 })),
    title: Type.Optional(Type.String()),
    description: Type.Optional(Type.String()),
    detector: Type.Optional(Type.String()),
    severity: Type.Optional(Severity),
    category: Category,
    swc_id: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    recommendation: Type.Optional(Type.String()),
    location: Type.Object(
      {
        line: Type.Integer({ minimum: 1 }),
        end_line: Type.Optional(Type.Integer({ minimum: 1 })),
        contract: Type.Optional(Type.Union([Type.String(), Type.Null()])),
        function: Type.Optional(Type.Union([Type.String(), Type.Null()])),
        file: Type.Optional(Type.String()),
      },
      Open,
    ),
  },
  Open,
);

export const RemediateRequest = Type.Object(
  {
    ...contractFields,
    findings: Type.Optional(
      Type.Array(RemediationFinding, { maxItems: 500, description: 'Findings to fix (e.g. from an analyze answer)' }),
    ),
    finding_ids: Type.Optional(
      Type.Array(Type.String({ minLength: 1 }), {
        minItems: 1,
        maxItems: 500,
        description: 'Fix only these findings of a fresh quick analysis',
      }),
    ),
    timeout: Type.Optional(Type.Integer({ minimum: 1, maximum: 3600, default: 300 })),
  },
  { ...Open, description: 'Exactly one of contract_code and contract_path; at most one of findings and finding_ids' },
);
export type RemediateRequest = Static<typeof RemediateRequest>;

export const FixRecordBody = Type.Object({
  finding_id: Type.String(),
  title: Type.String(),
  category: Type.String(),
  applied: Type.Boolean(),
  strategy: Type.Union([Type.String(), Type.Null()]),
  description: Type.Union([Type.String(), Type.Null()]),
  reason_if_not: Type.Union([Type.String(), Type.Null()]),
});

export const RemediateResponse = Type.Object(
  {
    patched_code: Type.String(),
    diff: Type.String({ description: 'Unified diff original -> patched (empty when nothing changed)' }),
    fixes: Type.Array(FixRecordBody),
    summary: Type.Object({}, Open),
  },
  Open,
);

export const ValidateRequest = Type.Object(
  {
    original_code: Type.Optional(Type.String({ minLength: 1 })),
    original_path: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
    patched_code: Type.Optional(Type.String({ minLength: 1 })),
    patched_path: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
    timeout: Type.Optional(Type.Integer({ minimum: 1, maximum: 3600, default: 300 })),
  },
  { ...Open, description: 'The original (original_code or original_path) and the patch (patched_code or patched_path)' },
);
export type ValidateRequest = Static<typeof ValidateRequest>;

export const ValidateResponse = Type.Object(
  {
    compiles: Type.Boolean(),
    compiler: Type.Union([Type.String(), Type.Null()]),
    compile_errors: Type.Array(Type.String()),
    fixed: Type.Array(Type.Unknown()),
    remaining: Type.Array(Type.Unknown()),
    introduced: Type.Array(Type.Unknown()),
    verdict: Type.Union([Type.Literal('improved'), Type.Literal('unchanged'), Type.Literal('regressed'), Type.Literal('broken')]),
    summary: Type.String(),
  },
  Open,
);

export const ReportAccepted = Type.Object({
  report_id: Type.String(),
  status: Type.Literal('accepted'),
  created_at: Type.String(),
});

export const ReportListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
});

export const ReportListResponse = Type.Object({
  reports: Type.Array(
    Type.Object({
      report_id: Type.String(),
      kind: Type.String(),
      created_at: Type.String(),
      summary: Type.Union([Type.Record(Type.String(), Type.Integer()), Type.Null()], { description: 'Findings per severity, or null' }),
      damaged: Type.Optional(
        Type.Boolean({ description: 'true when the stored row cannot be read back or its summary is not a set of counts' }),
      ),
    }),
  ),
  total: Type.Integer(),
  limit: Type.Integer(),
  offset: Type.Integer(),
});

export const ReportQuery = Type.Object({
  format: Type.Optional(
    Type.Union(
      ['json', 'markdown', 'html', 'sarif'].map((f) => Type.Literal(f)),
      { default: 'json' },
    ),
  ),
});

export { Finding };
