import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bootKernel } from '../helpers.ts';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'plugins');

test('shutdown drains in-flight requests, then cuts connections that never finish', async () => {
  process.env.VIGIL_SHUTDOWN_GRACE_MS = '400';
  process.env.VIGIL_PLUGIN_SETUP_TIMEOUT_MS = '300'; // the fixtures include a setup that never ends
  try {
    const k = await bootKernel({ kernel: { pluginRoots: [fixtures] } });
    const { gateway } = await k.listen();
    // An in-flight request started before stop() completes with its answer.
    const inflight = fetch(`${gateway}/fixture/slow`).then((r) => r.json());
    await new Promise((r) => setTimeout(r, 100));
    // A client that connects and never sends a request must not hold shutdown hostage.
    const idle = net.connect(Number(new URL(gateway).port), '127.0.0.1');
    await new Promise((r) => idle.once('connect', r));
    const t0 = Date.now();
    const stopping = k.stop();
    setTimeout(() => (globalThis as any).__releaseSlow(), 150);
    assert.deepEqual(await inflight, { done: true });
    await stopping;
    assert.ok(Date.now() - t0 < 5000, 'stopped after the grace period, not never');
    assert.equal(k.lifecycle.filter((s) => s.startsWith('stop:'))[0], 'stop:http');
    idle.destroy();
  } finally {
    delete process.env.VIGIL_SHUTDOWN_GRACE_MS;
    delete process.env.VIGIL_PLUGIN_SETUP_TIMEOUT_MS;
  }
});
