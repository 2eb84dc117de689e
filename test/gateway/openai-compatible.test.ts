// The real-provider path against a local OpenAI-compatible server (node:http speaking
// chat-completions with SSE streaming): a tool call round trip, a 429 retried, a 500 that
// becomes 502 provider_error.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type http from 'node:http';
import { bootGateway, parseSse } from './helpers.ts';
import { chunk, fakeProviderConfig, sseHead, startFakeProvider, status, textReply, usage, type FakeProvider } from './fake-openai.ts';

let fake: FakeProvider;
let g: Awaited<ReturnType<typeof bootGateway>>;
let seen: FakeProvider['seen'];
const play = (...replies: FakeProvider['script']) => (fake.script = replies);

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

before(async () => {
  fake = await startFakeProvider();
  seen = fake.seen;
  g = await bootGateway({ config: fakeProviderConfig(fake) });
});
after(async () => {
  await g.close();
  fake.close();
});

test('a streamed tool call runs the skill and the second request carries its result', async () => {
  seen.length = 0;
  play(toolCallReply, textReply('The keccak256 of hello is 0x1c8aff95. Done.'));
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
  play(status(429, { 'retry-after-ms': '10' }), textReply('ok then'));
  const r = await g.kernel.gateway.inject({ method: 'POST', url: '/api/v1/agent/chat', payload: { message: 'hi' } });
  assert.equal(r.statusCode, 200, r.body);
  assert.equal(r.json().response, 'ok then');
  assert.equal(seen.length, 2);
});

test('a provider that keeps failing with 500 gives 502 provider_error with its status, and stores nothing', async () => {
  seen.length = 0;
  const before = (await g.kernel.store.listSessions({ tenant: null, limit: 100 })).length;
  play(status(500, { 'retry-after-ms': '5' }), status(500, { 'retry-after-ms': '5' }), status(500, { 'retry-after-ms': '5' }));
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
