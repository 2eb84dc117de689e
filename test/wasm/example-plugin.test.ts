// The example WASM plugin, used the way its README says: copied to a folder named after a new
// id, built with buildPlugin (which records wasm.sha256), accepted by the kernel's manifest
// validation, then loaded with that hash and run on its fixture through the real node protocol.
// Also covers buildPlugin's errors.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { validateManifest } from '../../kernel/manifest.ts';
import { BuildError, buildPlugin, findWasmPluginDirs, REPO_ROOT, stopCompiler } from '../../kernel/wasm/build.ts';
import { ExtismWasmHost, type WasmInstance } from '../../kernel/wasm/host.ts';
import { analyzeSource } from '../../lib/analysis/static/engine.ts';
import { FIXTURE_OUT } from './helpers.ts';

const work = path.join(FIXTURE_OUT, `example-${process.pid}`);
const dir = path.join(work, 'detector-wasm-timestamp');
const host = new ExtismWasmHost();
let manifest: any;

before(async () => {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  cpSync(path.join(REPO_ROOT, 'examples', 'wasm-plugin'), dir, { recursive: true, filter: (src) => !src.endsWith('.wasm') });
  const m = JSON.parse(readFileSync(path.join(dir, 'plugin.json'), 'utf8'));
  m.id = 'detector-wasm-timestamp';
  delete m.wasm.sha256;
  writeFileSync(path.join(dir, 'plugin.json'), JSON.stringify(m, null, 2));
});
after(async () => {
  await host.closeAll();
  await stopCompiler();
  rmSync(work, { recursive: true, force: true });
});

async function load(config: Record<string, string> = {}): Promise<WasmInstance> {
  return host.load({
    id: manifest.id,
    wasmPath: path.join(dir, manifest.entry),
    sha256: manifest.wasm.sha256,
    permissions: manifest.permissions,
    config,
    timeoutMs: manifest.wasm.timeout_ms,
    maxMemoryPages: manifest.wasm.max_memory_pages,
  });
}

async function detect(inst: WasmInstance, source: string) {
  const r = await analyzeSource(source, 'c.sol', [], { collectNodes: [{ id: manifest.id, types: manifest.detector.node_types }] });
  const input = r.wasmInputs[manifest.id];
  const out = await inst.callJson<{ findings: Array<{ messageId: string; nodeRef: number; data: Record<string, string> }> }>('detect', input);
  const byRef = new Map(input.nodes.map((n) => [n.ref, n]));
  return out.findings.map((f) => ({ ...f, line: byRef.get(f.nodeRef)!.line }));
}

test('a renamed copy builds, records its sha256 and passes manifest validation', async () => {
  assert.deepEqual(await findWasmPluginDirs([work]), [dir]);
  const r = await buildPlugin(dir);
  assert.equal(r.id, 'detector-wasm-timestamp');
  assert.equal(r.manifestUpdated, true);
  assert.ok(existsSync(r.wasmPath));
  manifest = JSON.parse(readFileSync(path.join(dir, 'plugin.json'), 'utf8'));
  assert.equal(manifest.wasm.sha256, r.sha256);
  assert.equal(manifest.wasm.timeout_ms, 5000, 'other wasm settings are kept');
  const v = validateManifest(manifest, path.basename(dir));
  assert.ok(v.ok, JSON.stringify(!v.ok && v.problems));
  // A rebuild of unchanged sources gives the same module and leaves plugin.json alone.
  const again = await buildPlugin(dir);
  assert.equal(again.sha256, r.sha256);
  assert.equal(again.manifestUpdated, false);
});

test('the built example flags exactly the expect-marked fixture lines', async () => {
  const inst = await load({ legacy_now: 'true' });
  const source = readFileSync(path.join(dir, 'fixtures', 'timestamp.sol'), 'utf8');
  const expected: string[] = [];
  source.split('\n').forEach((l, i) => {
    const m = /\/\/ expect: (\w+)/.exec(l);
    if (m) expected.push(`${i + 1}:${m[1]}`);
  });
  const got = (await detect(inst, source)).map((f) => `${f.line}:${f.messageId}`);
  assert.deepEqual(got.sort(), expected.sort());
  const found = await detect(inst, source);
  assert.deepEqual(found.find((f) => f.messageId === 'modulo')!.data, { expr: 'block.timestamp', divisor: '7' });
  await inst.close();
});

test('config reaches the guest: legacy_now switches the `now` rule', async () => {
  const src = 'pragma solidity ^0.6.0; contract C { function f(uint t) public view returns (bool) { return now == t; } }';
  const on = await load({ legacy_now: 'true' });
  assert.deepEqual((await detect(on, src)).map((f) => f.data.expr), ['now']);
  const off = await load({ legacy_now: 'false' });
  assert.deepEqual(await detect(off, src), []);
  await Promise.all([on.close(), off.close()]);
});

test('buildPlugin explains what is wrong', async () => {
  const bad = path.join(work, 'broken');
  mkdirSync(path.join(bad, 'assembly'), { recursive: true });
  const write = (m: object, src?: string) => {
    writeFileSync(path.join(bad, 'plugin.json'), JSON.stringify(m));
    if (src !== undefined) writeFileSync(path.join(bad, 'assembly', 'index.ts'), src);
  };
  const base = { id: 'broken', kind: 'detector', version: '1.0.0', runtime: 'wasm', entry: 'plugin.wasm', detector: { export: 'detect' } };
  write({ ...base, runtime: 'ts', entry: 'index.ts' }, 'export function detect(): i32 { return 0; }');
  await assert.rejects(buildPlugin(bad), (e: Error) => e instanceof BuildError && /runtime is "ts"/.test(e.message));
  write({ ...base, entry: '../escape.wasm' });
  await assert.rejects(buildPlugin(bad), /inside the plugin folder/);
  write(base, 'export function detect(): i32 { return undefinedThing; }');
  await assert.rejects(buildPlugin(bad), /compilation failed[\s\S]*undefinedThing/);
  write(base, 'export function detect(): i32 { return 0; }');
  await assert.rejects(buildPlugin(bad), /must import the PDK/);
  write(base, 'import { writeOutputString } from "pdk";\nexport function other(): i32 { writeOutputString("{}"); return 0; }');
  await assert.rejects(buildPlugin(bad), /does not export "detect"/);
  rmSync(path.join(bad, 'assembly'), { recursive: true });
  await assert.rejects(buildPlugin(bad), /no assembly\/index\.ts/);
  await assert.rejects(buildPlugin(path.join(work, 'nowhere')), /no plugin\.json/);
});
