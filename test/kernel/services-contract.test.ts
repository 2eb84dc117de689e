// The kernel's service contract: manifests declare provides/requires; the loader orders plugins by
// them, names a missing provider or a cycle, and refuses undeclared lookups and provides.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { bootKernel, tempDir } from '../helpers.ts';
import type { Kernel } from '../../kernel/kernel.ts';

const KERNEL = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../kernel/index.ts');
const root = tempDir('vigil-contract-');
let k: Kernel;
const order: string[] = [];

function plugin(id: string, manifest: Record<string, unknown>, body: string) {
  const dir = path.join(root, id);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'plugin.json'),
    JSON.stringify({ id, kind: 'service', version: '1.0.0', runtime: 'ts', entry: 'index.ts', ...manifest }),
  );
  fs.writeFileSync(
    path.join(dir, 'index.ts'),
    `import { definePlugin } from ${JSON.stringify(KERNEL)};\n` +
      `export default definePlugin({ setup(ctx) { (globalThis as any).__order.push(ctx.id); ${body} } });\n`,
  );
}

before(async () => {
  (globalThis as any).__order = order;
  // "a-needs" sorts before its provider: only the declared requires put the provider first.
  plugin('a-needs', { requires: ['svc-z'] }, "if (ctx.services.get('svc-z') !== 42) throw new Error('svc-z not set up first');");
  plugin('z-provider', { provides: ['svc-z'] }, "ctx.provide('svc-z', 42);");
  plugin(
    'b-optional',
    { requires_optional: ['svc-z', 'svc-absent'] },
    "ctx.provide; if (ctx.services.get('svc-absent') !== undefined) throw new Error('absent');",
  );
  plugin('c-missing', { requires: ['svc-nobody'] }, '');
  plugin('d-cycle-one', { provides: ['svc-one'], requires_optional: ['svc-two'] }, "ctx.provide('svc-one', 1);");
  plugin('e-cycle-two', { provides: ['svc-two'], requires: ['svc-one'] }, "ctx.provide('svc-two', 2);");
  plugin('f-undeclared', {}, "ctx.services.get('svc-z');");
  plugin('g-lazy-early', { requires_lazy: ['svc-z'] }, "ctx.services.get('svc-z');");
  plugin(
    'h-lazy-late',
    { requires_lazy: ['svc-late'], provides: ['seen-late'] },
    "const seen = { v: 0 }; ctx.provide('seen-late', seen); ctx.onStart(() => { seen.v = ctx.services.get<number>('svc-late') ?? -1; });",
  );
  plugin('i-late-provider', { provides: ['svc-late'] }, "ctx.provide('svc-late', 7);");
  plugin('j-provides-undeclared', {}, "ctx.provide('svc-sneaky', 1);");
  plugin('k-forgets', { provides: ['svc-forgotten'] }, '');
  plugin('l-second-provider', { provides: ['svc-dup'] }, "ctx.provide('svc-dup', 0);");
  plugin('m-second-provider', { provides: ['svc-dup'] }, "ctx.provide('svc-dup', 1);");
  k = await bootKernel({ kernel: { pluginRoots: [root], headless: true } });
});
after(async () => {
  await k?.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

const status = (id: string) => k.registry.plugins().find((p) => p.id === id)!;

test('a required service is set up first, whatever the alphabetical order', () => {
  assert.equal(status('a-needs').status, 'loaded', status('a-needs').error ?? '');
  assert.ok(order.indexOf('z-provider') < order.indexOf('a-needs'));
});

test('optional services order their provider first and may be absent', () => {
  assert.equal(status('b-optional').status, 'loaded', status('b-optional').error ?? '');
  assert.ok(order.indexOf('z-provider') < order.indexOf('b-optional'));
});

test('a missing provider fails the plugin, naming the service', () => {
  assert.equal(status('c-missing').status, 'error');
  assert.match(status('c-missing').error!, /requires service "svc-nobody", which no plugin provides/);
});

test('a cycle is reported with the plugins and services on it', () => {
  const errs = ['d-cycle-one', 'e-cycle-two'].map((id) => status(id).error ?? '').join('\n');
  assert.match(
    errs,
    /dependency cycle: .*d-cycle-one .*service "svc-two".*e-cycle-two .*service "svc-one".*d-cycle-one|dependency cycle: .*e-cycle-two .*service "svc-one".*d-cycle-one .*service "svc-two".*e-cycle-two/,
  );
});

test('looking up an undeclared service is an error', () => {
  assert.equal(status('f-undeclared').status, 'error');
  assert.match(status('f-undeclared').error!, /services.get\("svc-z"\) is not declared in its plugin.json/);
});

test('a lazy service cannot be looked up during setup, and resolves after', () => {
  assert.match(status('g-lazy-early').error!, /requires_lazy, so it can be looked up only after every plugin is set up/);
  assert.equal(status('h-lazy-late').status, 'loaded');
  assert.deepEqual(k.services.get('seen-late'), { v: 7 });
});

test('provides is the whole truth: no undeclared provide, no declared service left out, one provider per service', () => {
  assert.match(status('j-provides-undeclared').error!, /provide\("svc-sneaky"\) is not declared/);
  assert.match(status('k-forgets').error!, /provides "svc-forgotten" but setup did not provide it/);
  for (const id of ['l-second-provider', 'm-second-provider'])
    assert.match(status(id).error!, /service "svc-dup" is provided by more than one plugin \(l-second-provider, m-second-provider\)/);
  assert.equal(k.services.get('svc-dup'), undefined);
});
