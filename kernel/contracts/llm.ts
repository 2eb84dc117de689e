// Contract for LLM backends (plugin kind "llm"), OpenAI chat-completions shaped so every
// provider's OpenAI-compatible endpoint and the offline demo backend look the same to the agent.
export interface LlmToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface LlmMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null;
  tool_calls?: Array<{ id: string; name: string; arguments: string }>;
  tool_call_id?: string;
  name?: string;
}

export interface LlmRequest {
  model: string;
  messages: LlmMessage[];
  tools?: LlmToolSpec[];
  signal?: AbortSignal;
  /** Ask for a JSON object answer (structured output). */
  json?: boolean;
}

export interface LlmUsage {
  prompt_tokens: number;
  completion_tokens: number;
}

export type LlmStreamEvent =
  | { type: 'delta'; text: string }
  | { type: 'tool_call'; id: string; name: string; arguments: string }
  | { type: 'done'; usage: LlmUsage; finish_reason: string };

export interface LlmBackend {
  /** Provider id: demo, openai, anthropic, openrouter, groq, mistral, deepseek, xai, together, gemini, ollama. */
  provider: string;
  defaultModel: string;
  /** True when a key/base URL is configured. */
  configured(): boolean;
  stream(req: LlmRequest): AsyncIterable<LlmStreamEvent>;
}
