// Gateway benchmark: one chat turn with the demo LLM backend (so the model costs ~nothing and
// what is measured is the gateway: routing, validation, guardrails, agent loop, skill call,
// SQLite session writes, serialisation). Prints
//   - server-side overhead: p50/p95 of app.inject() (the whole Fastify pipeline in-process,
//     no sockets), sequential;
//   - turns/s over loopback on a listening server, 16 concurrent keep-alive clients in a separate
//     process (bench/load-client.js), for a fixed time.
// Each scenario runs with no guardrail plugins and with every guardrail plugin loaded.
// Bounded: a fixed number of inject calls and a fixed wall time per loopback run.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import pino from 'pino';
import { Kernel } from '../kernel/kernel.ts';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const CORE = ['gateway-core', 'llm-demo', 'skill-crypto', 'skill-files', 'skill-git', 'skill-web-search', 'skill-contract-audit', 'skill-shell'];
const INJECT_N = Number(process.env.BENCH_N ?? 2000);
const LOOP_MS = Number(process.env.BENCH_MS ?? 4000);
const CONC = 16;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

async function boot(withGuardrails: boolean) {
  const all = fs.readdirSync(path.join(ROOT, 'plugins'));
  const keep = new Set([...CORE, ...(withGuardrails ? all.filter((p) => p.startsWith('guardrail-')) : [])]);
  const plugins = Object.fromEntries(all.filter((p) => !keep.has(p)).map((p) => [p, { enabled: false }]));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-bench-'));
  const k = new Kernel({
    settingsInput: { dataDir, env: {}, overrides: { llm: { provider: 'demo' }, workspace: dataDir, bind: '127.0.0.1:0', api_bind: '127.0.0.1:0', plugins } },
    logger: pino({ level: 'silent' }),
    poolThreads: 1,
  });
  await k.boot();
  return { k, dataDir, layers: k.registry.guardrails().map((g) => g.name) };
}

async function scenario(label: string, message: string, withGuardrails: boolean) {
  const { k, dataDir, layers } = await boot(withGuardrails);
  const payload = JSON.stringify({ message });
  const inject = () => k.gateway.inject({ method: 'POST', url: '/api/v1/agent/chat', payload, headers: { 'content-type': 'application/json' } });
  for (let i = 0; i < 200; i++) await inject(); // warm-up: JIT, prepared statements
  const lat: number[] = [];
  for (let i = 0; i < INJECT_N; i++) {
    const t0 = process.hrtime.bigint();
    const r = await inject();
    lat.push(Number(process.hrtime.bigint() - t0) / 1e6);
    if (r.statusCode !== 200) throw new Error(`chat failed: ${r.statusCode} ${r.body}`);
  }
  const { gateway } = await k.listen();
  const url = `${gateway}/api/v1/agent/chat`;
  // The load comes from a separate process (bench/load-client.js) so client and server do not
  // share one event loop.
  const { stdout: out } = await promisify(execFile)(process.execPath, [path.join(ROOT, 'bench', 'load-client.js'), url, payload, String(CONC), String(LOOP_MS)], { encoding: 'utf8' });
  const load = JSON.parse(out.trim().split('\n').at(-1)!) as { done: number; failed: number; secs: number; p50: number; p99: number };
  const done = load.done;
  const failed = load.failed;
  const secs = load.secs;
  await k.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
  return {
    scenario: label,
    guardrails: layers.length ? layers.join(',') : 'none',
    inject_p50_ms: +pct(lat, 50).toFixed(3),
    inject_p95_ms: +pct(lat, 95).toFixed(3),
    loopback_turns_per_s: Math.round(done / secs),
    loopback_p50_ms: +load.p50.toFixed(2),
    loopback_failed: failed,
  };
}

const rows = [];
for (const g of [false, true]) {
  rows.push(await scenario('answer only ("hello there")', 'hello there', g));
  rows.push(await scenario('skill call ("sha256 of abc")', 'sha256 of abc', g));
}
console.log(`node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), inject n=${INJECT_N}, loopback ${LOOP_MS} ms x ${CONC} clients`);
console.table(rows);
