// `vigil tenants ...` through the real CLI entry point, against a gateway on the same data dir.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { main } from '../../kernel/cli.ts';
import { boot, fakeIo, tempDir } from './helpers.ts';

async function cli(args: string[]) {
  const f = fakeIo();
  const code = await main(['node', 'vigil', ...args], f.io);
  return { code, out: f.out(), err: f.err() };
}

test('tenants add/list/rotate-key/remove: keys shown once, stored hashed, old key stops working', async () => {
  const dataDir = tempDir();
  const add = await cli([
    'tenants',
    'add',
    'acme',
    '--rate-limit',
    '100/min',
    '--token-quota-per-day',
    '5000',
    '--max-concurrent-sessions',
    '2',
    '--permissions',
    'file_read,web_fetch',
    '--data-dir',
    dataDir,
  ]);
  assert.equal(add.code, 0, add.err);
  const created = JSON.parse(add.out);
  assert.equal(created.tenant.name, 'acme');
  assert.match(created.api_key, /^vgl_[A-Za-z0-9_-]{43}$/);
  assert.equal(created.tenant.rate_limit, '100/min');
  assert.equal(created.tenant.token_quota_per_day, 5000);
  assert.deepEqual(created.tenant.permissions, ['file_read', 'web_fetch']);
  assert.ok(created.api_key.startsWith(created.tenant.key_prefix));

  const list = await cli(['tenants', 'list', '--data-dir', dataDir]);
  assert.equal(list.code, 0);
  assert.equal(JSON.parse(list.out).tenants.length, 1);
  assert.ok(!list.out.includes(created.api_key), 'list never prints a key');
  assert.ok(!list.out.includes('key_hash'), 'list never prints the hash');

  const dup = await cli(['tenants', 'add', 'acme', '--data-dir', dataDir]);
  assert.equal(dup.code, 2);
  assert.match(dup.err, /already exists/);
  const bad = await cli(['tenants', 'add', 'beta', '--permissions', 'root', '--data-dir', dataDir]);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /unknown permission "root"; must be one of .*approvals_decide/);
  const badRate = await cli(['tenants', 'add', 'beta', '--rate-limit', 'lots', '--data-dir', dataDir]);
  assert.equal(badRate.code, 2);

  const b = await boot({ dataDir });
  try {
    const me = await b.req('GET', '/api/v1/tenants/me', { key: created.api_key });
    assert.equal(me.status, 200);
    assert.equal(me.json.tenant, 'acme');
    assert.equal(me.json.mode, 'multi-tenant');

    // Rotation while the gateway runs: the new key works and the old one is refused at once.
    const rot = await cli(['tenants', 'rotate-key', 'acme', '--data-dir', dataDir]);
    assert.equal(rot.code, 0, rot.err);
    const newKey = JSON.parse(rot.out).api_key;
    assert.notEqual(newKey, created.api_key);
    assert.equal((await b.req('GET', '/api/v1/tenants/me', { key: created.api_key })).status, 401);
    assert.equal((await b.req('GET', '/api/v1/tenants/me', { key: newKey })).status, 200);

    // Key changes are in the tenant's audit trail.
    const ev = await b.req('GET', '/api/v1/audit/events?type=tenant.key_rotated', { key: newKey });
    assert.equal(ev.status, 200);
    assert.equal(ev.json.events.length, 1);
    assert.equal(ev.json.events[0].detail.old_key_prefix, created.tenant.key_prefix);

    assert.equal((await cli(['tenants', 'remove', 'nobody', '--data-dir', dataDir])).code, 1);
    const rm = await cli(['tenants', 'remove', 'acme', '--data-dir', dataDir]);
    assert.equal(rm.code, 0, rm.err);
    assert.equal(JSON.parse((await cli(['tenants', 'list', '--data-dir', dataDir])).out).tenants.length, 0);
    // No tenant left: back to single-tenant local mode, the removed key is simply not needed.
    const local = await b.req('GET', '/api/v1/tenants/me');
    assert.equal(local.json.mode, 'single-tenant');
  } finally {
    await b.stop();
  }
});

test('audit export from the CLI prints CEF for one tenant', async () => {
  const dataDir = tempDir();
  assert.equal((await cli(['tenants', 'add', 'acme', '--data-dir', dataDir])).code, 0);
  const r = await cli(['audit', 'export', '--tenant', 'acme', '--format', 'cef', '--data-dir', dataDir]);
  assert.equal(r.code, 0, r.err);
  const lines = r.out.trim().split('\n');
  assert.equal(lines.length, 1);
  assert.match(lines[0], /^CEF:0\|vigil\|vigil\|[^|]+\|tenant\.created\|/);
  assert.equal((await cli(['audit', 'export', '--data-dir', dataDir])).code, 2, 'needs --tenant or --local');
  assert.equal((await cli(['audit', 'export', '--local', '--from', 'yesterday', '--data-dir', dataDir])).code, 2);
});
