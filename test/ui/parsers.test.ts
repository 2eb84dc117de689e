// The browser modules that do arithmetic or parsing, run in Node: Prometheus text parsing with
// rates and quantiles (what the dashboard's charts show) and the SSE parser the playground
// reads the chat stream with. The Prometheus input is real output of the kernel's registry.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import client from 'prom-client';
import { createMetrics } from '../../kernel/metrics.ts';
// @ts-expect-error plain browser ES modules without type declarations
import * as prom from '../../plugins/gateway-ui/public/prom.js';
// @ts-expect-error plain browser ES modules without type declarations
import { SseParser } from '../../plugins/gateway-ui/public/sse.js';

const { parsePrometheus, sum, sumBy, increase, increaseBy, histogramBuckets, histogramQuantile } = prom;

test('parses the kernel registry exposition: labels with escapes, histograms, special values', async () => {
  const reg = createMetrics();
  const c = new client.Counter({ name: 'vigil_test_total', help: 'x', labelNames: ['path'], registers: [reg] });
  c.inc({ path: 'a "quoted"\\path\nnext' }, 3);
  const g = new client.Gauge({ name: 'vigil_test_gauge', help: 'y', registers: [reg] });
  g.set(-Infinity);
  const exp = parsePrometheus(await reg.metrics());
  assert.deepEqual(exp.errors, []);
  const s = exp.samples.find((x: { name: string }) => x.name === 'vigil_test_total');
  assert.deepEqual(s, { name: 'vigil_test_total', labels: { path: 'a "quoted"\\path\nnext' }, value: 3 });
  assert.equal(exp.samples.find((x: { name: string }) => x.name === 'vigil_test_gauge').value, -Infinity);
  assert.equal(exp.types.get('vigil_http_request_duration_seconds'), 'histogram');
  // Default process metrics are there too, so a real scrape parses end to end.
  assert.ok(exp.samples.some((x: { name: string }) => x.name === 'vigil_process_cpu_user_seconds_total'));
});

test('a broken line is reported and skipped; the rest still parses', () => {
  const exp = parsePrometheus('ok_total 1\nbad{x="1" 2\nalso_ok{a="b"} 2.5 1700000000000\n');
  assert.equal(exp.samples.length, 2);
  assert.equal(exp.errors.length, 1);
  assert.match(exp.errors[0], /line 2/);
  assert.equal(sum(exp, 'also_ok'), 2.5);
});

test('rates come from counter deltas, and a counter reset is not a negative rate', () => {
  const a = parsePrometheus('req_total{route="/a"} 10\nreq_total{route="/b"} 5\n');
  const b = parsePrometheus('req_total{route="/a"} 16\nreq_total{route="/b"} 5\nreq_total{route="/c"} 2\n');
  assert.equal(increase(a, b, 'req_total'), 8);
  assert.deepEqual(
    increaseBy(a, b, 'req_total', ['route']).map((g: { labels: { route: string }; value: number }) => [g.labels.route, g.value]),
    [
      ['/a', 6],
      ['/c', 2],
      ['/b', 0],
    ],
  );
  const reset = parsePrometheus('req_total{route="/a"} 3\n');
  assert.equal(
    increase(b, reset, 'req_total', (l: { route: string }) => l.route === '/a'),
    3,
  );
  assert.equal(increase(null, b, 'req_total'), 0);
  assert.deepEqual(
    sumBy(b, 'req_total', []).map((g: { value: number }) => g.value),
    [23],
  );
});

test('histogram quantiles match PromQL histogram_quantile on a real prom-client histogram', async () => {
  const reg = new client.Registry();
  const hist = new client.Histogram({
    name: 'lat_seconds',
    help: 'z',
    labelNames: ['route'],
    buckets: [0.1, 0.2, 0.4, 0.8],
    registers: [reg],
  });
  const before = parsePrometheus(await reg.metrics());
  // 100 observations spread evenly over (0, 0.4]: p50 ≈ 0.2, p95 ≈ 0.38 with linear interpolation.
  for (let i = 1; i <= 100; i++) hist.observe({ route: i % 2 ? '/x' : '/y' }, i * 0.004);
  const after = parsePrometheus(await reg.metrics());
  const buckets = histogramBuckets(before, after, 'lat_seconds');
  assert.deepEqual(
    buckets.map((b: { count: number }) => b.count),
    [25, 50, 100, 100, 100],
  );
  assert.ok(Math.abs(histogramQuantile(0.5, buckets) - 0.2) < 1e-9);
  assert.ok(Math.abs(histogramQuantile(0.95, buckets) - 0.38) < 1e-9);
  // Only /x: 50 observations.
  const onlyX = histogramBuckets(null, after, 'lat_seconds', (l: { route: string }) => l.route === '/x');
  assert.equal(onlyX.at(-1).count, 50);
  // Everything in the +Inf bucket: the answer is the highest finite bound, like PromQL.
  hist.observe({ route: '/x' }, 5);
  const slow = histogramBuckets(after, parsePrometheus(await reg.metrics()), 'lat_seconds');
  assert.equal(histogramQuantile(0.99, slow), 0.8);
  assert.ok(Number.isNaN(histogramQuantile(0.5, histogramBuckets(after, after, 'lat_seconds'))));
});

test('SSE: events split across chunks, CRLF, multi-line data, comments and unnamed events', () => {
  const p = new SseParser();
  const got: Array<{ event: string; data: string }> = [];
  const stream =
    'event: session\r\ndata: {"session_id":"s1"}\r\n\r\n: keep-alive\n\nevent: delta\ndata: {"text":"Hel"}\n\nevent: delta\ndata:{"text":"lo"}\n\ndata: line one\ndata: line two\n\nevent: done\ndata: {}\r';
  // Feed one character at a time: the worst case for chunk boundaries.
  for (const ch of stream) got.push(...p.feed(ch));
  got.push(...p.feed('\n\r\n'));
  assert.deepEqual(got, [
    { event: 'session', data: '{"session_id":"s1"}' },
    { event: 'delta', data: '{"text":"Hel"}' },
    { event: 'delta', data: '{"text":"lo"}' },
    { event: 'message', data: 'line one\nline two' },
    { event: 'done', data: '{}' },
  ]);
});

test('SSE: an event without data is not dispatched, and an unterminated last event stays pending', () => {
  const p = new SseParser();
  assert.deepEqual(p.feed('event: ping\n\n'), []);
  assert.deepEqual(p.feed('event: delta\ndata: {"text":"x"}'), []);
  assert.deepEqual(p.feed('\n\n'), [{ event: 'delta', data: '{"text":"x"}' }]);
});
