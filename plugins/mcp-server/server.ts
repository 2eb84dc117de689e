// vigil as an MCP server: the tool catalogue (the skills the caller's permission set allows, plus
// the contract-analysis operations) and tools/call routed through the agent's own skill-call
// path (AgentService.callSkillDirect), so permissions, schema checks, guardrails on arguments
// and results, approvals, metrics, spans and the audit trail apply exactly as in chat. One
// factory serves both transports: stdio (`vigil mcp`) and Streamable HTTP (`/mcp`, plugin
// mcp-server); the caller's tenant is fixed per server instance.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import type { Capability, KernelServices, Skill } from '../../kernel/index.ts';
import type { AgentService, ToolCallRecord, TurnEvent } from '../../lib/gateway/agent/types.ts';
import { analysisOperations, operationTimeoutMs } from './analysis-ops.ts';
import { clientKey, maxAnalysisTimeout } from '../../lib/analysis/admission.ts';
import { HttpError } from '../../kernel/index.ts';
import type { TenantContext } from '../../lib/gateway/contracts.ts';

// The guardrail chain blocks text above its max_chars (256 KiB by default), so larger results are
// truncated to this first, as chat truncates to agent.max_tool_output_chars.
export const DEFAULT_MAX_RESULT_CHARS = 256 * 1024;

export interface McpServerOptions {
  services: KernelServices;
  agent: AgentService;
  log: Logger;
  version: string;
  /** Where calls come from, recorded in the audit detail: "mcp-http" or "mcp-stdio". */
  origin: string;
  /** Largest result (JSON characters) returned whole; bigger ones are truncated like chat's. */
  maxResultChars?: number;
  /** The caller's address (HTTP), for the per-client analysis cap of keyless callers. */
  client?: string | null;
}

const WRITES: Capability[] = ['file_write', 'shell_exec'];
const OPEN_WORLD: Capability[] = ['network', 'web_fetch', 'llm_call'];

export interface CatalogueEntry {
  skill: Skill;
  allowed: boolean;
  missing: Capability[];
  kind: 'analysis' | 'skill';
}

/**
 * Everything callable over MCP for a tenant, analysis operations first. A skill that shares a
 * name with an analysis operation is shadowed (the operation is the documented MCP tool).
 */
export class ToolCatalogue {
  readonly operations: Skill[];
  private readonly byName: Map<string, Skill>;

  constructor(
    private readonly agent: AgentService,
    services: KernelServices,
  ) {
    this.operations = analysisOperations(services);
    this.byName = new Map(this.operations.map((s) => [s.name, s]));
  }

  operation(name: string): Skill | undefined {
    return this.byName.get(name);
  }

  /**
   * True when calling `name` runs a contract analysis: the analysis operations, and any skill with
   * the contract_analysis capability (contract_audit). Those pass the analysis admission gate,
   * so MCP callers share the API's limits and cannot reach the gateway's reserved capacity.
   */
  runsAnalysis(name: string, tenant: TenantContext): boolean {
    // Only calls the caller may make: a denied one is answered "denied" by the call path, not
    // "busy" by the gate.
    const e = this.entries(tenant).find((x) => x.skill.name === name);
    return Boolean(e?.allowed && (e.kind === 'analysis' || e.skill.capabilities.includes('contract_analysis')));
  }

  entries(tenant: TenantContext): CatalogueEntry[] {
    const { capabilities } = this.agent.policy.forTenant(tenant);
    const ops: CatalogueEntry[] = this.operations.map((skill) => {
      const missing = skill.capabilities.filter((c) => !capabilities.includes(c));
      return { skill, allowed: missing.length === 0, missing, kind: 'analysis' };
    });
    const skills: CatalogueEntry[] = this.agent
      .skillsFor(tenant)
      .filter((x) => !this.byName.has(x.skill.name))
      .map((x) => ({ ...x, kind: 'skill' }));
    return [...ops, ...skills];
  }

  /** MCP tool descriptors of what the tenant may call. */
  tools(tenant: TenantContext): Tool[] {
    return this.entries(tenant)
      .filter((e) => e.allowed)
      .map(({ skill, kind }) => ({
        name: skill.name,
        title: kind === 'analysis' ? skill.name.replace(/_/g, ' ') : undefined,
        description: skill.description,
        inputSchema: asObjectSchema(skill.inputSchema),
        annotations: {
          readOnlyHint: !skill.capabilities.some((c) => WRITES.includes(c)),
          openWorldHint: skill.capabilities.some((c) => OPEN_WORLD.includes(c)),
        },
        _meta: { 'vigil/capabilities': skill.capabilities, 'vigil/kind': kind, ...(skill.plugin ? { 'vigil/plugin': skill.plugin } : {}) },
      }));
  }
}

