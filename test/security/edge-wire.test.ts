// The edge of both surfaces on a listening server: DNS rebinding (issue 14 item 6), slow bodies
// (item 9), JSON nesting (item 8), and what a newcomer meets (issue 15: slash variants, GET /,
// validation messages that name the allowed values, the content type expected).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { serve, type Server } from './edge-helpers.ts';

let s: Server;
before(async () => {
  s = await serve({ env: { VIGIL_BODY_TIMEOUT_MS: '1000' }, config: { allowed_hosts: ['vigil.example.com', '.corp.example'] } });
});
after(() => s.stop());

function raw(base: string, host: string, path = '/api/v1/health/'): Promise<{ status: number; body: any }> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, path, headers: { host } }, (res) => {
      let b = '';
      res.on('data', (c) => (b += c));
      res.on('end', () => resolve({ status: res.statusCode!, body: b ? JSON.parse(b) : null }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('a Host that is not ours is 421 on both surfaces; loopback, bind and allowed names are served', async () => {
  for (const [base, path] of [
    [s.gateway, '/health'],
    [s.api, '/api/v1/health/'],
  ] as const) {
    const port = new URL(base).port;
    const bad = await raw(base, `rebind.evil.example:${port}`, path);
    assert.equal(bad.status, 421, JSON.stringify(bad.body));
    assert.equal(bad.body.code, 'misdirected_request');
    assert.match(bad.body.error, /rebind\.evil\.example/);
    assert.equal((await raw(base, 'evil.example', path)).status, 421);
    assert.equal((await raw(base, 'localhost.evil.example', path)).status, 421, 'a name merely starting with localhost is not loopback');
    for (const ok of [
      `localhost:${port}`,
      `127.0.0.1:${port}`,
      `[::1]:${port}`,
      'app.localhost',
      'vigil.example.com',
      'VIGIL.example.com:443',
      'ci.corp.example',
    ]) {
      assert.equal((await raw(base, ok, path)).status, 200, ok);
    }
  }
  // Protected routes too: the check runs before authentication and every route.
  assert.equal((await raw(s.gateway, 'rebind.evil.example', '/api/v1/sessions')).status, 421);
});

test('a body that trickles in is cut with 408 and the connection closed', async () => {
  const u = new URL(s.gateway);
  const sock = net.connect(Number(u.port), u.hostname);
  await new Promise((r) => sock.once('connect', r));
  sock.write(
    `POST /api/v1/agent/chat HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"message":"`,
  );
  const tick = setInterval(() => sock.write('a'), 200);
  let got = '';
  sock.on('data', (c) => (got += String(c)));
  await new Promise((r) => sock.once('close', r));
  clearInterval(tick);
  assert.match(got, /^HTTP\/1\.1 408/);
  assert.match(got, /"code":"request_timeout"/);
  assert.match(got, /did not arrive within 1 s/);
});

test('JSON nested deeper than 64 levels is 400 invalid_request on both surfaces, never a 500', async () => {
  const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
  const cases: Array<[string, string, (d: string) => string]> = [
    [s.gateway, '/api/v1/agent/chat', (d) => `{"message":"hi","context":${d}}`],
    [s.gateway, '/mcp', (d) => `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":${d}}`],
    [s.api, '/api/v1/reports/', (d) => `{"kind":"x","data":${d}}`],
    [s.api, '/api/v1/analyze/quick/', (d) => `{"contract_code":"contract A {}","x":${d}}`],
  ];
  for (const [base, url, body] of cases) {
    for (const n of [65, 5000]) {
      const r = await fetch(base + url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: body(deep(n)),
      });
      const j = await r.json();
      assert.equal(r.status, 400, `${url} depth ${n}: ${JSON.stringify(j)}`);
      assert.equal(j.code, 'invalid_request');
      assert.match(j.error, /deeper than 64 levels/);
    }
  }
  // Brackets inside strings are text, not nesting; 64 levels are accepted by the parser.
  const text = await fetch(s.gateway + '/api/v1/guardrails/check', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text: '['.repeat(500), direction: 'input' }),
  });
  assert.notEqual((await text.json()).code, 'invalid_request');
  const ok = await fetch(s.api + '/api/v1/analyze/quick/', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: `{"contract_code":"contract A {}","x":${deep(63)}}`,
  });
  assert.doesNotMatch(await ok.text(), /deeper than 64/);
});

test('slash variants answer instead of a bare 404', async () => {
  assert.equal((await fetch(s.api + '/api/v1/health')).status, 200);
  assert.equal((await fetch(s.api + '/api/v1/health/')).status, 200);
  assert.equal((await fetch(s.gateway + '/health/')).status, 200);
  assert.equal((await fetch(s.gateway + '/api/v1/sessions/')).status, 200);
  assert.equal((await fetch(s.api + '/api/v1/tools')).status, 200);
  const missing = await fetch(s.gateway + '/api/v1/nothing-here');
  assert.equal(missing.status, 404);
  assert.equal((await missing.json()).code, 'not_found');
});

test('GET / on the gateway is an index naming the dashboard, playground and API docs', async () => {
  const html = await fetch(s.gateway + '/', { headers: { accept: 'text/html' } });
  assert.equal(html.status, 200);
  assert.match(html.headers.get('content-type')!, /text\/html/);
  assert.match(html.headers.get('content-security-policy')!, /default-src 'none'/);
  const page = await html.text();
  for (const href of ['/dashboard', '/playground', '/openapi.json']) assert.match(page, new RegExp(`href="${href}"`));
  const json = await (await fetch(s.gateway + '/', { headers: { accept: 'application/json' } })).json();
  assert.deepEqual(
    json.links.map((l: any) => l.href),
    ['/dashboard', '/playground', '/openapi.json', '/health'],
  );
});

test('validation names the allowed values; a wrong content type names the one expected', async () => {
  const r = await fetch(s.api + '/api/v1/analyze/quick/', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ contract_code: 'contract A {}', format: 'xml' }),
  });
  const j = await r.json();
  assert.equal(r.status, 400);
  assert.match(j.error, /"format": must be one of json, sarif/);
  assert.deepEqual(j.details.allowed, ['json', 'sarif']);
  const t = await fetch(s.api + '/api/v1/analyze/quick/', {
    method: 'POST',
    headers: { 'content-type': 'text/plain' },
    body: 'contract A {}',
  });
  const tj = await t.json();
  assert.equal(t.status, 415);
  assert.match(tj.error, /expects "Content-Type: application\/json"/);
  assert.equal(tj.details.expected, 'application/json');
});

test('vigil serve --allowed-hosts refuses what is not a host name (exit 2, a sentence)', async () => {
  const { cli } = await import('./edge-helpers.ts');
  const r = await cli(['serve', '--allowed-hosts', 'https://vigil.example.com/']);
  assert.equal(r.code, 2);
  assert.match(r.err, /is not a host name/);
});

test('an error answered before the body arrived closes the connection instead of draining it', async () => {
  const u = new URL(s.gateway);
  const sock = net.connect(Number(u.port), u.hostname);
  await new Promise((r) => sock.once('connect', r));
  sock.write(
    `POST /api/v1/agent/chat HTTP/1.1\r\nHost: rebind.evil.example\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"message":"`,
  );
  let got = '';
  sock.on('data', (c) => (got += String(c)));
  await new Promise((r) => sock.once('close', r));
  assert.match(got, /^HTTP\/1\.1 421/);
  assert.match(got, /connection: close/i);
});
