// Issue #14 item 10: a WASM plugin loads only with its module hash pinned in plugin.json, and a
// guest's HTTP requests reach only public addresses unless an address or range is listed —
// a listed name (or `*`) that resolves to loopback is refused. Uses a fixture plugin
// (wasm/fixtures/wasm-http-get) compiled inside the test and loaded by the real loader, one copy
// per allowed_hosts setting.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../../kernel/cli.ts';
import type { Kernel } from '../../kernel/kernel.ts';
import { addressRefusal, parseHostRules, resolveChecked } from '../../kernel/wasm/net-policy.ts';
import { bootKernel, tempDir } from '../helpers.ts';
import { buildFixture } from '../wasm/helpers.ts';
import { REPO_ROOT } from '../../kernel/wasm/build.ts';

const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'wasm', 'fixtures', 'wasm-http-get');
const root = tempDir('vigil-sec-wasm-');
let kernel: Kernel;
let server: http.Server;
let port = 0;
let hits = 0;

const VARIANTS: Record<string, { allowed?: string[]; unhashed?: boolean }> = {
  'wasm-http-by-name': { allowed: ['localhost'] },
  'wasm-http-any': { allowed: ['*'] },
  'wasm-http-listed-ip': { allowed: ['localhost', '127.0.0.1'] },
  'wasm-http-listed-cidr': { allowed: ['127.0.0.0/8'] },
  'wasm-http-unhashed': { allowed: ['*'], unhashed: true },
};

const sink = () => {
  let text = '';
  return { stream: { write: (s: string) => ((text += s), true) } as unknown as NodeJS.WritableStream, text: () => text };
};

