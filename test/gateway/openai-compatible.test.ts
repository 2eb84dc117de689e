// The real-provider path against a local OpenAI-compatible server (node:http speaking
// chat-completions with SSE streaming): a tool call round trip, a 429 retried, a 500 that
// becomes 502 provider_error.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { bootGateway, parseSse } from './helpers.ts';

interface Seen {
  auth: string | undefined;
  body: any;
}
const seen: Seen[] = [];
let script: Array<(res: http.ServerResponse, body: any) => void> = [];
let server: http.Server;
let g: Awaited<ReturnType<typeof bootGateway>>;

const chunk = (res: http.ServerResponse, delta: unknown, finish: string | null = null) =>
  res.write(
    `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'test-model', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
  );
const sseHead = (res: http.ServerResponse) => res.writeHead(200, { 'content-type': 'text/event-stream' });
const usage = (res: http.ServerResponse, p: number, c: number) =>
  res.write(
    `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'test-model', choices: [], usage: { prompt_tokens: p, completion_tokens: c, total_tokens: p + c } })}\n\ndata: [DONE]\n\n`,
  );

const toolCallReply = (res: http.ServerResponse) => {
  sseHead(res);
  chunk(res, {
    role: 'assistant',
    tool_calls: [{ index: 0, id: 'call_abc', type: 'function', function: { name: 'crypto', arguments: '' } }],
  });
  chunk(res, { tool_calls: [{ index: 0, function: { arguments: '{"op":"keccak256",' } }] });
  chunk(res, { tool_calls: [{ index: 0, function: { arguments: '"data":"hello"}' } }] }, 'tool_calls');
  usage(res, 50, 12);
  res.end();
};
const textReply = (text: string) => (res: http.ServerResponse) => {
  sseHead(res);
  chunk(res, { role: 'assistant', content: '' });
  for (const w of text.split(/(?<= )/)) chunk(res, { content: w });
  chunk(res, {}, 'stop');
  usage(res, 80, 7);
  res.end();
};
const status =
  (code: number, headers: Record<string, string> = {}) =>
  (res: http.ServerResponse) => {
    res.writeHead(code, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify({ error: { message: `upstream says ${code}`, type: 'server_error' } }));
  };

before(async () => {
  server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      const body = raw ? JSON.parse(raw) : null;
      seen.push({ auth: req.headers.authorization, body });
      const next = script.shift();
      if (!next || req.url !== '/v1/chat/completions') return status(404)(res);
      next(res, body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  process.env.VIGIL_TEST_LLM_KEY = 'sk-test-123';
  const base = `http://127.0.0.1:${(server.address() as any).port}/v1`;
  g = await bootGateway({
    config: {
      llm: { provider: 'openai', model: 'test-model' },
      plugins: { 'llm-openai-compatible': { max_retries: 2, providers: { openai: { base_url: base, key_env: 'VIGIL_TEST_LLM_KEY' } } } },
    },
  });
});
after(async () => {
  await g.close();
  server.close();
});

test('a streamed tool call runs the skill and the second request carries its result', async () => {
  seen.length = 0;
  script = [toolCallReply, textReply('The keccak256 of hello is 0x1c8aff95. Done.')];
  const r = await g.kernel.gateway.inject({ method: 'POST', url: '/api/v1/chat/stream', payload: { message: 'hash hello please' } });
  const evs = parseSse(r.body);
  const done = evs.at(-1)!;
  assert.equal(done.event, 'done', r.body);
  assert.equal(done.data.model, 'openai/test-model');
  assert.equal(done.data.response, 'The keccak256 of hello is 0x1c8aff95. Done.');
  assert.deepEqual(done.data.usage, { prompt_tokens: 130, completion_tokens: 19 });
  assert.equal(done.data.tool_calls[0].id, 'call_abc');
  assert.equal(done.data.tool_calls[0].output.hash, '0x1c8aff950685c2ed4bc3174f3472287b56d9517b9c948127319a09a7a36deac8');
  assert.ok(evs.filter((e) => e.event === 'delta').length >= 2, 'the answer streams in pieces');
  // What the provider received: key, model, tools, stream flag, then the tool result round trip.
  assert.equal(seen[0].auth, 'Bearer sk-test-123');
  assert.equal(seen[0].body.model, 'test-model');
  assert.equal(seen[0].body.stream, true);
  assert.ok(seen[0].body.tools.some((t: any) => t.function.name === 'crypto' && t.function.parameters.type === 'object'));
  assert.ok(!seen[0].body.tools.some((t: any) => t.function.name === 'shell'), 'skills outside the permission set are not offered');
  const second = seen[1].body.messages;
  const asst = second.find((m: any) => m.role === 'assistant');
  assert.equal(asst.tool_calls[0].function.arguments, '{"op":"keccak256","data":"hello"}');
  const tool = second.find((m: any) => m.role === 'tool');
  assert.equal(tool.tool_call_id, 'call_abc');
  assert.match(tool.content, /0x1c8aff95/);
});

test('a 429 is retried and the turn succeeds', async () => {
  seen.length = 0;
  script = [status(429, { 'retry-after-ms': '10' }), textReply('ok then')];
  const r = await g.kernel.gateway.inject({ method: 'POST', url: '/api/v1/agent/chat', payload: { message: 'hi' } });
  assert.equal(r.statusCode, 200, r.body);
  assert.equal(r.json().response, 'ok then');
  assert.equal(seen.length, 2);
});

test('a provider that keeps failing with 500 gives 502 provider_error with its status, and stores nothing', async () => {
  seen.length = 0;
  const before = (await g.kernel.store.listSessions({ tenant: null, limit: 100 })).length;
  script = [status(500, { 'retry-after-ms': '5' }), status(500, { 'retry-after-ms': '5' }), status(500, { 'retry-after-ms': '5' })];
  const r = await g.kernel.gateway.inject({ method: 'POST', url: '/api/v1/agent/chat', payload: { message: 'hi' } });
  assert.equal(r.statusCode, 502);
  assert.equal(r.json().code, 'provider_error');
  assert.equal(r.json().details.provider, 'openai');
  assert.equal(r.json().details.status, 500);
  assert.ok(!r.body.includes('sk-test-123'));
  assert.equal(seen.length, 3, 'one try plus max_retries');
  assert.equal((await g.kernel.store.listSessions({ tenant: null, limit: 100 })).length, before);
});

test('VIGIL_MODEL picks provider and model', async () => {
  const { chooseBackend } = await import('../../lib/gateway/agent/llm-select.ts');
  const c = chooseBackend(g.kernel.registry, {}, { VIGIL_MODEL: 'openrouter/anthropic/claude-3.5-sonnet' });
  assert.equal(c.provider, 'openrouter');
  assert.equal(c.model, 'anthropic/claude-3.5-sonnet');
  assert.match(c.problem!, /not configured/);
  // Without a choice, the first provider with a key wins (here openai, whose key variable is set).
  const auto = chooseBackend(g.kernel.registry, {}, {});
  assert.deepEqual([auto.provider, auto.source, auto.problem], ['openai', 'auto', null]);
  assert.equal(chooseBackend(g.kernel.registry, { llm: { provider: 'demo' } }, {}).provider, 'demo');
});
