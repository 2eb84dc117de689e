// Gateway metrics on the kernel's Prometheus registry. Created once per registry by name so
// several plugins (or kernels in one test process) can share them.
import client, { type Registry } from 'prom-client';

function once<T extends client.Metric<string>>(reg: Registry, name: string, make: () => T): T {
  return (reg.getSingleMetric(name) as T | undefined) ?? make();
}

export interface GatewayMetrics {
  skillCalls: client.Counter<'skill' | 'outcome'>;
  skillDuration: client.Histogram<'skill'>;
  llmDuration: client.Histogram<'provider' | 'model' | 'outcome'>;
  llmTokens: client.Counter<'provider' | 'model' | 'type'>;
  turns: client.Counter<'outcome'>;
  activeSessions: client.Gauge<string>;
}

export function gatewayMetrics(reg: Registry): GatewayMetrics {
  return {
    skillCalls: once(
      reg,
      'vigil_skill_calls_total',
      () =>
        new client.Counter({
          name: 'vigil_skill_calls_total',
          help: 'Agent skill calls by skill and outcome',
          labelNames: ['skill', 'outcome'] as const,
          registers: [reg],
        }),
    ),
    skillDuration: once(
      reg,
      'vigil_skill_call_duration_seconds',
      () =>
        new client.Histogram({
          name: 'vigil_skill_call_duration_seconds',
          help: 'Skill call latency',
          labelNames: ['skill'] as const,
          buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30],
          registers: [reg],
        }),
    ),
    llmDuration: once(
      reg,
      'vigil_llm_request_duration_seconds',
      () =>
        new client.Histogram({
          name: 'vigil_llm_request_duration_seconds',
          help: 'LLM request latency (whole streamed response)',
          labelNames: ['provider', 'model', 'outcome'] as const,
          buckets: [0.001, 0.005, 0.025, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
          registers: [reg],
        }),
    ),
    llmTokens: once(
      reg,
      'vigil_llm_tokens_total',
      () =>
        new client.Counter({
          name: 'vigil_llm_tokens_total',
          help: 'LLM tokens by provider, model and type (prompt|completion)',
          labelNames: ['provider', 'model', 'type'] as const,
          registers: [reg],
        }),
    ),
    turns: once(
      reg,
      'vigil_agent_turns_total',
      () =>
        new client.Counter({
          name: 'vigil_agent_turns_total',
          help: 'Agent turns by outcome',
          labelNames: ['outcome'] as const,
          registers: [reg],
        }),
    ),
    activeSessions: once(
      reg,
      'vigil_agent_active_sessions',
      () => new client.Gauge({ name: 'vigil_agent_active_sessions', help: 'Sessions with a turn in flight', registers: [reg] }),
    ),
  };
}
