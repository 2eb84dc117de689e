// Over a real socket: the API listens on an ephemeral port and answers health, analysis and
// errors as HTTP/JSON; a client that disconnects mid-analysis does not hurt the server.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { boot, VULNERABLE, type Booted } from './helpers.ts';

let b: Booted;
let base: string;
before(async () => {
  b = await boot({ listen: true });
  base = (await b.kernel.listen()).api;
});
after(async () => {
  await b.stop();
});

test('listening server: root, analysis, errors as JSON', async () => {
  assert.match(base, /^http:\/\/127\.0\.0\.1:\d+$/);
  const root = await fetch(`${base}/`);
  assert.equal(root.status, 200);
  assert.equal((await root.json()).service, 'vigil');
  const r = await fetch(`${base}/api/v1/analyze/tool/solhint/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ contract_code: VULNERABLE, timeout: 60 }),
  });
  assert.equal(r.status, 200);
  assert.ok((await r.json()).findings.length > 0);
  const bad = await fetch(`${base}/api/v1/analyze/quick/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"contract_code":',
  });
  assert.equal(bad.status, 400);
  assert.match(bad.headers.get('content-type') ?? '', /application\/json/);
  assert.equal((await bad.json()).code, 'invalid_json');
  const nf = await fetch(`${base}/api/v1/nothing/`);
  assert.equal(nf.status, 404);
  assert.equal((await nf.json()).code, 'not_found');
});

test('a client that disconnects mid-analysis leaves the server answering', async () => {
  const { port } = new URL(base);
  const body = JSON.stringify({ contract_code: VULNERABLE, timeout: 300 });
  await new Promise<void>((resolve, reject) => {
    const s = net.connect(Number(port), '127.0.0.1', () => {
      s.write(
        `POST /api/v1/analyze/full/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      setTimeout(() => {
        s.destroy();
        resolve();
      }, 300);
    });
    s.on('error', reject);
  });
  const h = await fetch(`${base}/api/v1/health/`);
  assert.ok([200, 503].includes(h.status));
  assert.ok(['healthy', 'degraded', 'unhealthy'].includes((await h.json()).status));
});
