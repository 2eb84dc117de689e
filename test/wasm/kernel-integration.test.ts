// The bundled WASM plugins inside a booted kernel: discovered from a plugin root, loaded through
// the real loader and host (sha256 from plugin.json checked), and callable as the agent and the
// analyzer would call them. The plugins are copied to a temp root with modules this test run
// built, so the test does not depend on what `npm install` left in the work tree.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Kernel } from '../../kernel/kernel.ts';
import { REPO_ROOT, stopCompiler } from '../../kernel/wasm/build.ts';
import { bootKernel } from '../helpers.ts';
import { buildFixture, FIXTURE_OUT } from './helpers.ts';

const root = path.join(FIXTURE_OUT, `kernel-root-${process.pid}`);
const ids = ['detector-wasm-tx-origin', 'skill-wasm-units'];
let kernel: Kernel;

before(async () => {
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  for (const id of ids) {
    const dir = path.join(root, id);
    cpSync(path.join(REPO_ROOT, 'plugins', id), dir, { recursive: true, filter: (s) => !s.endsWith('.wasm') });
    // Same compiler and flags as buildPlugin (test/wasm/example-plugin.test.ts covers that path),
    // reusing the other tests' cached build; the manifest gets the hash of exactly this module.
    const built = await buildFixture(`plugins/${id}/assembly/index.ts`);
    const m = JSON.parse(readFileSync(path.join(dir, 'plugin.json'), 'utf8'));
    copyFileSync(built, path.join(dir, m.entry));
    m.wasm = { ...m.wasm, sha256: createHash('sha256').update(readFileSync(built)).digest('hex') };
    writeFileSync(path.join(dir, 'plugin.json'), JSON.stringify(m, null, 2));
  }
  await stopCompiler();
  // A WASM detector is registered by the provider of wasm-adapter:detector (the static analyzer):
  // the root gets that plugin too, as a folder re-exporting the repository's.
  const sa = path.join(root, 'static-analyzer');
  mkdirSync(sa);
  copyFileSync(path.join(REPO_ROOT, 'plugins/static-analyzer/plugin.json'), path.join(sa, 'plugin.json'));
  writeFileSync(path.join(sa, 'index.ts'), `export { default } from ${JSON.stringify(path.join(REPO_ROOT, 'plugins/static-analyzer/index.ts'))};\n`);
  kernel = await bootKernel({ kernel: { pluginRoots: [root] } });
});
after(async () => {
  await kernel?.stop();
  rmSync(root, { recursive: true, force: true });
});

test('the WASM skill loads and answers through the registry', async () => {
  const status = kernel.registry.plugins().find((p) => p.id === 'skill-wasm-units');
  assert.equal(status?.status, 'loaded', status?.error ?? '');
  assert.equal(status?.runtime, 'wasm');
  const skill = kernel.registry.skill('eth_units');
  assert.ok(skill, 'skill registered under its manifest name');
  const ctx = { sessionId: 's', tenant: null, signal: new AbortController().signal, workspace: REPO_ROOT };
  const ok = await skill.call({ value: '0.1', from: 'ether', to: 'wei' }, ctx);
  assert.deepEqual(ok, { ok: true, output: { value: '100000000000000000', unit: 'wei', integer: true, hex: '0x16345785d8a0000' } });
  const bad = await skill.call({ value: 'abc', from: 'ether', to: 'wei' }, ctx);
  assert.equal(bad.ok, false);
  assert.match(bad.error ?? '', /not a number/);
});

test('the WASM detector loads', () => {
  const status = kernel.registry.plugins().find((p) => p.id === 'detector-wasm-tx-origin');
  assert.equal(status?.status, 'loaded', status?.error ?? '');
  assert.ok(kernel.registry.wasmInstance('detector-wasm-tx-origin'));
});
