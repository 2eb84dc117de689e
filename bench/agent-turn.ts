// Agent turn without HTTP: `npm run bench:agent-turn`. The same gateway as bench:gateway (core
// plugins, demo backend, skills, all six guardrail layers, a new persisted SQLite session per
// turn) but the turns are run by calling the agent service directly, 16 in flight, so what is
// measured is the turn itself — guardrail chain, agent loop, output gate, store writes, audit,
// metrics and spans — without Fastify, sockets or a load generator sharing the cores.
//
// Prints the CPU time per turn (user + system of this process, all threads, over the run divided
// by the turns), per run and the median of BENCH_RUNS runs (default 7) of BENCH_TURNS turns
// (default 1,000) after a warm-up: CPU time stays comparable on a loaded machine, wall time does
// not; the minimum is the run least disturbed by other processes. Then the guardrail chain alone
// on the turn's own texts (the input message and each sentence of the answer, as the output gate
// checks them), with each layer's share.
// BENCH_GUARDRAILS=all (default) | none. BENCH_SCENARIO=answer (default) | skill.
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

const { k, dataDir, layers } = await bootGateway(GUARDED);
const found = k.services.get<AgentRuntimeImpl>('agent');
if (!found) throw new Error('the agent service is not registered');
const agent = found;
const tenant = { name: null, permissions: null };
const signal = new AbortController().signal;

async function turns(n: number): Promise<string> {
  let next = 0;
  let answer = '';
  const worker = async () => {
    while (next < n) {
      next++;
      const r = await agent.chat({ tenant, message: MESSAGE }, signal);
      if (!r.response) throw new Error('a turn returned no answer');
      answer = r.response;
    }
  };
  await Promise.all(Array.from({ length: CONC }, worker));
  return answer;
}

const cpuUs = (c: NodeJS.CpuUsage) => c.user + c.system;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const answer = await turns(Math.max(500, TURNS)); // JIT, prepared statements
const prof = PROFILE ? new Session() : null;
if (prof) {
  prof.connect();
  await prof.post('Profiler.enable');
  await prof.post('Profiler.start');
}
const perTurn: number[] = [];
for (let r = 0; r < RUNS; r++) {
  const c0 = process.cpuUsage();
  await turns(TURNS);
  perTurn.push(cpuUs(process.cpuUsage(c0)) / TURNS);
}
if (prof) {
  const { profile } = await prof.post('Profiler.stop');
  fs.writeFileSync(PROFILE, JSON.stringify(profile));
  prof.disconnect();
}

// The chain alone, on the texts one turn checks: the message (input) and the answer sentence by
// sentence (output), as the output gate cuts it.
const chain = k.services.get<GuardrailChain>('guardrails');
const layerRows: Array<Record<string, string | number>> = [];
if (chain && layers.length) {
  const sentences = answer.split(/(?<=[.!?])\s+|(?<=\n)/).filter((s) => s.trim());
  const reps = 300;
  const byLayer = new Map<string, number>();
  const c0 = process.cpuUsage();
  for (let i = 0; i < reps; i++) {
    for (const [text, dir] of [[MESSAGE, 'input'] as const, ...sentences.map((s) => [s, 'output'] as const)]) {
      const r = await chain.run(text, dir);
      for (const [name, t] of Object.entries(r.timings ?? {})) byLayer.set(name, (byLayer.get(name) ?? 0) + t);
    }
  }
  const chainUs = cpuUs(process.cpuUsage(c0)) / reps;
  for (const [name, t] of [...byLayer].sort((a, b) => b[1] - a[1]))
    layerRows.push({ layer: name, 'µs/turn (wall, in-layer)': Math.round((t * 1000) / reps) });
  layerRows.push({
    layer: `chain total, ${sentences.length} output sentences + 1 input (CPU)`,
    'µs/turn (wall, in-layer)': Math.round(chainUs),
  });
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
console.log(
  `CPU µs/turn per run: ${perTurn.map((x) => Math.round(x)).join(', ')}; median ${Math.round(median(perTurn))}, min ${Math.round(Math.min(...perTurn))}`,
);
if (layerRows.length) console.table(layerRows);
