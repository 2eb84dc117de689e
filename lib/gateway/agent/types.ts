// Shapes the agent loop exchanges with the HTTP layer: turn events (streamed as SSE) and the
// synchronous chat result. One loop produces both, so chat and stream can never disagree.
// Also the 'agent' service's contract for callers outside a chat turn (the MCP server): the
// runtime lives in plugins/gateway-core and is reached only through this interface.
import type { ApprovalRecord, Capability, LlmUsage, Skill } from '../../../kernel/index.ts';
import type { AgentRuntime, TenantContext } from '../contracts.ts';

export type ToolCallStatus = 'ok' | 'error' | 'denied' | 'invalid_args' | 'blocked' | 'unknown_skill' | 'pending' | 'aborted';

export interface ToolCallRecord {
  id: string;
  name: string;
  arguments: unknown;
  status: ToolCallStatus;
  ok: boolean;
  output: unknown;
  error?: string;
  duration_ms: number;
}

export interface GuardrailEventRecord {
  direction: 'input' | 'output' | 'tool_args' | 'tool_result';
  action: 'log' | 'redact' | 'block';
  layer: string;
  kinds: string[];
  tool_call_id?: string;
}

export interface PendingApprovalInfo {
  approval_id: string;
  tool_call_id: string;
  skill: string;
  input: Record<string, unknown>;
  expires_at: string;
}

export interface ChatResult {
  session_id: string;
  response: string;
  tool_calls: ToolCallRecord[];
  guardrails: GuardrailEventRecord[];
  usage: LlmUsage;
  model: string;
  /** Present when the turn is paused on a human approval (sync chat returns at that point). */
  pending_approval?: PendingApprovalInfo;
}

export type TurnEvent =
  | { event: 'session'; data: { session_id: string; model: string } }
  | { event: 'delta'; data: { text: string } }
  | { event: 'tool_call'; data: { id: string; name: string; arguments: unknown } }
  | { event: 'tool_result'; data: ToolCallRecord }
  | { event: 'approval_required'; data: PendingApprovalInfo }
  | { event: 'guardrail'; data: GuardrailEventRecord }
  | { event: 'done'; data: ChatResult }
  | { event: 'error'; data: { error: string; code: string; details?: Record<string, unknown> } };

export type Emit = (e: TurnEvent) => void;

/** A single skill call outside a chat turn; see AgentService.callSkillDirect. */
export interface DirectCallRequest {
  tenant: TenantContext;
  name: string;
  /** The arguments object as received (checked against the skill's schema). */
  input: unknown;
  signal: AbortSignal;
  origin: string;
  /** Id the call is audited and approved under (default: a fresh id). */
  sessionId?: string;
  resolve?: (name: string) => Skill | undefined;
  maxOutputChars?: number;
  timeoutMs?: number;
  resultDirection?: 'tool_result' | 'output';
  /** Sees tool_call, approval_required, guardrail and tool_result events as they happen. */
  emit?: Emit;
}

/** services.get<AgentService>('agent'), provided by gateway-core. */
export interface AgentService extends AgentRuntime {
  /** The permission sets in force (config file), resolved per tenant. */
  readonly policy: { forTenant(t: TenantContext | null | undefined): { name: string; capabilities: Capability[] } };
  /** Every registered skill, with whether the tenant's permission set allows it. */
  skillsFor(tenant: TenantContext): Array<{ skill: Skill; allowed: boolean; missing: Capability[] }>;
  /** One skill call outside a chat turn, through the same checks a model's call passes
   *  (permissions, schema, guardrails, approval, audit). */
  callSkillDirect(req: DirectCallRequest): Promise<{ record: ToolCallRecord; guardrails: GuardrailEventRecord[] }>;
}

export type { ApprovalRecord };
