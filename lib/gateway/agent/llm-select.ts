// Picks the LLM backend for a turn: VIGIL_MODEL=provider/model wins, then `llm.provider` /
// `llm.model` in the config file, then the first provider with a key, then the offline demo.
// An explicitly chosen provider without a key is an error (never a silent fall-back to demo).
import type { LlmBackend, RegistryView } from '../../../kernel/index.ts';

export const PROVIDER_ORDER = ['openai', 'anthropic', 'openrouter', 'groq', 'mistral', 'deepseek', 'xai', 'together', 'gemini', 'ollama'];

export interface BackendChoice {
  provider: string;
  model: string;
  /** provider/model, as reported in chat responses. */
  label: string;
  backend: LlmBackend | null;
  /** Why the choice cannot be used, when it cannot. */
  problem: string | null;
  source: 'env' | 'config' | 'auto' | 'default';
}

function split(v: string): { provider: string; model: string | null } {
  const i = v.indexOf('/');
  return i < 0 ? { provider: v, model: null } : { provider: v.slice(0, i), model: v.slice(i + 1) || null };
}

export function chooseBackend(registry: RegistryView, file: Record<string, any>, env: NodeJS.ProcessEnv = process.env): BackendChoice {
  let provider: string | null;
  let model: string | null = null;
  let source: BackendChoice['source'] = 'default';
  if (env.VIGIL_MODEL) {
    ({ provider, model } = split(env.VIGIL_MODEL.trim()));
    source = 'env';
  } else if (file.llm?.provider || file.llm?.model) {
    source = 'config';
    if (file.llm.provider) {
      provider = String(file.llm.provider);
      model = file.llm.model ? String(file.llm.model) : null;
    } else {
      ({ provider, model } = split(String(file.llm.model)));
    }
  } else {
    const auto = PROVIDER_ORDER.map((p) => registry.llm(p)).find((b) => b?.configured());
    if (auto) {
      provider = auto.provider;
      source = 'auto';
    } else provider = 'demo';
  }
  const backend = registry.llm(provider) ?? null;
  const m = model ?? backend?.defaultModel ?? 'unknown';
  let problem: string | null = null;
  if (!backend)
    problem = `LLM provider "${provider}" is not registered (known: ${
      registry
        .llms()
        .map((b) => b.provider)
        .join(', ') || 'none'
    })`;
  else if (!backend.configured()) problem = `LLM provider "${provider}" is not configured (set its API key environment variable)`;
  return { provider: provider, model: m, label: `${provider}/${m}`, backend, problem, source };
}
