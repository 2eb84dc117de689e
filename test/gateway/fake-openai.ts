// A local OpenAI-compatible server (node:http speaking chat-completions with SSE streaming) for
// gateway tests that need a model saying something precise: each request takes the next reply
// from `script` (404 when it is empty) and is recorded in `seen`.
import http from 'node:http';

export type Reply = (res: http.ServerResponse, body: any) => void;

export interface FakeProvider {
  /** Base URL for the llm-openai-compatible provider config (ends in /v1). */
  base: string;
  /** Requests received: the Authorization header and the parsed JSON body. */
  seen: Array<{ auth: string | undefined; body: any }>;
  /** Replies still to give, in order. */
  script: Reply[];
  close(): void;
}

export const chunk = (res: http.ServerResponse, delta: unknown, finish: string | null = null) =>
  res.write(
    `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'test-model', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
  );
export const sseHead = (res: http.ServerResponse) => res.writeHead(200, { 'content-type': 'text/event-stream' });
export const usage = (res: http.ServerResponse, p: number, c: number) =>
  res.write(
    `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'test-model', choices: [], usage: { prompt_tokens: p, completion_tokens: c, total_tokens: p + c } })}\n\ndata: [DONE]\n\n`,
  );

/** An answer streamed word by word (each chunk a word with the spaces after it). */
export const textReply =
  (text: string): Reply =>
  (res) => {
    sseHead(res);
    chunk(res, { role: 'assistant', content: '' });
    for (const w of text.split(/(?<= )/)) chunk(res, { content: w });
    chunk(res, {}, 'stop');
    usage(res, 80, 7);
    res.end();
  };

export const status =
  (code: number, headers: Record<string, string> = {}): Reply =>
  (res) => {
    res.writeHead(code, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify({ error: { message: `upstream says ${code}`, type: 'server_error' } }));
  };

export async function startFakeProvider(): Promise<FakeProvider> {
  const fake: FakeProvider = { base: '', seen: [], script: [], close: () => server.close() };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      const body = raw ? JSON.parse(raw) : null;
      fake.seen.push({ auth: req.headers.authorization, body });
      const next = fake.script.shift();
      if (!next || req.url !== '/v1/chat/completions') return status(404)(res, body);
      next(res, body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  fake.base = `http://127.0.0.1:${(server.address() as any).port}/v1`;
  return fake;
}

/** Gateway config using the fake provider as `openai/test-model` (key from VIGIL_TEST_LLM_KEY). */
export function fakeProviderConfig(fake: FakeProvider): Record<string, any> {
  process.env.VIGIL_TEST_LLM_KEY = 'sk-test-123';
  return {
    llm: { provider: 'openai', model: 'test-model' },
    plugins: { 'llm-openai-compatible': { max_retries: 2, providers: { openai: { base_url: fake.base, key_env: 'VIGIL_TEST_LLM_KEY' } } } },
  };
}
