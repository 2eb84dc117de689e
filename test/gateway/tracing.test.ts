// Spans over OTLP/HTTP to an in-process receiver: agent.turn, llm.request, skill.call and
// guardrail.check are children of the HTTP request span and carry session, skill, model, token
// and outcome attributes. Own file: the OpenTelemetry SDK is process-global.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';

interface RxSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes: Record<string, unknown>;
}
const spans: RxSpan[] = [];
const contentTypes = new Set<string>();
let rx: http.Server;
let g: any;

const val = (v: any) => v?.stringValue ?? (v?.intValue !== undefined ? Number(v.intValue) : (v?.doubleValue ?? v?.boolValue));

before(async () => {
  rx = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      contentTypes.add(String(req.headers['content-type']));
      if (req.url === '/v1/traces' && req.method === 'POST') {
        const body = JSON.parse(raw);
        for (const rs of body.resourceSpans ?? [])
          for (const ss of rs.scopeSpans ?? [])
            for (const s of ss.spans ?? []) {
              spans.push({
                name: s.name,
                traceId: s.traceId,
                spanId: s.spanId,
                parentSpanId: s.parentSpanId || undefined,
                attributes: Object.fromEntries((s.attributes ?? []).map((a: any) => [a.key, val(a.value)])),
              });
            }
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((r) => rx.listen(0, '127.0.0.1', r));
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${(rx.address() as any).port}`;
  process.env.OTEL_EXPORTER_OTLP_PROTOCOL = 'http/json';
  process.env.VIGIL_OTEL_SIMPLE = '1';
  const { bootGateway } = await import('./helpers.ts');
  g = await bootGateway({ extra: ['guardrail-pii'] });
});
after(async () => {
  await g.close();
  rx.close();
});

test('a chat turn produces the span tree under the request span', async () => {
  const r = await g.kernel.gateway.inject({ method: 'POST', url: '/api/v1/agent/chat', payload: { message: 'keccak256 of hello' } });
  assert.equal(r.statusCode, 200);
  const sid = r.json().session_id;
  await g.kernel.telemetry.forceFlush();
  const deadline = Date.now() + 3000;
  while (!spans.some((s) => s.name === 'POST /api/v1/agent/chat') && Date.now() < deadline) await new Promise((res) => setTimeout(res, 20));
  assert.ok(
    [...contentTypes].every((c) => c.startsWith('application/json')),
    [...contentTypes].join(),
  );
  const req = spans.find((s) => s.name === 'POST /api/v1/agent/chat');
  assert.ok(req, `request span missing; got ${spans.map((s) => s.name).join(', ')}`);
  const inTrace = spans.filter((s) => s.traceId === req.traceId);
  const turn = inTrace.find((s) => s.name === 'agent.turn')!;
  assert.equal(turn.parentSpanId, req.spanId);
  assert.equal(turn.attributes['vigil.session_id'], sid);
  assert.equal(turn.attributes['vigil.outcome'], 'success');
  assert.equal(turn.attributes['vigil.model'], 'demo/vigil-demo-1');
  assert.ok(Number(turn.attributes['vigil.tokens.completion']) > 0);
  const llm = inTrace.filter((s) => s.name === 'llm.request');
  assert.equal(llm.length, 2, 'one call asks for the tool, one answers');
  assert.ok(
    llm.every(
      (s) =>
        s.parentSpanId === turn.spanId && s.attributes['vigil.model'] === 'vigil-demo-1' && Number(s.attributes['vigil.tokens.prompt']) > 0,
    ),
  );
  const skill = inTrace.find((s) => s.name === 'skill.call')!;
  assert.equal(skill.parentSpanId, turn.spanId);
  assert.equal(skill.attributes['vigil.skill'], 'crypto');
  assert.equal(skill.attributes['vigil.outcome'], 'ok');
  const guards = inTrace.filter((s) => s.name === 'guardrail.check');
  assert.deepEqual([...new Set(guards.map((s) => s.attributes['vigil.direction']))].sort(), [
    'input',
    'output',
    'tool_args',
    'tool_result',
  ]);
  assert.ok(guards.every((s) => s.parentSpanId === turn.spanId));

  const m = await g.kernel.gateway.inject({ method: 'GET', url: '/metrics' });
  assert.match(m.body, /vigil_skill_calls_total\{skill="crypto",outcome="ok"\} 1/);
  assert.match(m.body, /vigil_llm_request_duration_seconds_count\{provider="demo",model="vigil-demo-1",outcome="success"\} 2/);
  assert.match(m.body, /vigil_llm_tokens_total\{provider="demo",model="vigil-demo-1",type="completion"\} \d+/);
});
