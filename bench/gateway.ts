// Gateway throughput: `npm run bench:gateway`. One chat turn per request with the demo LLM
// backend (the model costs ~nothing, so what is measured is the gateway: routing, validation,
// the guardrail layers, the agent loop, a skill call, session writes to the store,
// serialisation), driven over loopback by wrk (16 connections, 2 threads, keep-alive) in its
// own process. Prints turns/s and p50/p99 latency per scenario, as wrk measures them.
//
// Bounded: BENCH_S seconds per scenario (default 10) after BENCH_WARM_S of warm-up (default 3).
// BENCH_GUARDRAILS=all (default) | none | both. BENCH_SCENARIO=answer | skill | all (default).
// BENCH_MESSAGES=same (default) | vary: with `vary` every request sends a different message
// (1-40 random words and a random number; "sha256 of <random words>" for the skill call), so
// the demo's answer varies with it: nothing the gateway caches by text (the guardrails'
// normalisation of the last few texts) is reused the way one repeated message reuses it.
// BENCH_PROFILE=<dir> writes a CPU profile of
// each measured window. Prints the server's CPU time per turn (process CPU / turns served),
// which stays comparable when the machine is loaded; turns/s and latency do not, and the
// server's event-loop delay over the window (p99 and max: how long a ready request could wait
// for the main thread: GC, a long synchronous step, or the process not being scheduled;
// sampled every 20 ms, so it costs nothing measurable).
// Needs `wrk` on PATH (Debian package `wrk`).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Session } from 'node:inspector/promises';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { bootGateway } from './gateway-boot.ts';

const SECS = Number(process.env.BENCH_S ?? 10);
const WARM = Number(process.env.BENCH_WARM_S ?? 3);
const CONC = Number(process.env.BENCH_CONNECTIONS ?? 16);
const WRK_THREADS = Number(process.env.BENCH_WRK_THREADS ?? 2);
const run = promisify(execFile);
/** BENCH_PROFILE=<dir>: write a CPU profile of the measured window (not boot or warm-up) per scenario. */
const PROFILE = process.env.BENCH_PROFILE ?? '';

interface WrkResult {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  errors: number;
}

/** Latency text from wrk ("812.00us", "14.61ms", "1.20s") in milliseconds. */
function ms(v: string): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(v.trim());
  if (!m) throw new Error(`unexpected wrk latency "${v}"`);
  const n = Number(m[1]);
  return m[2] === 'us' ? n / 1000 : m[2] === 'ms' ? n : m[2] === 's' ? n * 1000 : n * 60_000;
}

const VARY = (process.env.BENCH_MESSAGES ?? 'same') === 'vary';
if (!['same', 'vary'].includes(process.env.BENCH_MESSAGES ?? 'same')) throw new Error('BENCH_MESSAGES must be same or vary');

/** wrk's Lua: the one body every time, or (BENCH_MESSAGES=vary) a new message per request after `prefix`. */
function wrkScript(body: string, prefix: string | null): string {
  const head = `wrk.method = "POST"\nwrk.body = ${JSON.stringify(body)}\nwrk.headers["Content-Type"] = "application/json"\n`;
  if (prefix === null) return head;
  const words =
    'the a vault token owner please explain what this does function balance deposit withdraw value fee pool reward user amount pause'.split(
      ' ',
    );
  return (
    head +
    `local words = {${words.map((w) => JSON.stringify(w)).join(',')}}
init = function(args) math.randomseed(os.time() + math.floor(os.clock() * 1000000)) end
request = function()
  local t = {}
  for i = 1, math.random(1, 40) do t[i] = words[math.random(#words)] end
  t[#t + 1] = tostring(math.random(1, 1000000000))
  return wrk.format(nil, nil, nil, '{"message":"${prefix}' .. table.concat(t, " ") .. '"}')
end
`
  );
}

