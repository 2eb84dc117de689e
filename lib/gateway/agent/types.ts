// Shapes the agent loop exchanges with the HTTP layer: turn events (streamed as SSE) and the
// synchronous chat result. One loop produces both, so chat and stream can never disagree.
import type { ApprovalRecord, LlmUsage } from '../../../kernel/index.ts';

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

export type { ApprovalRecord };
