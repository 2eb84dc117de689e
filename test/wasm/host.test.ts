// ExtismWasmHost against the adversarial guest (wasm/fixtures/adversary.ts, built by this test):
// every misbehaviour fails with the right WasmPluginError code inside the time limit, the
// instance is rebuilt only when it must be, other instances never notice, calls are queued,
// and a guest gets no host access its manifest does not grant.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { stopCompiler } from '../../kernel/wasm/build.ts';
import { ExtismWasmHost, WasmPluginError, type WasmInstance } from '../../kernel/wasm/host.ts';
import { capModuleMemory } from '../../kernel/wasm/module-limits.ts';
import { buildFixture, FIXTURE_OUT, rawModule } from './helpers.ts';

let wasmPath: string;
const logs: Array<{ level: string; plugin: string; msg: string }> = [];
const logger = Object.fromEntries(
  ['debug', 'info', 'warn', 'error'].map((level) => [level, (obj: { plugin: string }, msg: string) => logs.push({ level, plugin: obj.plugin, msg })]),
) as any;
const host = new ExtismWasmHost({ logger });

before(async () => {
  wasmPath = await buildFixture('wasm/fixtures/adversary.ts');
});
after(async () => {
  await host.closeAll();
  await stopCompiler();
});

function load(extra: Partial<Parameters<ExtismWasmHost['load']>[0]> = {}): Promise<WasmInstance> {
  return host.load({ id: 'adversary', wasmPath, permissions: [], timeoutMs: 2000, maxMemoryPages: 128, ...extra });
}

async function count(inst: WasmInstance): Promise<number> {
  return (await inst.callJson<{ count: number }>('count', {})).count;
}

/** Asserts the promise rejects with a WasmPluginError of `code`; returns it and the elapsed ms. */
async function rejectsWith(p: Promise<unknown>, code: string, message?: RegExp): Promise<{ err: WasmPluginError; ms: number }> {
  const t = performance.now();
  try {
    await p;
  } catch (e) {
    const ms = performance.now() - t;
    assert.ok(e instanceof WasmPluginError, `expected WasmPluginError, got ${String(e)}`);
    assert.equal(e.code, code, e.message);
    assert.equal(e.pluginId, 'adversary');
    if (message) assert.match(e.message, message);
    return { err: e, ms };
  }
  assert.fail(`expected ${code}, but the call succeeded`);
}

