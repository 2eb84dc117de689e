// Contract for guardrail layers (plugin kind "guardrail"). The kernel runs them in order on
// every message: the first "block" wins, a "redact" hands the transformed text to the next layer.
export type GuardrailMode = 'off' | 'log' | 'redact' | 'block';
export type GuardrailDirection = 'input' | 'output' | 'tool_args' | 'tool_result';

export interface GuardrailFinding {
  layer: string;
  kind: string;
  start: number;
  end: number;
  score: number;
  /** Replacement text used when the layer redacts this span. */
  replacement?: string;
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
}
