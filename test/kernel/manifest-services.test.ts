// Every manifest's provides/requires must match the plugin's code: what it passes to ctx.provide
// and what it (or the lib/ code it imports) looks up with services.get. The kernel enforces the
// same at run time, but only on the paths a test happens to run; this holds every path.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { scanPlugin } from './service-scan.ts';
import { discoverPlugins, orderByDependencies } from '../../kernel/loader.ts';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const roots = [path.join(ROOT, 'plugins')];
const found = discoverPlugins(roots).filter((d) => d.manifest?.runtime === 'ts');

test('every plugin manifest declares provides and requires', () => {
  for (const d of discoverPlugins(roots)) {
    assert.ok(d.manifest, `${d.folder}: ${d.error}`);
    assert.ok(Array.isArray(d.manifest.provides), `${d.folder}: plugin.json has no "provides"`);
    assert.ok(Array.isArray(d.manifest.requires), `${d.folder}: plugin.json has no "requires"`);
  }
});

for (const d of found) {
  test(`${d.folder}: provides and requires match the code`, () => {
    const m = d.manifest!;
    const use = scanPlugin(d.dir);
    const sorted = (x: Iterable<string>) => [...new Set(x)].sort();
    assert.deepEqual(
      sorted(m.provides ?? []),
      sorted(use.provides),
      `${d.folder}: "provides" vs ctx.provide(...) in ${use.files.join(', ')}`,
    );
    const declared = [...(m.requires ?? []), ...(m.requires_optional ?? []), ...(m.requires_lazy ?? [])];
    const looked = [...use.gets].filter((s) => !(m.provides ?? []).includes(s));
    assert.deepEqual(
      sorted(declared),
      sorted(looked),
      `${d.folder}: requires + requires_optional + requires_lazy vs services.get(...) in ${use.files.join(', ')}`,
    );
  });
}

test('the shipped plugins order without a missing provider or a cycle', () => {
  const { failed } = orderByDependencies(discoverPlugins(roots));
  assert.deepEqual(
    failed.map((f) => `${f.d.manifest?.id}: ${f.error}`),
    [],
  );
});

test('disabling a provider together with the plugins that require it leaves them disabled, not in error', () => {
  // Disabling every guardrail (BENCH_GUARDRAILS=none, or an operator turning layers off) must not
  // turn a guardrail whose provider is also off into a failed security plugin (503 everywhere).
  const off = new Set(['guardrail-prompt-injection', 'guardrail-encoded-exfiltration']);
  const { failed, ordered } = orderByDependencies(discoverPlugins(roots), (m) => off.has(m.id));
  assert.deepEqual(
    failed.map((f) => `${f.d.manifest?.id}: ${f.error}`),
    [],
  );
  assert.ok(ordered.some((d) => d.manifest?.id === 'guardrail-encoded-exfiltration'));
  // Disabling only the provider still fails the plugin that needs it, naming the provider.
  const only = orderByDependencies(discoverPlugins(roots), (m) => m.id === 'guardrail-prompt-injection');
  assert.match(
    only.failed.map((f) => `${f.d.manifest?.id}: ${f.error}`).join('\n'),
    /guardrail-encoded-exfiltration: requires service "injection-rules", whose provider "guardrail-prompt-injection" is disabled/,
  );
});

test('the scan sees lookups in lib code a plugin imports, and skips type-only imports', () => {
  const dir = fs.mkdtempSync(path.join(ROOT, 'plugins', '.scan-'));
  try {
    fs.writeFileSync(
      path.join(dir, 'index.ts'),
      [
        "import type { X } from '../../lib/services.ts';",
        "import { knownTenants } from '../../lib/gateway/governance/records.ts';",
        "// services.get('in-a-comment')",
        "export const f = (ctx: any) => [ctx.services.get<{ a: Array<number> }>('one'), ctx.services\n  .get('two'), ctx.provide('three', 1), knownTenants];",
        "export const g = (app: any, m: Map<string, number>) => [app.get('/route'), m.get('key')];",
      ].join('\n'),
    );
    const use = scanPlugin(dir);
    assert.deepEqual([...use.gets].sort(), ['one', 'tenant-directory', 'two']);
    assert.deepEqual([...use.provides], ['three']);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
