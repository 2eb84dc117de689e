// Raised by LLM backends when the provider fails after retries; the gateway turns it into a
// 502 provider_error (chat) or an SSE `error` event (stream) naming the provider and status.
export class LlmProviderError extends Error {
  constructor(
    readonly provider: string,
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'LlmProviderError';
  }
}

export function isAbortError(e: unknown, signal?: AbortSignal): boolean {
  if (signal?.aborted) return true;
  const n = (e as { name?: string } | null)?.name;
  return n === 'AbortError' || n === 'APIUserAbortError';
}
