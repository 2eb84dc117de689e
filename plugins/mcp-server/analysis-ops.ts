// The contract-analysis operations offered as MCP tools: analyze_contract, analyze_layer,
// analyze_tool, remediate, validate_remediation, list_tools, list_layers. Each is shaped as a
// Skill (name, description, JSON input schema, capabilities, call) so an MCP call runs through
// the agent's own call path — permission set, schema check, guardrails, approvals, audit — like
// any skill. They call the same "analysis" service, fix engine and compiler as the REST API, so
// a tool result carries the same body as the matching REST endpoint. They are not registered
// as chat skills: the chat model already has contract_audit, and seven near-duplicates would
// only crowd its tool list.
import { createHash } from 'node:crypto';
import type {
  AnalysisEngine,
  AnalysisResult,
  Finding,
  KernelServices,
  RemediationService,
  Skill,
  SkillResult,
} from '../../kernel/index.ts';
import { HttpError } from '../../kernel/index.ts';
import { ContractInputError, readContractInput, type ContractText } from './contract-source.ts';
import { applyTimeout, maxAnalysisTimeout } from '../../lib/analysis/admission.ts';
import { analysisEngineOf } from '../../lib/analysis/engine-service.ts';

export const DEFAULT_TIMEOUT_S = 300;

const timeoutProp = {
  type: 'integer',
  minimum: 1,
  maximum: 3600,
  default: DEFAULT_TIMEOUT_S,
  description: 'Budget for the whole operation, in seconds (unfinished tools report status "timeout")',
};
const codeProp = (what: string) => ({
  type: 'string',
  minLength: 1,
  maxLength: 1024 * 1024,
  description: `${what} as Solidity source text (at most 1 MiB)`,
});
const pathProp = (what: string) => ({
  type: 'string',
  minLength: 1,
  maxLength: 4096,
  description: `${what} as a path of a .sol file inside the server's allowed contract roots (VIGIL_CONTRACT_ROOTS)`,
});
const contractProps = { contract_code: codeProp('The contract'), contract_path: pathProp('The contract') };
const oneContract = [{ required: ['contract_code'] }, { required: ['contract_path'] }];

/**
 * Seconds of the operation's budget, as the call's time limit (plus a margin for the answer),
 * held to the server's maximum (`serve --max-analysis-timeout`).
 */
export function operationTimeoutMs(input: unknown, maxS = 3600): number {
  const t = (input as { timeout?: unknown } | null)?.timeout;
  const s = typeof t === 'number' && Number.isInteger(t) && t >= 1 && t <= 3600 ? t : DEFAULT_TIMEOUT_S;
  return Math.min(s, maxS) * 1000 + 15_000;
}

/** Adds the sentence saying the timeout was lowered (no-op when it was not). */
function noted(out: Record<string, unknown>, input: Record<string, unknown>, maxS: number): Record<string, unknown> {
  const t = applyTimeout(input.timeout, maxS);
  if (!t.clamped) return out;
  const notes = Array.isArray(out.notes) ? (out.notes as unknown[]) : [];
  return { ...out, notes: [...notes, t.note!], timeout_clamped: { requested: t.requested, applied: t.applied } };
}

function fail(e: unknown, signal: AbortSignal): SkillResult {
  if (signal.aborted) throw e;
  if (e instanceof ContractInputError || e instanceof HttpError) return { ok: false, output: null, error: `${e.code}: ${e.message}` };
  return { ok: false, output: null, error: `analysis failed: ${(e as Error).message || String(e)}` };
}

