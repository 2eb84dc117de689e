// `agent.*` keys of the service config file, validated once at start-up with clear messages.
import { DEFAULT_AGENT_OPTIONS, type AgentOptions } from './runtime.ts';

export class AgentConfigError extends Error {}

function int(v: unknown, key: string, min: number, max: number, dflt: number): number {
  if (v === undefined || v === null) return dflt;
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max) {
    throw new AgentConfigError(`agent.${key} must be an integer from ${min} to ${max}, got ${JSON.stringify(v)}`);
  }
  return n;
}

export function resolveAgentOptions(file: Record<string, any>): AgentOptions {
  const a = file.agent ?? {};
  if (typeof a !== 'object' || Array.isArray(a)) throw new AgentConfigError('agent must be an object');
  const d = DEFAULT_AGENT_OPTIONS;
  if (a.system_prompt !== undefined && typeof a.system_prompt !== 'string')
    throw new AgentConfigError('agent.system_prompt must be a string');
  return {
    maxTurns: int(a.max_turns, 'max_turns', 1, 100, d.maxTurns),
    skillTimeoutMs: int(a.skill_timeout_ms, 'skill_timeout_ms', 100, 600_000, d.skillTimeoutMs),
    historyLimit: int(a.history_limit, 'history_limit', 0, 10_000, d.historyLimit),
    maxToolOutputChars: int(a.max_tool_output_chars, 'max_tool_output_chars', 256, 1_000_000, d.maxToolOutputChars),
    systemPrompt: a.system_prompt ?? d.systemPrompt,
  };
}
