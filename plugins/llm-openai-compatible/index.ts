// OpenAI-compatible LLM backends: one registered backend per provider (see providers.ts), all
// through the `openai` client pointed at the provider's compatible endpoint. Streaming with tool
// calls; token usage from the stream when the provider reports it, otherwise estimated (chars/4)
// so quotas still count. 429 and 5xx are retried by the client with exponential backoff (and
// Retry-After); what still fails becomes an LlmProviderError the gateway answers as 502
// provider_error, naming the provider and its HTTP status — never the key.
import OpenAI from 'openai';
import { definePlugin, type LlmBackend, type LlmMessage, type LlmRequest, type LlmStreamEvent } from '../../kernel/index.ts';
import { LlmProviderError, isAbortError } from '../../lib/gateway/agent/provider-error.ts';
import { PROVIDERS, type ProviderSpec } from './providers.ts';

interface Override {
  base_url?: string;
  key_env?: string;
  model?: string;
  usage_in_stream?: boolean;
}

interface OaiConfig extends Record<string, unknown> {
  max_retries: number;
  timeout_ms: number;
  providers: Record<string, Override>;
}

type ChatMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;

export function toOpenAiMessages(messages: LlmMessage[]): ChatMessage[] {
  return messages.map((m): ChatMessage => {
    if (m.role === 'tool') return { role: 'tool', tool_call_id: m.tool_call_id ?? '', content: m.content ?? '' };
    if (m.role === 'assistant') {
      return m.tool_calls?.length
        ? {
            role: 'assistant',
            content: m.content,
            tool_calls: m.tool_calls.map((c) => ({
              id: c.id,
              type: 'function' as const,
              function: { name: c.name, arguments: c.arguments },
            })),
          }
        : { role: 'assistant', content: m.content ?? '' };
    }
    return { role: m.role, content: m.content ?? '' };
  });
}

const estimate = (s: string) => Math.ceil(s.length / 4);

export function createOpenAiCompatibleBackend(
  spec: ProviderSpec,
  opts: { maxRetries: number; timeoutMs: number; env?: NodeJS.ProcessEnv },
): LlmBackend {
  const env = opts.env ?? process.env;
  const isOllama = spec.name === 'ollama';
  let client: OpenAI | null = null;
  let clientKey = '';
  const getClient = () => {
    const secret = env[spec.keyEnv] ?? '';
    // Rebuilt only when the key changes (keys can be rotated through the environment in tests).
    if (!client || clientKey !== secret) {
      const base = isOllama && secret ? secret.replace(/\/+$/, '').replace(/(\/v1)?$/, '/v1') : spec.baseURL;
      client = new OpenAI({ apiKey: isOllama ? 'ollama' : secret, baseURL: base, maxRetries: opts.maxRetries, timeout: opts.timeoutMs });
      clientKey = secret;
    }
    return client;
  };
  return {
    provider: spec.name,
    defaultModel: spec.model,
    configured: () => !!env[spec.keyEnv],
    async *stream(req: LlmRequest): AsyncIterable<LlmStreamEvent> {
      if (!env[spec.keyEnv]) throw new LlmProviderError(spec.name, `${spec.keyEnv} is not set`);
      const tools = req.tools?.length
        ? req.tools.map((t) => ({
            type: 'function' as const,
            function: { name: t.name, description: t.description, parameters: t.parameters },
          }))
        : undefined;
      let stream;
      try {
        stream = await getClient().chat.completions.create(
          {
            model: req.model,
            messages: toOpenAiMessages(req.messages),
            ...(tools ? { tools } : {}),
            ...(req.json ? { response_format: { type: 'json_object' as const } } : {}),
            stream: true,
            ...(spec.usageInStream ? { stream_options: { include_usage: true } } : {}),
          },
          { signal: req.signal },
        );
      } catch (e) {
        throw wrap(spec.name, e, req.signal);
      }
      // Tool-call fragments arrive by index: id and name first, arguments in pieces.
      const calls = new Map<number, { id: string; name: string; args: string }>();
      let usage: { prompt_tokens: number; completion_tokens: number } | null = null;
      let finish = 'stop';
      let text = '';
      try {
        for await (const chunk of stream) {
          if (chunk.usage) usage = { prompt_tokens: chunk.usage.prompt_tokens ?? 0, completion_tokens: chunk.usage.completion_tokens ?? 0 };
          const choice = chunk.choices?.[0];
          if (!choice) continue;
          const d = choice.delta ?? {};
          if (d.content) {
            text += d.content;
            yield { type: 'delta', text: d.content };
          }
          for (const tc of d.tool_calls ?? []) {
            const cur = calls.get(tc.index) ?? { id: '', name: '', args: '' };
            if (tc.id) cur.id = tc.id;
            if (tc.function?.name) cur.name += tc.function.name;
            if (tc.function?.arguments) cur.args += tc.function.arguments;
            calls.set(tc.index, cur);
          }
          if (choice.finish_reason) finish = choice.finish_reason;
        }
      } catch (e) {
        throw wrap(spec.name, e, req.signal);
      }
      for (const [i, c] of [...calls.entries()].sort((a, b) => a[0] - b[0])) {
        yield { type: 'tool_call', id: c.id || `call_${i}`, name: c.name, arguments: c.args };
      }
      yield {
        type: 'done',
        finish_reason: finish,
        usage: usage ?? {
          prompt_tokens: req.messages.reduce((n, m) => n + estimate(m.content ?? ''), 0),
          completion_tokens: estimate(text) + [...calls.values()].reduce((n, c) => n + estimate(c.args), 0),
        },
      };
    },
  };
}

function wrap(provider: string, e: unknown, signal?: AbortSignal): unknown {
  if (isAbortError(e, signal)) return e;
  if (e instanceof OpenAI.APIError) {
    const status = typeof e.status === 'number' ? e.status : null;
    const detail = status ? `HTTP ${status}` : 'no HTTP response';
    // The provider's own message can be long or echo the request; keep its first line only.
    const msg = (e.message || '').split('\n')[0].slice(0, 300);
    return new LlmProviderError(provider, `${detail}: ${msg}`, status);
  }
  return new LlmProviderError(provider, (e as Error)?.message ?? String(e));
}

export default definePlugin<OaiConfig>({
  setup(ctx) {
    const cfg = ctx.config;
    const specs = new Map(PROVIDERS.map((p) => [p.name, { ...p }]));
    for (const [name, o] of Object.entries(cfg.providers ?? {})) {
      const base = specs.get(name);
      if (!base && (!o.base_url || !o.key_env)) throw new Error(`providers.${name}: a new provider needs base_url and key_env`);
      specs.set(name, {
        name,
        baseURL: o.base_url ?? base!.baseURL,
        keyEnv: o.key_env ?? base!.keyEnv,
        model: o.model ?? base?.model ?? 'default',
        usageInStream: o.usage_in_stream ?? base?.usageInStream ?? true,
      });
    }
    for (const spec of specs.values())
      ctx.registerLlm(createOpenAiCompatibleBackend(spec, { maxRetries: cfg.max_retries, timeoutMs: cfg.timeout_ms }));
  },
});