export function analysisOperations(services: KernelServices): Skill[] {
  const engine = (): AnalysisEngine => analysisEngineOf(services);

  const remediation = (): RemediationService => {
    const r = services.get<RemediationService>('remediation');
    if (!r) throw new HttpError(503, 'unavailable', 'remediation is not available: no remediation plugin is loaded');
    return r;
  };
  const roots = () => services.settings.contractRoots;
  const contract = (input: Record<string, unknown>, prefix = 'contract') => readContractInput(input, prefix, roots());
  const maxS = () => maxAnalysisTimeout(services);
  const budget = (input: Record<string, unknown>) => applyTimeout(input.timeout, maxS()).applied * 1000;
  const ok = (output: Record<string, unknown>, input: Record<string, unknown>): SkillResult => ({
    ok: true,
    output: noted(output, input, maxS()),
  });
  const run = (
    c: ContractText,
    opts: { mode: AnalysisResult['audit_type']; layer?: number; tool?: string; timeoutMs: number; signal: AbortSignal },
  ) =>
    // As in the REST analyze routes, comments in the source suppress findings.
    engine().analyze({ source: c.source, file: c.file, absPath: c.absPath }, { ...opts, suppress: true });
  const op = (s: Omit<Skill, 'plugin' | 'runtime' | 'capabilities'> & { capabilities?: Skill['capabilities'] }): Skill => ({
    capabilities: ['contract_analysis'],
    plugin: 'mcp-server',
    runtime: 'ts',
    ...s,
  });

  return [
    op({
      name: 'analyze_contract',
      description:
        'Audit a Solidity contract for vulnerabilities. mode "quick" runs the fast built-in tools; "full" runs every available layer (static, symbolic, formal, correlation) and stores the report. Returns the same body as POST /api/v1/analyze/{quick,full}/: findings (severity, category, SWC id, location, recommendation), per-tool results and a summary per severity.',
      inputSchema: {
        type: 'object',
        additionalProperties: false,
        properties: {
          ...contractProps,
          mode: { enum: ['quick', 'full'], default: 'quick', description: 'quick (default) or full' },
          timeout: timeoutProp,
        },
        oneOf: oneContract,
      },
      async call(input, sc) {
        try {
          const c = await contract(input);
          const mode = (input.mode as 'quick' | 'full' | undefined) ?? 'quick';
          const r = await run(c, { mode, timeoutMs: budget(input), signal: sc.signal });
          if (mode === 'full') {
            try {
              // Owned by the caller's tenant: only that tenant reads it back on :8000.
              await services.store.putReport({
                id: r.audit_id,
                kind: 'analysis',
                tenant: sc.tenant ?? null,
                data: noted(r, input, maxS()),
              });
              r.report_url = `/api/v1/reports/${r.audit_id}/`;
            } catch {
              r.report_url = null;
            }
          }
          return ok(r, input);
        } catch (e) {
          return fail(e, sc.signal);
        }
      },
    }),
    op({
      name: 'analyze_layer',
      description:
        'Run one analysis layer on a Solidity contract: 1 Static Analysis, 2 Dynamic Testing, 3 Symbolic Execution, 4 Formal Verification, 5 AI Analysis, 6 ML Detection, 7 Specialized Analysis, 8 Cross-Chain & Signatures, 9 Correlation & Ensemble. Same body as POST /api/v1/analyze/layer/{n}/.',
      inputSchema: {
        type: 'object',
        additionalProperties: false,
        required: ['layer'],
        properties: {
          ...contractProps,
          layer: { type: 'integer', minimum: 1, maximum: 9, description: 'Layer number 1..9' },
          timeout: timeoutProp,
        },
        oneOf: oneContract,
      },
      async call(input, sc) {
        try {
          const c = await contract(input);
          const layer = input.layer as number;
          const layers = await engine().layers();
          if (!layers.some((l) => l.layer === layer))
            throw new HttpError(400, 'unknown_layer', `layer ${layer} does not exist; layers are ${layers.map((l) => l.layer).join(', ')}`);
          return ok(await run(c, { mode: 'layer', layer, timeoutMs: budget(input), signal: sc.signal }), input);
        } catch (e) {
          return fail(e, sc.signal);
        }
      },
    }),
    op({
      name: 'analyze_tool',
      description:
        "Run one analysis tool (see list_tools) on a Solidity contract. Returns that tool's result entry (status, execution_time, error) plus its findings — the body of POST /api/v1/analyze/tool/{name}/.",
      inputSchema: {
        type: 'object',
        additionalProperties: false,
        required: ['tool'],
        properties: {
          ...contractProps,
          tool: { type: 'string', minLength: 1, maxLength: 128, description: 'Tool name, e.g. "static" or "slither"' },
          timeout: timeoutProp,
        },
        oneOf: oneContract,
      },
      async call(input, sc) {
        try {
          const c = await contract(input);
          const tool = input.tool as string;
          const eng = engine();
          if (!(await eng.getTool(tool)))
            throw new HttpError(
              400,
              'unknown_tool',
              `no tool named "${tool}" (available: ${(await eng.listTools()).map((t) => t.name).join(', ')})`,
            );
          const r = await run(c, { mode: 'tool', tool, timeoutMs: budget(input), signal: sc.signal });
          const entry = r.results.find((x) => x.tool === tool) ?? {
            tool,
            layer: 0,
            status: 'error' as const,
            findings: [],
            execution_time: 0,
            error: 'the engine returned no result for this tool',
          };
          return ok(
            {
              ...entry,
              findings: r.findings,
              audit_id: r.audit_id,
              audit_type: r.audit_type,
              contract: r.contract,
              summary: r.summary,
              total_findings: r.total_findings,
              timestamp: r.timestamp,
              version: r.version,
            },
            input,
          );
        } catch (e) {
          return fail(e, sc.signal);
        }
      },
    }),
    op({
      name: 'remediate',
      description:
        'Fix findings in a Solidity contract with real source transformations (checks-effects-interactions for reentrancy, checked arithmetic, access control, tx.origin, unchecked calls, pragma, deprecated constructs); each fix is kept only if the contract still compiles. Fixes the findings of a fresh quick analysis, or only finding_ids from analyze_contract. Returns patched_code, a unified diff and one record per finding.',
      inputSchema: {
        type: 'object',
        additionalProperties: false,
        properties: {
          ...contractProps,
          finding_ids: {
            type: 'array',
            items: { type: 'string', minLength: 1 },
            minItems: 1,
            maxItems: 500,
            description: 'Ids of findings to fix (default: all)',
          },
          timeout: timeoutProp,
        },
        oneOf: oneContract,
      },
      async call(input, sc) {
        try {
          const c = await contract(input);
          const deadline = Date.now() + budget(input);
          const r = await run(c, { mode: 'quick', timeoutMs: budget(input), signal: sc.signal });
          let findings: Finding[] = r.findings;
          if (Array.isArray(input.finding_ids)) {
            const wanted = new Set(input.finding_ids as string[]);
            const unknown = [...wanted].filter((id) => !findings.some((f) => f.id === id));
            if (unknown.length)
              throw new HttpError(
                400,
                'unknown_finding',
                `finding id${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} not found in a quick analysis of this contract (found: ${findings.map((f) => f.id).join(', ') || 'none'})`,
              );
            findings = findings.filter((f) => wanted.has(f.id));
          }
          const out = await remediation().remediate(
            { source: c.source, file: c.file, absPath: c.absPath, findings },
            { signal: sc.signal, deadline },
          );
          return ok(
            { ...out, audit_id: r.audit_id, contract: { file: c.file, sha256: createHash('sha256').update(c.source).digest('hex') } },
            input,
          );
        } catch (e) {
          return fail(e, sc.signal);
        }
      },
    }),
    op({
      name: 'validate_remediation',
      description:
        'Check a patch: compiles the patched contract, analyses both versions and compares their findings (fixed, remaining, introduced, severity score before and after) with a verdict improved | unchanged | regressed | broken. Same body as POST /api/v1/validate-remediation/.',
      inputSchema: {
        type: 'object',
        additionalProperties: false,
        properties: {
          original_code: codeProp('The original contract'),
          original_path: pathProp('The original contract'),
          patched_code: codeProp('The patched contract'),
          patched_path: pathProp('The patched contract'),
          timeout: timeoutProp,
        },
        allOf: [
          { oneOf: [{ required: ['original_code'] }, { required: ['original_path'] }] },
          { oneOf: [{ required: ['patched_code'] }, { required: ['patched_path'] }] },
        ],
      },
      async call(input, sc) {
        try {
          const original = await contract(input, 'original');
          const patched = await contract(input, 'patched');
          const body = await remediation().validate(original, patched, {
            timeoutMs: budget(input),
            signal: sc.signal,
            deadline: Date.now() + budget(input),
          });
          return ok(body, input);
        } catch (e) {
          return fail(e, sc.signal);
        }
      },
    }),
    op({
      name: 'list_tools',
      description:
        'List the analysis tools: name, layer, whether each is available (external analyzers need their binary on PATH; the install hint says how), built-in or adapter, and self-test status.',
      inputSchema: { type: 'object', additionalProperties: false, properties: {} },
      async call(_input, sc) {
        try {
          const tools = await engine().listTools();
          return { ok: true, output: { tools, total: tools.length, available: tools.filter((t) => t.available).length } };
        } catch (e) {
          return fail(e, sc.signal);
        }
      },
    }),
    op({
      name: 'list_layers',
      description: 'List the nine analysis layers with their names, their tools and whether any tool of the layer is available.',
      inputSchema: { type: 'object', additionalProperties: false, properties: {} },
      async call(_input, sc) {
        try {
          return { ok: true, output: { layers: await engine().layers() } };
        } catch (e) {
          return fail(e, sc.signal);
        }
      },
    }),
  ];
}
