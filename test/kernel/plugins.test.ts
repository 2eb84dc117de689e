import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bootKernel } from '../helpers.ts';
import { validateManifest } from '../../kernel/manifest.ts';
import { discoverPlugins, orderByDependencies } from '../../kernel/loader.ts';
import type { Kernel } from '../../kernel/kernel.ts';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'plugins');
let k: Kernel;
const lifecycle: string[] = [];

before(async () => {
  (globalThis as any).__lifecycle = lifecycle;
  process.env.VIGIL_PLUGIN_SETUP_TIMEOUT_MS = '400';
  k = await bootKernel({ kernel: { pluginRoots: [fixtures] }, settings: { overrides: { plugins: { 'bad-config': { level: 0 } } } } });
});
after(async () => {
  await k?.stop();
  delete process.env.VIGIL_PLUGIN_SETUP_TIMEOUT_MS;
});

const status = (id: string) => k.registry.plugins().find((p) => p.id === id);

test('manifest validation names the problem before any code runs', () => {
  const ok = validateManifest({ id: 'x-tool', kind: 'tool', version: '1.0.0', runtime: 'ts', entry: 'index.ts' }, 'x-tool');
  assert.equal(ok.ok, true);
  const badKind = validateManifest({ id: 'x', kind: 'teleporter', version: '1.0.0', runtime: 'ts', entry: 'i.ts' }, 'x');
  assert.equal(badKind.ok, false);
  const wrongId = validateManifest({ id: 'a', kind: 'tool', version: '1.0.0', runtime: 'ts', entry: 'i.ts' }, 'b');
  assert.match(JSON.stringify(wrongId), /must equal the folder name/);
  const escape = validateManifest({ id: 'a', kind: 'tool', version: '1.0.0', runtime: 'ts', entry: '../../etc/passwd' }, 'a');
  assert.match(JSON.stringify(escape), /inside the plugin folder/);
  const wasmEntry = validateManifest({ id: 'a', kind: 'detector', version: '1.0.0', runtime: 'wasm', entry: 'index.ts' }, 'a');
  assert.match(JSON.stringify(wasmEntry), /\.wasm/);
  assert.equal(validateManifest([], 'a').ok, false);
  assert.equal(validateManifest({ id: 'a', kind: 'tool', version: '1', runtime: 'ts', entry: 'i.ts' }, 'a').ok, false);
});

test('discovery finds every folder with a manifest and orders dependencies first', () => {
  const found = discoverPlugins([fixtures, path.join(fixtures, 'does-not-exist')]);
  const ids = found.map((d) => d.folder);
  assert.ok(ids.includes('good-tool') && ids.includes('bad-json') && ids.includes('depends-on-good'));
  const { ordered, failed } = orderByDependencies(found);
  const order = ordered.map((d) => d.manifest!.id);
  assert.ok(order.indexOf('good-tool') < order.indexOf('depends-on-good'));
  assert.ok(failed.some((f) => f.d.manifest!.id === 'missing-dep' && /missing dependency "nowhere-plugin"/.test(f.error)));
});

test('good plugins load, with validated config and defaults applied', () => {
  assert.equal(status('good-tool')?.status, 'loaded');
  assert.deepEqual(status('good-tool')?.registered, ['tool:line-counter']);
  assert.match(k.registry.tool('line-counter')!.description, /lines/);
  assert.equal(status('depends-on-good')?.status, 'loaded');
  assert.equal(k.services.get('seen-tool'), 'line-counter');
});

test('each broken plugin is reported with its id and a clear reason, and the others keep serving', async () => {
  const expect: Record<string, RegExp> = {
    'bad-json': /not valid JSON/,
    'bad-manifest': /invalid manifest/,
    'wrong-folder': /must equal the folder name/,
    'throws-in-setup': /setup threw: database password missing/,
    'missing-dep': /missing dependency/,
    'bad-config': /invalid config/,
    'wrong-kind': /cannot register a tool/,
    'no-setup': /exports no setup/,
    'missing-wasm': /plugin\.wasm not found/,
    'hangs-in-setup': /did not finish within/,
  };
  for (const [id, re] of Object.entries(expect)) {
    const s = status(id);
    assert.equal(s?.status, 'error', `${id} should be in error`);
    assert.match(s.error!, re, `${id}: ${s.error}`);
  }
  // A failed setup leaves nothing half-registered.
  assert.equal(k.registry.skill('half-registered'), undefined);
  assert.equal(k.registry.tool('sneaky'), undefined);
  assert.equal(status('disabled-one')?.status, 'disabled');
  const r = await k.api.inject({ method: 'GET', url: '/fixture/seen/' });
  assert.equal(r.statusCode, 200);
  assert.deepEqual(r.json(), { seen: 'line-counter' });
});

test('unknown routes answer a JSON error body, never HTML', async () => {
  const r = await k.gateway.inject({ method: 'GET', url: '/no/such/thing' });
  assert.equal(r.statusCode, 404);
  assert.deepEqual(r.json(), { error: 'no route for GET /no/such/thing', code: 'not_found' });
  assert.ok(r.headers['x-request-id']);
});

test('lifecycle: ordered start, reverse-order close', async () => {
  assert.deepEqual(k.lifecycle.slice(0, 6), [
    'start:telemetry',
    'start:store',
    'start:metrics',
    'start:pool',
    'start:wasm',
    'start:plugins',
  ]);
  assert.ok(lifecycle.indexOf('good-tool:start') < lifecycle.indexOf('depends-on-good:start'));
  await k.stop();
  assert.ok(lifecycle.indexOf('depends-on-good:close') < lifecycle.indexOf('good-tool:close'), lifecycle.join(','));
  const stops = k.lifecycle.filter((s) => s.startsWith('stop:'));
  assert.equal(stops[0], 'stop:http');
  assert.ok(stops.indexOf('stop:plugin:depends-on-good') < stops.indexOf('stop:plugin:good-tool'));
  assert.ok(stops.indexOf('stop:pool') < stops.indexOf('stop:store'));
  assert.equal(stops.at(-1), 'stop:telemetry');
});