/** MCP requires an object schema at the top; a skill's schema always describes an input object. */
function asObjectSchema(schema: Record<string, unknown>): Tool['inputSchema'] {
  return { ...schema, type: 'object' };
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A finished call record -> MCP tool result: structuredContent plus its text form. */
export function toCallToolResult(rec: ToolCallRecord): CallToolResult {
  if (rec.ok) {
    const structured = isPlainObject(rec.output) ? rec.output : { result: rec.output ?? null };
    const text = typeof rec.output === 'string' ? rec.output : JSON.stringify(rec.output ?? null);
    return { content: [{ type: 'text', text }], structuredContent: structured };
  }
  const error = rec.error ?? `the call ended with status ${rec.status}`;
  return {
    isError: true,
    content: [{ type: 'text', text: error }],
    structuredContent: { status: rec.status, error, ...(rec.output != null ? { output: rec.output } : {}) },
  };
}

export function createMcpServer(o: McpServerOptions, tenant: TenantContext, catalogue = new ToolCatalogue(o.agent, o.services)): Server {
  const server = new Server(
    { name: 'vigil', version: o.version, title: 'vigil: Solidity analysis and governed agent skills' },
    {
      capabilities: { tools: { listChanged: false } },
      instructions:
        'vigil audits Solidity smart contracts (analyze_contract, analyze_layer, analyze_tool, remediate, validate_remediation, list_tools, list_layers) ' +
        'and exposes the agent skills your permission set allows. Calls are checked by the same permission set, guardrails, approval policy and audit log as chat.',
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: catalogue.tools(tenant) }));

  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    const { name } = req.params;
    const args = req.params.arguments ?? {};
    const op = catalogue.operation(name);
    const progressToken = req.params._meta?.progressToken;
    // An approval wait can be long; clients that asked for progress hear why the call is waiting.
    const emit = (e: TurnEvent) => {
      if (e.event !== 'approval_required' || progressToken === undefined) return;
      void extra
        .sendNotification({
          method: 'notifications/progress',
          params: {
            progressToken,
            progress: 0,
            message: `waiting for a human to approve ${e.data.skill} (approval ${e.data.approval_id}, expires ${e.data.expires_at})`,
          },
        })
        .catch(() => undefined);
    };
    let release: (() => void) | null = null;
    if (catalogue.runsAnalysis(name, tenant)) {
      try {
        // The REST API's gate (analysis-api provides it); without that plugin, nothing to queue behind.
        const gate = o.services.get('analysis-admission');
        release =
          (await gate?.acquire(clientKey(tenant, o.client ?? o.origin), {
            signal: extra.signal,
            waitMs: operationTimeoutMs(args, maxAnalysisTimeout(o.services)) / 2,
          })) ?? null;
      } catch (e) {
        if (e instanceof HttpError) {
          return {
            isError: true,
            content: [{ type: 'text', text: `${e.code}: ${e.message}` }],
            structuredContent: { status: e.code, error: e.message, ...(e.details ?? {}) },
          };
        }
        throw e;
      }
    }
    const { record } = await o.agent
      .callSkillDirect({
        tenant,
        name,
        input: args,
        signal: extra.signal,
        origin: o.origin,
        resolve: (n) => catalogue.operation(n),
        maxOutputChars: o.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS,
        timeoutMs: op ? operationTimeoutMs(args, maxAnalysisTimeout(o.services)) : undefined,
        // The result goes back to the MCP client, not into vigil's model, so it is checked like an
        // answer ('output': PII, secrets, exfiltration, toxicity) rather than for indirect prompt
        // injection aimed at our own model — which also misreads vulnerability write-ups ("the
        // callee can re-enter and act on the stale state") as instructions.
        resultDirection: 'output',
        emit,
      })
      .finally(() => release?.());
    if (record.status === 'unknown_skill') throw new McpError(ErrorCode.InvalidParams, `unknown tool "${name}"`);
    if (record.status !== 'ok') o.log.debug({ tool: name, status: record.status, error: record.error }, 'MCP tool call refused or failed');
    return toCallToolResult(record);
  });

  server.onerror = (err) => o.log.warn({ err }, 'MCP server protocol error');
  return server;
}