describe('adversarial guests', () => {
  test('infinite loop: wasm_timeout at the limit, then the instance is rebuilt', async () => {
    const inst = await load({ timeoutMs: 400 });
    assert.equal(await count(inst), 1);
    const { ms } = await rejectsWith(inst.call('spin', ''), 'wasm_timeout', /exceeded 400 ms/);
    assert.ok(ms >= 390 && ms < 2500, `timed out after ${ms} ms`);
    assert.equal(inst.restarts, 0, 'rebuilt lazily, on the next call');
    assert.equal(await count(inst), 1, 'fresh instance: module state starts over');
    assert.equal(inst.restarts, 1);
    // A per-call limit can shorten the instance's, never extend it.
    await rejectsWith(inst.call('spin', '', { timeoutMs: 150 }), 'wasm_timeout', /exceeded 150 ms/);
    await rejectsWith(inst.call('spin', '', { timeoutMs: 60_000 }), 'wasm_timeout', /exceeded 400 ms/);
    await inst.close();
  });

  test('allocation bomb: wasm_memory well before the time limit, then rebuilt', async () => {
    const inst = await load({ maxMemoryPages: 64, timeoutMs: 5000 });
    const { ms, err } = await rejectsWith(inst.call('bomb', ''), 'wasm_memory', /memory cap of 64 pages/);
    assert.ok(ms < 5000, `took ${ms} ms`);
    assert.ok(!/timeout/.test(err.message));
    assert.equal(await count(inst), 1);
    assert.equal(inst.restarts, 1);
    await inst.close();
  });

  test('host-side allocation bomb (Extism alloc) is capped too', async () => {
    const inst = await load({ maxMemoryPages: 32 });
    await rejectsWith(inst.call('host_bomb', ''), 'wasm_memory', /host memory/);
    assert.equal(await count(inst), 1);
    await inst.close();
  });

  test('bad JSON and non-UTF-8 output: wasm_bad_output, instance kept', async () => {
    const inst = await load();
    assert.equal(await count(inst), 1);
    await rejectsWith(inst.callJson('bad_json', {}), 'wasm_bad_output', /invalid JSON.*this is not json/);
    await rejectsWith(inst.callJson('bad_utf8', {}), 'wasm_bad_output', /not UTF-8/);
    // Raw call() still returns the bytes: only the JSON layer objects.
    assert.equal(new TextDecoder().decode(await inst.call('bad_json', '')), '{this is not json');
    assert.equal(await count(inst), 2, 'same instance, state kept');
    assert.equal(inst.restarts, 0);
    await inst.close();
  });

  test('missing export: wasm_missing_export without touching the instance', async () => {
    const inst = await load();
    assert.equal(await inst.functionExists('count'), true);
    assert.equal(await inst.functionExists('nope'), false);
    assert.equal(await inst.functionExists('memory'), false, 'exports that are not functions do not count');
    await rejectsWith(inst.call('nope', ''), 'wasm_missing_export', /"nope"/);
    await rejectsWith(inst.callJson('memory', {}), 'wasm_missing_export');
    assert.equal(await count(inst), 1);
    assert.equal(inst.restarts, 0);
    await inst.close();
  });

  test('error_set: wasm_guest_error with the guest message, instance kept', async () => {
    const inst = await load();
    assert.equal(await count(inst), 1);
    await rejectsWith(inst.call('fail', ''), 'wasm_guest_error', /deliberate failure from the guest/);
    assert.equal(await count(inst), 2);
    assert.equal(inst.restarts, 0);
    await inst.close();
  });

  test('traps (abort, unreachable, stack overflow): wasm_trap, rebuilt each time', async () => {
    const inst = await load();
    assert.equal(await count(inst), 1);
    await rejectsWith(inst.call('trap', ''), 'wasm_trap', /Index out of range/);
    assert.equal(await count(inst), 1);
    await rejectsWith(inst.call('trap_raw', ''), 'wasm_trap', /unreachable/);
    await rejectsWith(inst.call('deep', ''), 'wasm_trap', /call stack/i);
    assert.equal(await count(inst), 1);
    assert.equal(inst.restarts, 3);
    // The abort message was also logged by the guest.
    assert.ok(logs.some((l) => l.level === 'error' && l.plugin === 'adversary' && /Index out of range/.test(l.msg)));
    await inst.close();
  });

  test('other instances are unaffected while one spins and is killed', async () => {
    const a = await load({ timeoutMs: 3000 });
    const b = await load({ timeoutMs: 3000 });
    assert.equal(await count(b), 1);
    let aSettled = false;
    const spinning = rejectsWith(a.call('spin', ''), 'wasm_timeout').finally(() => {
      aSettled = true;
    });
    // b answers while a is stuck (each instance has its own thread).
    for (let i = 2; i <= 4; i++) assert.equal(await count(b), i);
    assert.equal(aSettled, false, 'b answered three calls while a was still spinning');
    await spinning;
    assert.equal(await count(b), 5, 'b kept its state');
    assert.equal(b.restarts, 0);
    assert.equal(await count(a), 1);
    await Promise.all([a.close(), b.close()]);
  });
});

