// The general rules behind the edge checks, case by case: Host parsing and the allowlist, the
// JSON depth scan (brackets in strings and escapes), and `protects` path matching.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import os from 'node:os';
import { hostName, hostPolicy, isLoopbackName, jsonDepthExceeds, parseProtects, protects } from '../../kernel/protect.ts';

test('Host header parsing and loopback names', () => {
  assert.equal(hostName('Example.COM:3000'), 'example.com');
  assert.equal(hostName('[::1]:8000'), '::1');
  assert.equal(hostName('localhost.'), 'localhost');
  for (const n of ['localhost', 'app.localhost', '127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) assert.ok(isLoopbackName(n), n);
  for (const n of ['localhost.evil.example', 'evil-localhost', '128.0.0.1', '::2', '0.0.0.0']) assert.ok(!isLoopbackName(n), n);
});

test('the allowlist: bind address, wildcard binds, listed names and subdomains; "*" turns it off', () => {
  const p = hostPolicy(['10.1.2.3'], ['vigil.example.com', '.corp.example']);
  for (const h of ['10.1.2.3:3000', 'localhost:3000', 'vigil.example.com', 'a.b.corp.example', 'corp.example', undefined])
    assert.ok(p.allowed(h), String(h));
  for (const h of ['10.1.2.4', 'evil.example', 'vigil.example.com.evil.example', 'xcorp.example']) assert.ok(!p.allowed(h), h);
  const wild = hostPolicy(['0.0.0.0'], []);
  const mine = Object.values(os.networkInterfaces())
    .flat()
    .map((a) => a!.address)
    .find((a) => a.includes('.'))!;
  assert.ok(wild.allowed(`${mine}:3000`), `own address ${mine} under a wildcard bind`);
  assert.ok(!wild.allowed('203.0.113.9'), 'not any address');
  assert.ok(hostPolicy(['127.0.0.1'], ['*']).allowed('anything.example'));
});

test('JSON depth: counted on structure only, stops early', () => {
  assert.equal(jsonDepthExceeds('['.repeat(64) + ']'.repeat(64)), false);
  assert.equal(jsonDepthExceeds('['.repeat(65) + ']'.repeat(65)), true);
  assert.equal(jsonDepthExceeds(JSON.stringify({ s: '[[[['.repeat(100) })), false, 'brackets inside strings');
  assert.equal(jsonDepthExceeds(JSON.stringify({ s: 'a\\"[[[' + '{'.repeat(100) })), false, 'escaped quotes do not end the string');
  assert.equal(jsonDepthExceeds('{"a":'.repeat(70) + '1' + '}'.repeat(70)), true);
  assert.equal(jsonDepthExceeds('['.repeat(10_000_000)), true, 'a huge prefix is refused without scanning to the end');
});

test('protects: whole segments, exceptions, "/" means all in paths and only the root in except', () => {
  const [p] = parseProtects([{ surface: 'gateway', paths: ['/'], except: ['/', '/health', '/dashboard'] }]);
  assert.ok(protects(p, 'gateway', '/api/v1/sessions'));
  assert.ok(protects(p, 'gateway', '/healthz'), 'a sibling name is not the exception');
  assert.ok(protects(p, 'gateway', '/dashboard-admin'));
  assert.ok(!protects(p, 'gateway', '/health'));
  assert.ok(!protects(p, 'gateway', '/health/'));
  assert.ok(!protects(p, 'gateway', '/dashboard/assets/x.js?v=1'));
  assert.ok(!protects(p, 'gateway', '/'));
  assert.ok(!protects(p, 'api', '/api/v1/sessions'), 'other surface');
  const both = parseProtects([{ surface: 'both', paths: ['/mcp'] }, { surface: 'nowhere' }, 'junk', { surface: 'api' }]);
  assert.deepEqual(
    both.map((x) => [x.surface, x.paths.join()]),
    [
      ['api', '/mcp'],
      ['gateway', '/mcp'],
      ['api', '/'],
    ],
  );
});
