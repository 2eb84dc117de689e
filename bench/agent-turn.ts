// Agent turn without HTTP: `npm run bench:agent-turn`. The same gateway as bench:gateway (core
// plugins, demo backend, skills, all six guardrail layers, a new persisted SQLite session per
// turn) but the turns are run by calling the agent service directly, 16 in flight, so what is
// measured is the turn itself — guardrail chain, agent loop, output gate, store writes, audit,
// metrics and spans — without Fastify, sockets or a load generator sharing the cores.
//
// Prints the CPU time per turn (user + system of this process, all threads, over the run divided
// by the turns), per run and the median of BENCH_RUNS runs (default 7) of BENCH_TURNS turns
// (default 1,000) after a warm-up: CPU time stays comparable on a loaded machine, wall time does
// not; the minimum is the run least disturbed by other processes. Then the guardrail layers on
// the turn's own texts (the input message and the whole answer, as the synchronous chat checks
// them): each layer alone, texts in a loop (its code and tables stay in the CPU caches), and the
// whole chain, where the layers take turns per text as in a real turn; and the chain on the
// answer sentence by sentence, as the SSE stream checks it.
// BENCH_GUARDRAILS=all (default) | none. BENCH_SCENARIO=answer (default) | skill.
// BENCH_VIA=service (default) | inject | both: `inject` runs the same turn as a
// `POST /api/v1/agent/chat` through the gateway's Fastify app (`app.inject()`: routing, edge
// hooks, tenancy, rate limit, body parsing, validation, response serialisation, request span and
// latency histogram — everything but sockets and Node's HTTP parser); `both` alternates service and
// inject runs, so the difference is the HTTP layer's CPU per turn measured under the same load.
// Caveat (session 9): straight through the service, the 16 identical turns run in lockstep, so
// the guardrail layers see the same text many times in a row (the normalisation cache of the
// last 4 texts hit 78% of the time, against 14% under wrk or inject, and the layers' code
// and tables stay hot): the service figure is the turn's lower bound, not what the gateway
// spends on it. With six layers, inject − service is therefore the HTTP layer plus those layers
// running cold; with BENCH_GUARDRAILS=none it is the HTTP layer (and light-my-request's own
// ~50 µs, which a socket does not cost).
// BENCH_PROFILE=<file.cpuprofile> writes a CPU profile of the measured runs.
import fs from 'node:fs';
import os from 'node:os';
import { Session } from 'node:inspector/promises';
import type { AgentRuntimeImpl } from '../plugins/gateway-core/agent/runtime.ts';
import type { GuardrailChain } from '../lib/guardrails/chain.ts';
import { bootGateway } from './gateway-boot.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const TURNS = Number(process.env.BENCH_TURNS ?? 1000);
const CONC = Number(process.env.BENCH_CONCURRENCY ?? 16);
const GUARDED = (process.env.BENCH_GUARDRAILS ?? 'all') !== 'none';
const MESSAGE = (process.env.BENCH_SCENARIO ?? 'answer') === 'skill' ? 'sha256 of abc' : 'hello there';
const PROFILE = process.env.BENCH_PROFILE ?? '';
const VIA = process.env.BENCH_VIA ?? 'service';
if (!['service', 'inject', 'both'].includes(VIA)) throw new Error(`BENCH_VIA must be service, inject or both, not "${VIA}"`);

const { k, dataDir, layers } = await bootGateway(GUARDED);
const found = k.services.get<AgentRuntimeImpl>('agent');
if (!found) throw new Error('the agent service is not registered');
const agent = found;
const tenant = { name: null, permissions: null };
const signal = new AbortController().signal;

const body = JSON.stringify({ message: MESSAGE });
const headers = { 'content-type': 'application/json' };
async function viaService(): Promise<string> {
  return (await agent.chat({ tenant, message: MESSAGE }, signal)).response;
}
async function viaInject(): Promise<string> {
  const res = await k.gateway.inject({ method: 'POST', url: '/api/v1/agent/chat', payload: body, headers });
  if (res.statusCode !== 200) throw new Error(`chat answered ${res.statusCode}: ${res.body}`);
  return (JSON.parse(res.body) as { response: string }).response;
}

async function turns(n: number, via: 'service' | 'inject' = VIA === 'inject' ? 'inject' : 'service'): Promise<string> {
  let next = 0;
  let answer = '';
  const one = via === 'inject' ? viaInject : viaService;
  const worker = async () => {
    while (next < n) {
      next++;
      const r = await one();
      if (!r) throw new Error('a turn returned no answer');
      answer = r;
    }
  };
  await Promise.all(Array.from({ length: CONC }, worker));
  return answer;
}