describe('queueing, cancellation, lifecycle', () => {
  test('concurrent calls to one instance are serialized and all answered', async () => {
    const inst = await load({ timeoutMs: 10_000 });
    const results = await Promise.all(Array.from({ length: 12 }, () => inst.callJson<{ count: number }>('work', { spins: 200_000 })));
    // One at a time, in submission order: the module-global counter proves no call overlapped.
    assert.deepEqual(results.map((r) => r.count), Array.from({ length: 12 }, (_, i) => i + 1));
    // A failing call in the middle of the queue does not disturb the others.
    const mixed = await Promise.allSettled([count(inst), inst.call('fail', ''), count(inst), inst.call('nope', ''), count(inst)]);
    assert.deepEqual(mixed.map((r) => r.status), ['fulfilled', 'rejected', 'fulfilled', 'rejected', 'fulfilled']);
    assert.deepEqual([mixed[0], mixed[2], mixed[4]].map((r) => (r as PromiseFulfilledResult<number>).value), [13, 14, 15]);
    await inst.close();
  });

  test('a timeout in the queue does not fail the calls behind it', async () => {
    const inst = await load({ timeoutMs: 300 });
    const [spin, after1, after2] = await Promise.allSettled([inst.call('spin', ''), count(inst), count(inst)]);
    assert.equal(spin.status, 'rejected');
    assert.equal((spin).reason.code, 'wasm_timeout');
    assert.deepEqual([after1, after2].map((r) => (r as PromiseFulfilledResult<number>).value), [1, 2]);
    assert.equal(inst.restarts, 1);
    await inst.close();
  });

  test('AbortSignal cancels a running call (instance rebuilt) and a queued one (skipped)', async () => {
    const inst = await load({ timeoutMs: 10_000 });
    const ctrl = new AbortController();
    const running = inst.call('spin', '', { signal: ctrl.signal });
    const queuedCtrl = new AbortController();
    const queued = inst.call('count', '', { signal: queuedCtrl.signal });
    queuedCtrl.abort();
    await rejectsWith(queued, 'wasm_aborted', /while queued/);
    setTimeout(() => ctrl.abort(), 100);
    const { ms } = await rejectsWith(running, 'wasm_aborted');
    assert.ok(ms < 2000);
    assert.equal(await count(inst), 1);
    const pre = new AbortController();
    pre.abort();
    await rejectsWith(inst.call('count', '', { signal: pre.signal }), 'wasm_aborted', /before it started/);
    await inst.close();
  });

  test('config, variables and logging reach the guest; close() ends the instance', async () => {
    const inst = await load({ config: { region: 'eu', empty: '', toString: 'x' } });
    assert.deepEqual(await inst.callJson('config', { key: 'region' }), { value: 'eu' });
    assert.deepEqual(await inst.callJson('config', { key: 'missing' }), { value: null });
    assert.deepEqual(await inst.callJson('config', { key: 'empty' }), { value: '' });
    assert.deepEqual(await inst.callJson('config', { key: 'constructor' }), { value: null }, 'no prototype keys');
    assert.deepEqual(await inst.callJson('remember', 'ab'), { memo: '"ab"' });
    assert.deepEqual(await inst.callJson('remember', 'cd'), { memo: '"ab""cd"' });
    assert.ok(logs.some((l) => l.level === 'info' && /memo is now 8 chars/.test(l.msg)));
    await inst.close();
    await rejectsWith(inst.call('count', ''), 'wasm_aborted', /closed/);
  });
});

