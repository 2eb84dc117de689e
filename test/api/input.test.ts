// Request validation shared by every analyze route, remediate and validate-remediation:
// exactly one contract field, timeout 1..3600, format, layer_num, size limit, allowed roots.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { boot, tempDir, type Booted } from './helpers.ts';

let b: Booted;
before(async () => {
  b = await boot();
  fs.writeFileSync(
    path.join(b.roots, 'A.sol'),
    'pragma solidity 0.8.30;\ncontract A { function f() external pure returns (uint) { return 1; } }\n',
  );
});
after(async () => {
  await b.stop();
});

const ROUTES = ['/api/v1/analyze/quick/', '/api/v1/analyze/full/', '/api/v1/analyze/layer/1/', '/api/v1/analyze/tool/solhint/'];
const post = (url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  b.kernel.api.inject({
    method: 'POST',
    url,
    payload: payload === undefined ? undefined : typeof payload === 'string' ? payload : JSON.stringify(payload),
    headers: { 'content-type': 'application/json', ...headers },
  });

function expectError(r: { statusCode: number; json(): any; headers: Record<string, unknown>; body: string }, status: number, code: string) {
  assert.equal(r.statusCode, status, r.body);
  assert.match(String(r.headers['content-type']), /application\/json/);
  const j = r.json();
  assert.equal(j.code, code, r.body);
  assert.equal(typeof j.error, 'string');
  assert.doesNotMatch(r.body, /at .*\.ts:\d+|<html/i);
}

test('every analyze route: neither or both contract fields -> 400 invalid_request', async () => {
  for (const url of ROUTES) {
    expectError(await post(url, {}), 400, 'invalid_request');
    expectError(await post(url, { contract_code: 'contract A {}', contract_path: 'A.sol' }), 400, 'invalid_request');
    expectError(await post(url), 400, 'invalid_json');
  }
});

test('timeout must be an integer of 1..3600 seconds; format json|sarif', async () => {
  for (const timeout of [0, 3601, 1.5, 'soon', -5]) {
    const r = await post('/api/v1/analyze/quick/', { contract_code: 'contract A {}', timeout });
    expectError(r, 400, 'invalid_request');
    assert.match(r.json().error, /timeout/);
  }
  const r = await post('/api/v1/analyze/quick/', { contract_code: 'contract A {}', format: 'xml' });
  expectError(r, 400, 'invalid_request');
  assert.match(r.json().error, /format/);
  expectError(await post('/api/v1/analyze/quick/', { contract_code: '' }), 400, 'invalid_request');
});

test('layer_num must be an integer >= 1 and an existing layer; tool must exist', async () => {
  expectError(await post('/api/v1/analyze/layer/0/', { contract_code: 'contract A {}' }), 400, 'invalid_request');
  expectError(await post('/api/v1/analyze/layer/abc/', { contract_code: 'contract A {}' }), 400, 'invalid_request');
  const r = await post('/api/v1/analyze/layer/42/', { contract_code: 'contract A {}' });
  expectError(r, 400, 'unknown_layer');
  assert.match(r.json().error, /layer 42/);
  const t = await post('/api/v1/analyze/tool/not-a-tool/', { contract_code: 'contract A {}' });
  expectError(t, 400, 'unknown_tool');
  assert.ok(Array.isArray(t.json().details.available_tools));
});

test('contract_code above 1 MiB -> 413', async () => {
  const big = 'contract A {}\n' + '//'.padEnd(1024 * 1024, 'x');
  expectError(await post('/api/v1/analyze/quick/', { contract_code: big }), 413, 'payload_too_large');
  expectError(await post('/api/v1/remediate/', { contract_code: big }), 413, 'payload_too_large');
});

test('contract_path: outside the roots, .. and escaping symlinks -> 403; missing -> 400 contract_not_found', async () => {
  const outside = tempDir('vigil-outside-');
  fs.writeFileSync(path.join(outside, 'Secret.sol'), 'contract S {}');
  fs.symlinkSync(path.join(outside, 'Secret.sol'), path.join(b.roots, 'link.sol'));
  fs.symlinkSync(outside, path.join(b.roots, 'dirlink'));
  for (const p of [path.join(outside, 'Secret.sol'), '../Secret.sol', 'sub/../../x.sol', 'link.sol', 'dirlink/Secret.sol', '/etc/passwd']) {
    const r = await post('/api/v1/analyze/quick/', { contract_path: p });
    expectError(r, 403, 'path_not_allowed');
  }
  expectError(await post('/api/v1/analyze/quick/', { contract_path: 'Missing.sol' }), 400, 'contract_not_found');
  expectError(await post('/api/v1/analyze/quick/', { contract_path: path.join(b.roots, 'Missing.sol') }), 400, 'contract_not_found');
});

test('a contract inside the roots is read by relative or absolute path', async () => {
  for (const p of ['A.sol', path.join(b.roots, 'A.sol')]) {
    const r = await post('/api/v1/analyze/tool/solhint/', { contract_path: p, timeout: 60 });
    assert.equal(r.statusCode, 200, r.body);
    assert.equal(r.json().tool, 'solhint');
    assert.equal(r.json().contract.name, 'A');
  }
});

test('non-JSON bodies are 400, never a crash', async () => {
  expectError(await post('/api/v1/analyze/quick/', '{"contract_code": '), 400, 'invalid_json');
  expectError(await post('/api/v1/analyze/quick/', '[1,2]'), 400, 'invalid_request');
  // Issue 15: a wrong content type says which one is expected.
  const r = await b.kernel.api.inject({
    method: 'POST',
    url: '/api/v1/analyze/quick/',
    payload: 'contract A {}',
    headers: { 'content-type': 'text/plain' },
  });
  expectError(r, 415, 'unsupported_media_type');
  assert.match(r.json().error, /expects "Content-Type: application\/json"/);
  const xml = await b.kernel.api.inject({
    method: 'POST',
    url: '/api/v1/analyze/quick/',
    payload: '<a/>',
    headers: { 'content-type': 'application/xml' },
  });
  expectError(xml, 415, 'unsupported_media_type');
});

test('remediate and validate-remediation validate their bodies', async () => {
  expectError(await post('/api/v1/remediate/', {}), 400, 'invalid_request');
  expectError(
    await post('/api/v1/remediate/', { contract_code: 'contract A {}', findings: [], finding_ids: ['x'] }),
    400,
    'invalid_request',
  );
  expectError(
    await post('/api/v1/remediate/', { contract_code: 'contract A {}', findings: [{ category: 'nonsense', location: { line: 1 } }] }),
    400,
    'invalid_request',
  );
  expectError(await post('/api/v1/validate-remediation/', { original_code: 'contract A {}' }), 400, 'invalid_request');
  expectError(await post('/api/v1/validate-remediation/', { patched_code: 'contract A {}' }), 400, 'invalid_request');
  expectError(
    await post('/api/v1/validate-remediation/', { original_code: 'contract A {}', patched_path: '../x.sol' }),
    403,
    'path_not_allowed',
  );
});
