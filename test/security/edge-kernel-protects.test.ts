// The general rule behind fail-closed (issue 14 item 4): any plugin whose manifest declares
// `protects` and that fails — at any step, even after loading — closes exactly the routes it
// declared, on the surfaces it named, with 503 naming it. Plugins are written to a temp folder.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { bootKernel } from '../helpers.ts';
import { tempDir } from './edge-helpers.ts';

function plugin(root: string, id: string, manifest: Record<string, unknown>, code: string) {
  const dir = path.join(root, id);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'plugin.json'),
    JSON.stringify({ id, kind: 'service', version: '1.0.0', runtime: 'ts', entry: 'index.ts', ...manifest }),
  );
  fs.writeFileSync(path.join(dir, 'index.ts'), code);
}

const ROUTES = `export default { setup(ctx) {
  for (const s of ['gateway', 'api']) ctx.registerRoutes(s, async (app) => {
    for (const p of ['/guarded/a', '/guarded/open', '/elsewhere']) app.get(p, async () => ({ ok: true }));
  });
} };`;

test('setup, config, manifest and start-hook failures all close the declared routes; others stay served', async () => {
  const root = tempDir('vigil-edge-plugins-');
  plugin(root, 'routes', { kind: 'routes' }, ROUTES);
  const guard = { protects: [{ surface: 'both', paths: ['/guarded'], except: ['/guarded/open'] }] };
  plugin(root, 'throws-in-setup', guard, `export default { setup() { throw new Error('boom'); } };`);
  plugin(root, 'bad-config', { ...guard, config: { properties: { n: { type: 'integer' } } } }, `export default { setup() {} };`);
  plugin(
    root,
    'fails-on-start',
    { protects: [{ surface: 'api', paths: ['/elsewhere'] }] },
    `export default { setup(ctx) { ctx.onStart(() => { throw new Error('late'); }); } };`,
  );
  plugin(
    root,
    'bad-manifest',
    { version: 'one', protects: [{ surface: 'gateway', paths: ['/elsewhere'] }] },
    `export default { setup() {} };`,
  );
  plugin(root, 'loads-fine', { protects: [{ surface: 'gateway', paths: ['/'] }] }, `export default { setup() {} };`);

  const k = await bootKernel({
    settings: { env: {}, dataDir: tempDir(), config: null, overrides: { plugins: { 'bad-config': { n: 'x' } } } },
    kernel: { pluginRoots: [root], poolThreads: 1 },
  });
  try {
    const get = (s: 'gateway' | 'api', url: string) => k[s].inject({ method: 'GET', url });
    for (const s of ['gateway', 'api'] as const) {
      const r = await get(s, '/guarded/a');
      assert.equal(r.statusCode, 503, `${s}: ${r.body}`);
      assert.deepEqual([...r.json().details.plugins].sort(), ['bad-config', 'throws-in-setup']);
      assert.match(r.json().error, /throws-in-setup \(setup threw: boom\)/);
      assert.match(r.json().error, /bad-config \(invalid config/);
      assert.equal((await get(s, '/guarded/open')).statusCode, 200, `${s}: the exception stays served`);
    }
    // A start hook that fails marks the plugin failed after loading: its route closes too.
    assert.equal((await get('api', '/elsewhere')).statusCode, 503);
    assert.match((await get('api', '/elsewhere')).json().error, /fails-on-start/);
    // An invalid manifest still closes what it declared (a typo must not open a door).
    assert.equal((await get('gateway', '/elsewhere')).statusCode, 503);
    assert.match((await get('gateway', '/elsewhere')).json().error, /bad-manifest/);
    // A security plugin that loaded guards nothing by its mere declaration.
    assert.equal(k.registry.statuses.get('loads-fine')?.status, 'loaded');
  } finally {
    await k.stop();
  }
});
