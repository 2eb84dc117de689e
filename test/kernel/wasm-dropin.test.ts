// The drop-in promise: copy the example WASM plugin, rename it, build it with `vigil plugin
// build`, put it in a VIGIL_PLUGIN_DIRS folder, restart — it is in the tool inventory and runs
// through POST /api/v1/analyze/tool/{id}/ with no code change.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../../kernel/cli.ts';
import { bootKernel, tempDir } from '../helpers.ts';
import type { Kernel } from '../../kernel/kernel.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
let kernel: Kernel | undefined;
after(() => kernel?.stop());

function sink() {
  let text = '';
  return { stream: { write: (s: string) => ((text += s), true) } as unknown as NodeJS.WritableStream, text: () => text };
}

test('copy, rename, build, drop in: the new WASM analyzer is listed and runs by name', { timeout: 240_000 }, async () => {
  const dropDir = tempDir('vigil-dropin-');
  const dir = path.join(dropDir, 'detector-wasm-my-timestamp');
  fs.cpSync(path.join(root, 'examples', 'wasm-plugin'), dir, { recursive: true, filter: (src) => !src.endsWith('.wasm') });
  const manifestPath = path.join(dir, 'plugin.json');
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
  manifest.id = 'detector-wasm-my-timestamp';
  manifest.detector.meta.id = 'wasm-my-timestamp';
  delete manifest.wasm.sha256;
  fs.writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));

  const out = sink();
  const err = sink();
  const code = await main(['node', 'vigil', 'plugin', 'build', dir], { stdout: out.stream, stderr: err.stream });
  assert.equal(code, 0, err.text());
  assert.ok(fs.existsSync(path.join(dir, 'plugin.wasm')), 'plugin.wasm built');
  assert.match(JSON.parse(fs.readFileSync(manifestPath, 'utf8')).wasm.sha256, /^[a-f0-9]{64}$/);

  // The engine and the REST API, and the drop-in: the other analysis plugins play no part here.
  kernel = await bootKernel({
    only: ['analysis-engine', 'analysis-api', 'detector-wasm-my-timestamp'],
    settings: { env: { ...process.env, VIGIL_PLUGIN_DIRS: dropDir } },
  });
  const status = kernel.registry.plugins().find((p) => p.id === 'detector-wasm-my-timestamp');
  assert.equal(status?.status, 'loaded', status?.error ?? 'not discovered');

  const tools = await kernel.api.inject({ method: 'GET', url: '/api/v1/tools/' });
  assert.equal(tools.statusCode, 200);
  assert.ok(JSON.stringify(tools.json()).includes('detector-wasm-my-timestamp'), 'listed in the tool inventory');
  const one = await kernel.api.inject({ method: 'GET', url: '/api/v1/tools/detector-wasm-my-timestamp/' });
  assert.equal(one.statusCode, 200);

  const source = fs.readFileSync(path.join(root, 'examples', 'wasm-plugin', 'fixtures', 'timestamp.sol'), 'utf8');
  const expected = source.split('\n').flatMap((l, i) => (/\/\/ expect:/.test(l) ? [i + 1] : []));
  const r = await kernel.api.inject({
    method: 'POST',
    url: '/api/v1/analyze/tool/detector-wasm-my-timestamp/',
    payload: { contract_code: source, timeout: 120 },
  });
  assert.equal(r.statusCode, 200, r.body);
  const body = r.json();
  assert.equal(body.status, 'success', JSON.stringify(body));
  const lines = body.findings.map((f: any) => f.location.line).sort((a: number, b: number) => a - b);
  assert.deepEqual(lines, expected);
  assert.ok(body.findings.every((f: any) => f.category === 'time_manipulation' && f.tools.includes('detector-wasm-my-timestamp')));
});
