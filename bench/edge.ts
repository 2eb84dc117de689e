// Edge protections under abuse (issue 14 item 9), on a listening server with one tenant:
//  1. 100 connections trickle a 100 kB body one byte every 200 ms: when is each one closed?
//  2. 2,000 bad-key requests from one address: how many are refused before authentication (429),
//     and how many audit rows do they leave?
//  3. A 5,000-deep JSON body: status and time.
// Usage: node --import tsx bench/edge.ts   (takes ~40 s: the body timeout is the default 30 s)
import net from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { Kernel } from '../kernel/kernel.ts';
import { TenantDirectory } from '../plugins/gateway-tenancy/directory.ts';
import { createAuditLog } from '../lib/gateway/governance/audit-log.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-bench-edge-'));
const kernel = new Kernel({
  settingsInput: { env: {}, dataDir, config: null, bind: '127.0.0.1:0', apiBind: '127.0.0.1:0' },
  logger: pino({ level: 'silent' }),
  poolThreads: 1,
});
await kernel.boot();
const { gateway } = await kernel.listen();
const { api_key: key } = await new TenantDirectory(kernel.store, [], createAuditLog(kernel.store)).create({
  name: 'bench',
  permissions: ['contract_analysis', 'crypto'],
});
const u = new URL(gateway);

// 1. slow bodies (an authenticated client, so only the body timeout can end them)
const t0 = Date.now();
const closes = await Promise.all(
  Array.from(
    { length: 100 },
    () =>
      new Promise<{ ms: number; status: string }>((resolve) => {
        const sock = net.connect(Number(u.port), u.hostname, () => {
          sock.write(
            `POST /api/v1/agent/chat HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nAuthorization: Bearer ${key}\r\nContent-Length: 100000\r\n\r\n`,
          );
        });
        const tick = setInterval(() => sock.writable && sock.write('a'), 200);
        let got = '';
        sock.on('data', (c) => (got += String(c)));
        sock.on('error', () => undefined);
        sock.on('close', () => {
          clearInterval(tick);
          resolve({ ms: Date.now() - t0, status: got.slice(9, 12) || 'none' });
        });
      }),
  ),
);
const ms = closes.map((c) => c.ms).sort((a, b) => a - b);
const statuses = closes.reduce<Record<string, number>>((m, c) => ((m[c.status] = (m[c.status] ?? 0) + 1), m), {});
console.log(
  `slow bodies: 100 trickling connections closed after ${(ms[0] / 1000).toFixed(1)}-${(ms.at(-1)! / 1000).toFixed(1)} s; statuses ${JSON.stringify(statuses)}`,
);

// 2. bad-key flood
const before = (await kernel.store.queryAudit({ tenant: null, limit: 100000 })).length;
const t1 = Date.now();
const codes: Record<number, number> = {};
for (let i = 0; i < 2000; i += 50) {
  const batch = await Promise.all(
    Array.from({ length: 50 }, (_, j) =>
      fetch(`${gateway}/api/v1/sessions`, { headers: { authorization: `Bearer vgl_guess_${i + j}_xxxxxxxxxxxxxxxxxxxxxxxxxxxx` } }).then(
        (r) => r.status,
      ),
    ),
  );
  for (const c of batch) codes[c] = (codes[c] ?? 0) + 1;
}
const floodMs = Date.now() - t1;
await kernel.stop();
const { SqliteStore } = await import('../kernel/store/sqlite.ts');
const store = SqliteStore.open(dataDir);
const after = await store.queryAudit({ tenant: null, limit: 100000 });
console.log(
  `bad-key flood: 2000 requests in ${(floodMs / 1000).toFixed(1)} s -> ${JSON.stringify(codes)}; audit rows added: ${after.length - before} (${after
    .filter((e) => e.type === 'auth.failure')
    .map((e) => (e.detail as { count: number }).count)
    .join(' + ')} counted in auth.failure rows)`,
);
await store.close();

// 3. deep JSON
const k2 = new Kernel({ settingsInput: { env: {}, dataDir, config: null }, logger: pino({ level: 'silent' }), poolThreads: 1 });
await k2.boot();
const deep = `{"kind":"x","data":${'['.repeat(5000)}${']'.repeat(5000)}}`;
const t2 = process.hrtime.bigint();
const r = await k2.api.inject({
  method: 'POST',
  url: '/api/v1/reports/',
  payload: deep,
  headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
});
console.log(`deep JSON: 5,000 levels -> ${r.statusCode} ${r.json().code} in ${(Number(process.hrtime.bigint() - t2) / 1e6).toFixed(1)} ms`);
await k2.stop();
