// Chat and stream through app.inject with the demo backend: skill calls, permission denial,
// schema-invalid arguments, bad input that changes nothing, sessions and their history.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { bootGateway, parseSse } from './helpers.ts';

type Boot = Awaited<ReturnType<typeof bootGateway>>;
let g: Boot;

const chat = (payload: unknown, headers: Record<string, string> = {}) =>
  g.kernel.gateway.inject({ method: 'POST', url: '/api/v1/agent/chat', payload: payload as any, headers });
const stream = (payload: unknown) => g.kernel.gateway.inject({ method: 'POST', url: '/api/v1/chat/stream', payload: payload as any });
const sessionCount = async () => (await g.kernel.store.listSessions({ tenant: null, limit: 1000 })).length;

before(async () => {
  g = await bootGateway();
});
after(() => g.close());

describe('chat', () => {
  test('the demo backend calls the crypto skill and answers from its result', async () => {
    const r = await chat({ message: 'keccak256 of hello' });
    assert.equal(r.statusCode, 200);
    const b = r.json();
    assert.equal(b.model, 'demo/vigil-demo-1');
    assert.equal(b.tool_calls.length, 1);
    assert.equal(b.tool_calls[0].name, 'crypto');
    assert.equal(b.tool_calls[0].status, 'ok');
    assert.equal(b.tool_calls[0].output.hash, '0x1c8aff950685c2ed4bc3174f3472287b56d9517b9c948127319a09a7a36deac8');
    assert.match(b.response, /0x1c8aff950685c2ed4bc3174f3472287b56d9517b9c948127319a09a7a36deac8/);
    assert.ok(b.usage.prompt_tokens > 0 && b.usage.completion_tokens > 0);
    assert.deepEqual(b.guardrails, []);
  });

  test('explicit /skill syntax with JSON arguments', async () => {
    const r = await chat({ message: '/skill crypto {"op":"function_selector","signature":"transfer(address,uint256)"}' });
    assert.equal(r.json().tool_calls[0].output.selector, '0xa9059cbb');
  });

  test('a skill outside the permission set is refused with capability_denied and nothing runs', async () => {
    const r = await chat({ message: '/skill shell {"program":"echo","args":["hi"]}' });
    assert.equal(r.statusCode, 200);
    const call = r.json().tool_calls[0];
    assert.equal(call.status, 'denied');
    assert.equal(call.ok, false);
    assert.match(call.error, /^capability_denied: skill "shell" needs shell_exec/);
    assert.equal(call.output, null);
    assert.match(r.json().response, /did not run \(denied\)/);
  });

  test('a phrase never triggers a skill the caller may not use', async () => {
    const r = await chat({ message: 'run `echo hi`' });
    assert.equal(r.json().tool_calls.length, 0);
  });

  test('schema-invalid skill arguments become a tool error inside the turn', async () => {
    const r = await chat({ message: '/skill crypto {"op":"keccak256"}' });
    assert.equal(r.statusCode, 200);
    const call = r.json().tool_calls[0];
    assert.equal(call.status, 'invalid_args');
    assert.match(call.error, /must have required property 'data'/);
    const bad = await chat({ message: '/skill crypto {"op":"md5","data":"x"}' });
    assert.match(bad.json().tool_calls[0].error, /"op" must be equal to one of the allowed values \(keccak256, sha256/);
    const notJson = await chat({ message: '/skill crypto {"op": keccak}' });
    assert.match(notJson.json().tool_calls[0].error, /not valid JSON/);
  });

  test('an unknown skill is reported by name', async () => {
    const r = await chat({ message: '/skill teleport {}' });
    assert.equal(r.json().tool_calls[0].status, 'unknown_skill');
    assert.match(r.json().tool_calls[0].error, /no skill named "teleport"/);
  });

  test('without a skill request the demo explains what it can do', async () => {
    const r = await chat({ message: 'hello there' });
    assert.equal(r.json().tool_calls.length, 0);
    assert.match(r.json().response, /offline demo backend/);
    assert.match(r.json().response, /crypto/);
  });
});

describe('bad input changes nothing', () => {
  test('missing, empty and blank messages, wrong types', async () => {
    const before = await sessionCount();
    for (const body of [
      {},
      { message: '' },
      { message: '   ' },
      { message: null },
      { message: ['a', 'b'] },
      { message: 'hi', session_id: '' },
    ]) {
      const r = await chat(body);
      assert.equal(r.statusCode, 400, JSON.stringify(body));
      assert.equal(r.json().code, 'invalid_request');
      assert.ok(r.json().error.length > 5);
    }
    assert.equal(await sessionCount(), before);
  });

  test('malformed JSON, wrong content type, oversized body', async () => {
    const before = await sessionCount();
    const bad = await g.kernel.gateway.inject({
      method: 'POST',
      url: '/api/v1/agent/chat',
      payload: '{"message": ',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().code, 'invalid_json');
    const text = await g.kernel.gateway.inject({
      method: 'POST',
      url: '/api/v1/agent/chat',
      payload: 'message=hi',
      headers: { 'content-type': 'text/plain' },
    });
    assert.equal(text.statusCode, 415);
    assert.equal(text.json().code, 'unsupported_media_type');
    const form = await g.kernel.gateway.inject({
      method: 'POST',
      url: '/api/v1/chat/stream',
      payload: 'message=hi',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(form.statusCode, 415);
    const big = await chat({ message: 'x'.repeat(300 * 1024) });
    assert.equal(big.statusCode, 413);
    assert.equal(big.json().code, 'payload_too_large');
    assert.equal(await sessionCount(), before);
  });

  test('an unknown session id is 404 session_not_found on chat and stream', async () => {
    const before = await sessionCount();
    const r = await chat({ message: 'hi', session_id: 'no-such-session' });
    assert.equal(r.statusCode, 404);
    assert.equal(r.json().code, 'session_not_found');
    const s = await stream({ message: 'hi', session_id: 'no-such-session' });
    assert.equal(s.statusCode, 404);
    assert.match(String(s.headers['content-type']), /application\/json/);
    assert.equal(await sessionCount(), before);
  });
});

describe('sessions', () => {
  test('history is kept per session and sent back to the model', async () => {
    const first = (await chat({ message: 'sha256 of abc' })).json();
    const second = (await chat({ message: 'keccak256 of abc', session_id: first.session_id })).json();
    assert.equal(second.session_id, first.session_id);
    const h = await g.kernel.gateway.inject({ method: 'GET', url: `/api/v1/sessions/${first.session_id}` });
    assert.equal(h.statusCode, 200);
    const msgs = h.json().messages;
    assert.deepEqual(
      msgs.map((m: any) => m.role),
      ['user', 'assistant', 'tool', 'assistant', 'user', 'assistant', 'tool', 'assistant'],
    );
    assert.equal(msgs[1].tool_calls[0].name, 'crypto');
    assert.equal(msgs[2].tool_call_id, msgs[1].tool_calls[0].id);
    assert.match(msgs[2].content, /0xba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad/);
    assert.equal(h.json().title, 'sha256 of abc');
    // The second turn's prompt includes the first turn, so it costs more prompt tokens.
    assert.ok(second.usage.prompt_tokens > first.usage.prompt_tokens);
    const list = await g.kernel.gateway.inject({ method: 'GET', url: '/api/v1/sessions?limit=5' });
    assert.equal(list.json().sessions[0].id, first.session_id);
  });

  test('unknown session history is 404', async () => {
    const r = await g.kernel.gateway.inject({ method: 'GET', url: '/api/v1/sessions/nope' });
    assert.equal(r.statusCode, 404);
    assert.equal(r.json().code, 'session_not_found');
  });
});

describe('stream', () => {
  test('emits session, tool_call, tool_result, deltas and done, in that order, and agrees with chat', async () => {
    const r = await stream({ message: 'keccak256 of hello' });
    assert.equal(r.statusCode, 200);
    assert.match(String(r.headers['content-type']), /^text\/event-stream/);
    const evs = parseSse(r.body);
    const names = evs.map((e) => e.event);
    assert.equal(names[0], 'session');
    assert.deepEqual(names.slice(1, 3), ['tool_call', 'tool_result']);
    assert.ok(names.slice(3, -1).every((n) => n === 'delta') && names.length > 6, names.join(','));
    assert.equal(names.at(-1), 'done');
    const done = evs.at(-1)!.data;
    assert.equal(
      evs
        .filter((e) => e.event === 'delta')
        .map((e) => e.data.text)
        .join(''),
      done.response,
    );
    assert.equal(done.session_id, evs[0].data.session_id);
    const sync = (await chat({ message: 'keccak256 of hello' })).json();
    assert.equal(done.response, sync.response);
    assert.deepEqual(
      done.tool_calls.map((c: any) => c.output),
      sync.tool_calls.map((c: any) => c.output),
    );
  });

  test('a provider failure arrives as an error event and ends the stream', async () => {
    const g2 = await bootGateway({ config: { llm: { provider: 'openai' } } });
    try {
      const r = await g2.kernel.gateway.inject({ method: 'POST', url: '/api/v1/chat/stream', payload: { message: 'hi' } });
      const evs = parseSse(r.body);
      assert.deepEqual(
        evs.map((e) => e.event),
        ['session', 'error'],
      );
      assert.equal(evs[1].data.code, 'provider_error');
      const c = await g2.kernel.gateway.inject({ method: 'POST', url: '/api/v1/agent/chat', payload: { message: 'hi' } });
      assert.equal(c.statusCode, 502);
      assert.equal(c.json().code, 'provider_error');
      assert.match(c.json().error, /OPENAI_API_KEY|not configured/);
      assert.equal((await g2.kernel.store.listSessions({ tenant: null, limit: 10 })).length, 0);
    } finally {
      await g2.close();
    }
  });
});

describe('skills endpoint', () => {
  test('lists every skill with capabilities, schema and whether the caller may use it', async () => {
    const r = await g.kernel.gateway.inject({ method: 'GET', url: '/api/v1/skills' });
    assert.equal(r.statusCode, 200);
    const b = r.json();
    assert.equal(b.permission_set, 'default');
    const by = Object.fromEntries(b.skills.map((s: any) => [s.name, s]));
    for (const n of ['files', 'write_file', 'shell', 'git', 'web_search', 'crypto', 'contract_audit']) assert.ok(by[n], n);
    assert.equal(by.crypto.allowed, true);
    assert.equal(by.shell.allowed, false);
    assert.deepEqual(by.shell.missing_capabilities, ['shell_exec']);
    assert.equal(by.write_file.allowed, false);
    assert.equal(by.crypto.input_schema.type, 'object');
  });
});

describe('operations', () => {
  test('readiness report has the spec shape and a rest_api runtime check', async () => {
    const r = await g.kernel.gateway.inject({ method: 'GET', url: '/api/v1/enterprise/readiness' });
    assert.equal(r.statusCode, 200);
    const b = r.json();
    assert.equal(b.version, g.kernel.version);
    assert.ok(['ready', 'needs_attention'].includes(b.posture));
    assert.ok(Number.isInteger(b.score) && b.score >= 0 && b.score <= 100);
    assert.deepEqual(Object.keys(b.runtime).sort(), ['active_connections', 'active_sessions', 'skills_registered', 'uptime_seconds']);
    assert.equal(b.runtime.skills_registered, g.kernel.registry.skills().length);
    const rest = b.checks.find((c: any) => c.id === 'rest_api');
    assert.equal(rest.category, 'runtime');
    assert.equal(rest.status, 'active');
    assert.match(rest.detail, /management endpoints are mounted under \/api\/v1/i);
    for (const c of b.checks) {
      assert.deepEqual(Object.keys(c).sort(), ['category', 'detail', 'id', 'status', 'title']);
      assert.ok(['active', 'available', 'attention'].includes(c.status));
    }
    // Computed from this instance: no guardrail plugin is loaded here, and the report says so.
    assert.equal(b.checks.find((c: any) => c.id === 'guardrails').status, 'attention');
    assert.equal(b.posture, 'needs_attention');
    assert.ok(b.next_actions.some((a: string) => /guardrail/i.test(a)));
    assert.equal(b.checks.find((c: any) => c.id === 'tenancy').status, 'available');
  });

  test('health, metrics and the OpenAPI description', async () => {
    const h = await g.kernel.gateway.inject({ method: 'GET', url: '/health' });
    assert.equal(h.statusCode, 200);
    assert.equal(h.json().checks.store.status, 'ok');
    assert.equal(h.json().checks.llm.provider, 'demo');
    const m = await g.kernel.gateway.inject({ method: 'GET', url: '/metrics' });
    assert.match(String(m.headers['content-type']), /^text\/plain/);
    assert.match(m.body, /# TYPE vigil_skill_calls_total counter/);
    assert.match(m.body, /vigil_skill_calls_total\{skill="shell",outcome="denied"\} \d+/);
    const o = (await g.kernel.gateway.inject({ method: 'GET', url: '/openapi.json' })).json();
    assert.equal(o.openapi, '3.0.3');
    for (const p of [
      '/api/v1/agent/chat',
      '/api/v1/chat/stream',
      '/api/v1/skills',
      '/api/v1/sessions/{id}',
      '/api/v1/enterprise/readiness',
      '/health',
      '/metrics',
    ])
      assert.ok(o.paths[p], p);
    assert.ok(o.paths['/api/v1/agent/chat'].post.responses['200'].content['application/json'].schema.properties.tool_calls);
  });
});