describe('loading', () => {
  test('sha256 is checked', async () => {
    const good = createHash('sha256').update(readFileSync(wasmPath)).digest('hex');
    const inst = await load({ sha256: good });
    assert.equal(await count(inst), 1);
    await inst.close();
    await rejectsWith(load({ sha256: 'a'.repeat(64) }), 'wasm_load_failed', /sha256 mismatch.*expects a{64}, file has [0-9a-f]{64}/);
  });

  test('missing, garbage and non-Extism modules fail with clear reasons', async () => {
    mkdirSync(FIXTURE_OUT, { recursive: true });
    const write = (name: string, bytes: Uint8Array) => {
      const p = path.join(FIXTURE_OUT, name);
      writeFileSync(p, bytes);
      return p;
    };
    await rejectsWith(load({ wasmPath: path.join(FIXTURE_OUT, 'does-not-exist.wasm') }), 'wasm_load_failed', /ENOENT.*vigil plugin build/);
    await rejectsWith(load({ wasmPath: write('garbage.wasm', new TextEncoder().encode('not wasm at all')) }), 'wasm_load_failed', /bad magic/);
    await rejectsWith(load({ wasmPath: write('wasi.wasm', rawModule({ importFn: ['wasi_snapshot_preview1', 'fd_write'] })) }), 'wasm_load_failed', /wasi_snapshot_preview1\.fd_write.*no WASI/);
    await rejectsWith(load({ wasmPath: write('abort.wasm', rawModule({ importFn: ['env', 'abort'] })) }), 'wasm_load_failed', /--use abort=/);
    await rejectsWith(load({ wasmPath: write('big.wasm', rawModule({ memory: { min: 300 } })), maxMemoryPages: 256 }), 'wasm_memory', /300 initial memory pages/);
    // A start function that never returns cannot hang load().
    const quickHost = new ExtismWasmHost({ startupGraceMs: 1000 });
    const { ms } = await rejectsWith(
      quickHost.load({ id: 'adversary', wasmPath: write('loop-start.wasm', rawModule({ loopingStart: true })), permissions: [], timeoutMs: 300 }),
      'wasm_timeout',
      /did not start within 1300 ms/,
    );
    assert.ok(ms < 4000, `load gave up after ${ms} ms`);
    await quickHost.closeAll();
    // A minimal valid module with unbounded memory loads; the cap is written into it.
    const inst = await load({ wasmPath: write('plain.wasm', rawModule({ memory: { min: 1 } })) });
    assert.equal((await inst.call('run', '')).length, 0);
    await inst.close();
  });

  test('the memory cap is written into the module', () => {
    const capped = capModuleMemory(rawModule({ memory: { min: 2 } }), 100);
    assert.deepEqual(capped.memories, [{ initialPages: 2, declaredMaxPages: null, maxPages: 100 }]);
    assert.ok(WebAssembly.validate(capped.bytes), 'the rewritten module is still valid');
    // Re-reading the rewritten module finds the cap as its declared maximum.
    assert.deepEqual(capModuleMemory(capped.bytes, 65536).memories, [{ initialPages: 2, declaredMaxPages: 100, maxPages: 100 }]);
    const lower = capModuleMemory(rawModule({ memory: { min: 1, max: 10 } }), 100);
    assert.equal(lower.memories[0].maxPages, 10, 'a lower declared maximum is kept');
    assert.deepEqual(capModuleMemory(rawModule({}), 100).memories, []);
  });
});

describe('network permission', () => {
  let server: http.Server;
  let port = 0;
  let hits = 0;
  before(async () => {
    server = http.createServer((_req, res) => {
      hits++;
      res.end('hello from the host side');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  test('without the network permission a guest cannot make HTTP calls', async () => {
    const inst = await load({ allowedHosts: ['127.0.0.1'] });
    await rejectsWith(inst.callJson('http_get', { url: `http://127.0.0.1:${port}/` }), 'wasm_permission_denied', /"network" permission/);
    assert.equal(hits, 0, 'no request left the host');
    assert.equal(await count(inst), 1, 'the refused call rebuilt the instance');
    await inst.close();
  });

  test('with network but a host outside allowed_hosts: refused', async () => {
    const inst = await load({ permissions: ['network'], allowedHosts: ['example.com'] });
    await rejectsWith(inst.callJson('http_get', { url: `http://127.0.0.1:${port}/` }), 'wasm_permission_denied', /allowed_hosts/);
    assert.equal(hits, 0);
    await inst.close();
  });

  test('with network and an allowed host: the request is made', async () => {
    const inst = await load({ permissions: ['network'], allowedHosts: ['127.0.0.1'] });
    const res = await inst.callJson<{ status: number; body: string }>('http_get', { url: `http://127.0.0.1:${port}/x` });
    assert.deepEqual(res, { status: 200, body: 'hello from the host side' });
    assert.equal(hits, 1);
    // Unreachable server: the guest sees status 0 rather than a crash.
    const down = await inst.callJson<{ status: number }>('http_get', { url: 'http://127.0.0.1:1/' });
    assert.equal(down.status, 0);
    await inst.close();
  });
});