async function wrk(url: string, body: string, secs: number, prefix: string | null = null): Promise<WrkResult> {
  const script = path.join(os.tmpdir(), `vigil-wrk-${process.pid}.lua`);
  fs.writeFileSync(script, wrkScript(body, prefix));
  const { stdout } = await run('wrk', [`-t${WRK_THREADS}`, `-c${CONC}`, `-d${secs}s`, '--latency', '-s', script, url], {
    encoding: 'utf8',
    timeout: (secs + 30) * 1000,
  });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1]);
  const p50 = /\s50%\s+(\S+)/.exec(stdout)?.[1];
  const p99 = /\s99%\s+(\S+)/.exec(stdout)?.[1];
  const requests = Number(/(\d+) requests in/.exec(stdout)?.[1]);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(stdout)?.[1] ?? 0);
  const sockErr = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(stdout);
  if (!Number.isFinite(rps) || !p50 || !p99) throw new Error(`could not read wrk's output:\n${stdout}`);
  return {
    rps,
    p50: ms(p50),
    p99: ms(p99),
    requests,
    errors: non2xx + (sockErr ? sockErr.slice(1).reduce((a, b) => a + Number(b), 0) : 0),
  };
}

async function scenario(label: string, message: string, withGuardrails: boolean, prefix: string) {
  const { k, dataDir, layers } = await bootGateway(withGuardrails);
  const { gateway } = await k.listen();
  const url = `${gateway}/api/v1/agent/chat`;
  const body = JSON.stringify({ message });
  const probe = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
  if (probe.status !== 200) throw new Error(`chat failed: ${probe.status} ${await probe.text()}`);
  await probe.arrayBuffer();
  const vary = VARY ? prefix : null;
  if (WARM > 0) await wrk(url, body, WARM, vary); // JIT, prepared statements, pools
  const prof = PROFILE ? new Session() : null;
  if (prof) {
    prof.connect();
    await prof.post('Profiler.enable');
    await prof.post('Profiler.start');
  }
  const loop = monitorEventLoopDelay({ resolution: 20 });
  loop.enable();
  const cpu0 = process.cpuUsage();
  const r = await wrk(url, body, SECS, vary);
  const cpu = process.cpuUsage(cpu0);
  loop.disable();
  if (prof) {
    const { profile } = await prof.post('Profiler.stop');
    const file = path.join(PROFILE, `gateway-${label.split(' ')[0]}-${withGuardrails ? 'guarded' : 'bare'}.cpuprofile`);
    fs.mkdirSync(PROFILE, { recursive: true });
    fs.writeFileSync(file, JSON.stringify(profile));
    prof.disconnect();
  }
  const sessions = (await k.store.listSessions({ tenant: null, limit: 1_000_000 })).length;
  await k.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
  return {
    scenario: label,
    guardrails: layers.length ? `${layers.length} layers` : 'none',
    'turns/s': Math.round(r.rps),
    'p50 ms': +r.p50.toFixed(2),
    'p99 ms': +r.p99.toFixed(2),
    'CPU ms/turn': +((cpu.user + cpu.system) / 1000 / Math.max(1, r.requests)).toFixed(3),
    'loop delay p99/max ms': `${(loop.percentile(99) / 1e6).toFixed(1)}/${(loop.max / 1e6).toFixed(1)}`,
    turns: r.requests,
    errors: r.errors,
    'sessions stored': sessions,
  };
}

const which = process.env.BENCH_GUARDRAILS ?? 'all';
const modes = which === 'both' ? [false, true] : [which !== 'none'];
const rows = [];
const only = process.env.BENCH_SCENARIO ?? 'all'; // answer | skill | all
for (const g of modes) {
  const v = VARY ? ', messages vary' : '';
  if (only !== 'skill') rows.push(await scenario(`answer only ("hello there"${v})`, 'hello there', g, ''));
  if (only !== 'answer') rows.push(await scenario(`skill call ("sha256 of abc"${v})`, 'sha256 of abc', g, 'sha256 of '));
}
const load = os
  .loadavg()
  .map((x) => x.toFixed(1))
  .join(' ');
console.log(
  `node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), wrk -t${WRK_THREADS} -c${CONC} -d${SECS}s, load average ${load}`,
);
console.table(rows);