const cpuUs = (c: NodeJS.CpuUsage) => c.user + c.system;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const answer = await turns(Math.max(500, TURNS)); // JIT, prepared statements
if (VIA === 'both') await turns(Math.max(500, TURNS), 'inject');
const prof = PROFILE ? new Session() : null;
if (prof) {
  prof.connect();
  await prof.post('Profiler.enable');
  await prof.post('Profiler.start');
}
const perTurn: number[] = [];
const perInject: number[] = [];
for (let r = 0; r < RUNS; r++) {
  for (const via of VIA === 'both' ? (['service', 'inject'] as const) : ([VIA as 'service' | 'inject'] as const)) {
    const c0 = process.cpuUsage();
    await turns(TURNS, via);
    (via === 'inject' ? perInject : perTurn).push(cpuUs(process.cpuUsage(c0)) / TURNS);
  }
}
if (prof) {
  const { profile } = await prof.post('Profiler.stop');
  fs.writeFileSync(PROFILE, JSON.stringify(profile));
  prof.disconnect();
}

// The layers alone, on the texts one turn checks: the message (input) and the whole answer
// (output), as the synchronous chat checks them. CPU time of each layer's own check, then of the
// whole chain (the layers plus the chain's own work), per turn; then the chain with the answer
// checked sentence by sentence, as the stream's output gate cuts it.
const chain = k.services.get<GuardrailChain>('guardrails');
const layerRows: Array<Record<string, string | number>> = [];
if (chain && layers.length) {
  const texts = [[MESSAGE, 'input'] as const, [answer, 'output'] as const];
  const reps = 200;
  const cpuOf = async (fn: () => unknown) => {
    await fn();
    const c0 = process.cpuUsage();
    for (let i = 0; i < reps; i++) await fn();
    return cpuUs(process.cpuUsage(c0)) / reps;
  };
  for (const g of k.registry.guardrails()) {
    const mine = texts.filter(([, dir]) => g.directions.includes(dir));
    const us = await cpuOf(async () => {
      for (const [text, dir] of mine) {
        const v = g.check(text, dir);
        if (v instanceof Promise) await v;
      }
    });
    layerRows.push({ layer: g.name, texts: mine.length, 'CPU µs/turn': Math.round(us) });
  }
  layerRows.sort((x, y) => Number(y['CPU µs/turn']) - Number(x['CPU µs/turn']));
  const all = await cpuOf(async () => {
    for (const [text, dir] of texts) await chain.run(text, dir);
  });
  layerRows.push({ layer: 'chain (all layers)', texts: texts.length, 'CPU µs/turn': Math.round(all) });
  const sentences = answer.split(/(?<=[.!?])\s+|(?<=\n)/).filter((x) => x.trim());
  const streamed = [[MESSAGE, 'input'] as const, ...sentences.map((x) => [x, 'output'] as const)];
  const perSentence = await cpuOf(async () => {
    for (const [text, dir] of streamed) await chain.run(text, dir);
  });
  layerRows.push({ layer: 'chain, answer per sentence (stream)', texts: streamed.length, 'CPU µs/turn': Math.round(perSentence) });
}

const sessions = (await k.store.listSessions({ tenant: null, limit: 1_000_000 })).length;
await k.stop();
fs.rmSync(dataDir, { recursive: true, force: true });
const load = os
  .loadavg()
  .map((x) => x.toFixed(1))
  .join(' ');
console.log(
  `node ${process.version}, ${os.cpus()[0]?.model ?? '?'}, load average ${load}; "${MESSAGE}", ${layers.length} guardrail layers, ${CONC} turns in flight, ${sessions} sessions stored`,
);
const line = (label: string, xs: number[]) =>
  console.log(
    `${label} CPU µs/turn per run: ${xs.map((x) => Math.round(x)).join(', ')}; median ${Math.round(median(xs))}, min ${Math.round(Math.min(...xs))}`,
  );
if (perTurn.length) line('agent service:', perTurn);
if (perInject.length) line('app.inject():', perInject);
if (perTurn.length && perInject.length)
  console.log(
    `HTTP layer without sockets (inject − service): median ${Math.round(median(perInject) - median(perTurn))} µs, min ${Math.round(Math.min(...perInject) - Math.min(...perTurn))} µs per turn`,
  );
if (layerRows.length) console.table(layerRows);
