// Contract for guardrail layers (plugin kind "guardrail"). A chain runs them in order on every
// message: the first "block" wins, a "redact" hands the transformed text to the next layer. The
// chain is a plugin's service (the gateway's), not kernel code.
export type GuardrailMode = 'off' | 'log' | 'redact' | 'block';
export type GuardrailDirection = 'input' | 'output' | 'tool_args' | 'tool_result';
/** What the chain did with a message: allow (nothing found), log (found, recorded only), redact, block. */
export type GuardrailAction = 'allow' | 'log' | 'redact' | 'block';

export interface GuardrailFinding {
  layer: string;
  kind: string;
  /** UTF-16 offsets into the text this layer saw (after earlier layers' redactions). */
  start: number;
  end: number;
  score: number;
  /** Replacement text used when the layer redacts this span. */
  replacement?: string;
  /** The finding is severe enough to block even when the layer's mode is "redact" (never in "log"). */
  block?: boolean;
  /** Short human-readable note (never the matched secret itself). */
  detail?: string;
}

export interface GuardrailVerdict {
  findings: GuardrailFinding[];
}

export interface Guardrail {
  /** Layer name as shown to users: pii, prompt_injection, toxicity, shell_injection, encoded_exfiltration, unicode_smuggling. */
  name: string;
  description: string;
  /** Default mode when config does not set one. */
  defaultMode: GuardrailMode;
  /** Directions the layer inspects. */
  directions: GuardrailDirection[];
  /** Order in the chain (lower first). Unicode normalisation runs before injection checks. */
  order: number;
  check(text: string, direction: GuardrailDirection): GuardrailVerdict | Promise<GuardrailVerdict>;
  /** Settings in force (defaults merged with config), for display and for configure(). */
  settings?: Record<string, unknown>;
  /** A copy of this layer with settings merged over its current ones (service config file overrides). */
  configure?(settings: Record<string, unknown>): Guardrail;
}

/** A finding as reported by the chain (and by POST /api/v1/guardrails/check). */
export interface GuardrailChainFinding {
  layer: string;
  kind: string;
  start: number;
  end: number;
  score: number;
  /** What the layer's mode made of it: log, redact or block. */
  action: Exclude<GuardrailAction, 'allow'>;
  detail?: string;
}

export interface GuardrailChainResult {
  action: GuardrailAction;
  /** Text after every redaction (equal to the input when nothing was redacted; the input when blocked). */
  redacted_text: string;
  findings: GuardrailChainFinding[];
  /** Layer (or "chain" for oversized/binary input) whose block stopped the chain. */
  blocked_by?: string;
  /** Layers that threw; they are skipped (fail-open) unless configured fail_closed. */
  errors?: Array<{ layer: string; message: string }>;
  /** Per-layer time in milliseconds, for the gateway's spans and metrics. */
  timings?: Record<string, number>;
}
