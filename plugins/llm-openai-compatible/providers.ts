// The providers reached through their OpenAI-compatible chat-completions endpoints. A provider
// is "configured" when its key variable is set (Ollama: when OLLAMA_BASE_URL is set).
export interface ProviderSpec {
  name: string;
  baseURL: string;
  keyEnv: string;
  model: string;
  /** Whether the provider honours stream_options.include_usage (token counts in the stream). */
  usageInStream: boolean;
}

export const PROVIDERS: ProviderSpec[] = [
  { name: 'openai', baseURL: 'https://api.openai.com/v1', keyEnv: 'OPENAI_API_KEY', model: 'gpt-4o-mini', usageInStream: true },
  {
    name: 'anthropic',
    baseURL: 'https://api.anthropic.com/v1/',
    keyEnv: 'ANTHROPIC_API_KEY',
    model: 'claude-3-5-haiku-latest',
    usageInStream: true,
  },
  {
    name: 'openrouter',
    baseURL: 'https://openrouter.ai/api/v1',
    keyEnv: 'OPENROUTER_API_KEY',
    model: 'openai/gpt-4o-mini',
    usageInStream: true,
  },
  {
    name: 'groq',
    baseURL: 'https://api.groq.com/openai/v1',
    keyEnv: 'GROQ_API_KEY',
    model: 'llama-3.3-70b-versatile',
    usageInStream: true,
  },
  { name: 'mistral', baseURL: 'https://api.mistral.ai/v1', keyEnv: 'MISTRAL_API_KEY', model: 'mistral-small-latest', usageInStream: false },
  { name: 'deepseek', baseURL: 'https://api.deepseek.com/v1', keyEnv: 'DEEPSEEK_API_KEY', model: 'deepseek-chat', usageInStream: true },
  { name: 'xai', baseURL: 'https://api.x.ai/v1', keyEnv: 'XAI_API_KEY', model: 'grok-3-mini', usageInStream: true },
  {
    name: 'together',
    baseURL: 'https://api.together.xyz/v1',
    keyEnv: 'TOGETHER_API_KEY',
    model: 'meta-llama/Llama-3.3-70B-Instruct-Turbo',
    usageInStream: true,
  },
  {
    name: 'gemini',
    baseURL: 'https://generativelanguage.googleapis.com/v1beta/openai/',
    keyEnv: 'GEMINI_API_KEY',
    model: 'gemini-2.0-flash',
    usageInStream: true,
  },
  { name: 'ollama', baseURL: 'http://127.0.0.1:11434/v1', keyEnv: 'OLLAMA_BASE_URL', model: 'llama3.1', usageInStream: true },
];