before(async () => {
  server = http.createServer((_req, res) => {
    hits++;
    res.end('private service');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
  // Compiled once (cached by source hash, see test/wasm/helpers.ts), pinned the way `vigil plugin
  // build` pins it (test/kernel/wasm-dropin.test.ts covers the CLI), then copied per variant.
  const built = path.join(root, 'wasm-http-get');
  fs.cpSync(FIXTURE, built, { recursive: true });
  const wasm = await buildFixture('wasm/fixtures/wasm-http-get/assembly/index.ts');
  fs.copyFileSync(wasm, path.join(built, 'plugin.wasm'));
  const pinned = JSON.parse(fs.readFileSync(path.join(built, 'plugin.json'), 'utf8'));
  pinned.wasm.sha256 = createHash('sha256').update(fs.readFileSync(wasm)).digest('hex');
  fs.writeFileSync(path.join(built, 'plugin.json'), JSON.stringify(pinned, null, 2));
  for (const [id, v] of Object.entries(VARIANTS)) {
    const dir = path.join(root, id);
    fs.cpSync(built, dir, { recursive: true });
    const m = JSON.parse(fs.readFileSync(path.join(dir, 'plugin.json'), 'utf8'));
    m.id = id;
    m.skill.name = id.replace(/-/g, '_');
    m.wasm.allowed_hosts = v.allowed;
    if (v.unhashed) delete m.wasm.sha256;
    fs.writeFileSync(path.join(dir, 'plugin.json'), JSON.stringify(m, null, 2));
  }
  fs.rmSync(built, { recursive: true });
  kernel = await bootKernel({ kernel: { pluginRoots: [root] } });
});
after(async () => {
  await kernel?.stop();
  await new Promise<void>((r) => server.close(() => r()));
  fs.rmSync(root, { recursive: true, force: true });
});

const get = (id: string, url: string) =>
  kernel.registry
    .skill(id.replace(/-/g, '_'))!
    .call({ url }, { sessionId: 's', tenant: null, signal: new AbortController().signal, workspace: root });

describe('wasm.sha256 is required', () => {
  test('a WASM plugin without the hash is refused with the reason; the same module with it loads', () => {
    const st = kernel.registry.plugins().find((p) => p.id === 'wasm-http-unhashed')!;
    assert.equal(st.status, 'error');
    assert.match(
      st.error!,
      /wasm\.sha256 is missing from plugin\.json; a WASM module loads only with its hash pinned — write it with: vigil plugin build .*wasm-http-unhashed/,
    );
    assert.equal(kernel.registry.skill('wasm_http_unhashed'), undefined);
    assert.equal(kernel.registry.plugins().find((p) => p.id === 'wasm-http-any')!.status, 'loaded');
  });

  test('`vigil plugins` shows the reason and exits 1', async () => {
    const saved = { dirs: process.env.VIGIL_PLUGIN_DIRS, data: process.env.VIGIL_DATA_DIR, config: process.env.VIGIL_CONFIG };
    const data = tempDir('vigil-sec-wasm-data-');
    // Only the fixture plugins: the bundled ones are disabled so the command boots quickly.
    const off = Object.fromEntries(fs.readdirSync(path.join(REPO_ROOT, 'plugins')).map((id) => [id, { enabled: false }]));
    fs.writeFileSync(path.join(data, 'vigil.config.json'), JSON.stringify({ plugins: off }));
    process.env.VIGIL_PLUGIN_DIRS = root;
    process.env.VIGIL_DATA_DIR = data;
    process.env.VIGIL_CONFIG = path.join(data, 'vigil.config.json');
    try {
      const out = sink();
      const code = await main(['node', 'vigil', 'plugins'], { stdout: out.stream, stderr: sink().stream });
      const line = out
        .text()
        .split('\n')
        .find((l) => l.includes('wasm-http-unhashed'))!;
      assert.match(line, /^wasm-http-unhashed\s+skill\s+wasm\s+error\s+.*wasm\.sha256 is missing from plugin\.json/);
      assert.equal(code, 1);
    } finally {
      if (saved.dirs === undefined) delete process.env.VIGIL_PLUGIN_DIRS;
      else process.env.VIGIL_PLUGIN_DIRS = saved.dirs;
      if (saved.data === undefined) delete process.env.VIGIL_DATA_DIR;
      else process.env.VIGIL_DATA_DIR = saved.data;
      if (saved.config === undefined) delete process.env.VIGIL_CONFIG;
      else process.env.VIGIL_CONFIG = saved.config;
    }
  });
});

describe('allowed_hosts is checked against the resolved address', () => {
  test('a listed name that resolves to loopback is refused; nothing reaches the server', async () => {
    const before = hits;
    const r = await get('wasm-http-by-name', `http://localhost:${port}/`);
    assert.equal(r.ok, false);
    assert.match(r.error!, /HTTP request to localhost refused: it resolves to (127\.0\.0\.1|::1) \(loopback\)/);
    assert.equal(hits, before);
  });

  test('`*` does not open loopback, IPv4-mapped loopback or the unspecified address', async () => {
    const before = hits;
    for (const [host, range] of [
      ['127.0.0.1', 'loopback'],
      ['[::ffff:127.0.0.1]', 'loopback'],
      ['0.0.0.0', 'unspecified'],
    ]) {
      const r = await get('wasm-http-any', `http://${host}:${port}/`);
      assert.equal(r.ok, false, host);
      assert.match(r.error!, new RegExp(`\\(${range}\\), which is reached only when that address or its range is listed`), host);
    }
    assert.equal(hits, before);
  });

  test('an explicitly listed IP or CIDR is reached', async () => {
    const before = hits;
    const byName = await get('wasm-http-listed-ip', `http://localhost:${port}/`);
    // localhost may resolve to ::1 first on some hosts; only 127.0.0.1 is listed and served.
    if (byName.ok) assert.deepEqual(byName.output, { status: 200, body: 'private service' });
    else assert.match(byName.error!, /::1 \(loopback\)/);
    const byCidr = await get('wasm-http-listed-cidr', `http://127.0.0.1:${port}/`);
    assert.ok(byCidr.ok, byCidr.error ?? '');
    assert.deepEqual(byCidr.output, { status: 200, body: 'private service' });
    assert.ok(hits > before);
  });

  test('every special-purpose range is refused unless listed; public addresses pass', () => {
    const none = parseHostRules(['*']);
    const table: Array<[string, string | null]> = [
      ['127.0.0.1', 'loopback'],
      ['::1', 'loopback'],
      ['10.1.2.3', 'private'],
      ['172.16.0.1', 'private'],
      ['192.168.1.1', 'private'],
      ['fd00::1', 'uniqueLocal'],
      ['169.254.169.254', 'linkLocal'],
      ['fe80::1', 'linkLocal'],
      ['100.64.0.1', 'carrierGradeNat'],
      ['0.0.0.0', 'unspecified'],
      ['::', 'unspecified'],
      ['224.0.0.1', 'multicast'],
      ['ff02::1', 'multicast'],
      ['255.255.255.255', 'broadcast'],
      ['::ffff:10.0.0.1', 'private'],
      ['8.8.8.8', null],
      ['2606:4700:4700::1111', null],
    ];
    for (const [ip, range] of table) assert.equal(addressRefusal(ip, none), range, ip);
    const listed = parseHostRules(['10.0.0.0/8', 'fd00::/8', '169.254.169.254']);
    assert.equal(addressRefusal('10.1.2.3', listed), null);
    assert.equal(addressRefusal('fd00::1', listed), null);
    assert.equal(addressRefusal('169.254.169.254', listed), null);
    assert.equal(addressRefusal('192.168.1.1', listed), 'private');
  });

  test('a name is judged by every address it resolves to (a rebinding answer is refused)', async () => {
    const rules = parseHostRules(['*.example.com']);
    const lookup = (async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.7', family: 4 },
    ]) as any;
    await assert.rejects(resolveChecked('api.example.com', rules, lookup), /it resolves to 10\.0\.0\.7 \(private\)/);
    const pub = (async () => [{ address: '93.184.216.34', family: 4 }]) as any;
    assert.deepEqual(await resolveChecked('api.example.com', rules, pub), [{ address: '93.184.216.34', family: 4 }]);
  });
});
