// The agent's bounds on one skill call: a skill that ignores its signal is cut at the time
// limit (its signal aborts with a TimeoutError), a turn that is aborted aborts the skill's signal
// with the turn's reason, and a call that finishes in time leaves no timer to abort it later.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Skill } from '../../kernel/index.ts';
import type { AgentService } from '../../lib/gateway/agent/types.ts';
import { bootGateway } from './helpers.ts';

let g: Awaited<ReturnType<typeof bootGateway>>;
let agent: AgentService;
before(async () => {
  g = await bootGateway({ only: ['gateway-core', 'llm-demo'] });
  agent = g.kernel.services.get<AgentService>('agent')!;
});
after(() => g.close());

/** A skill that records the signal it was given and runs `body`. */
function probe(body: (signal: AbortSignal) => Promise<unknown>): { skill: Skill; seen: AbortSignal[] } {
  const seen: AbortSignal[] = [];
  return {
    seen,
    skill: {
      name: 'probe',
      description: 'test skill',
      inputSchema: { type: 'object' },
      capabilities: [],
      call: async (_input, ctx) => {
        seen.push(ctx.signal);
        return { ok: true, output: await body(ctx.signal) };
      },
    },
  };
}

const direct = (skill: Skill, signal: AbortSignal, timeoutMs: number) =>
  agent.callSkillDirect({
    tenant: { name: null, permissions: null },
    name: skill.name,
    input: {},
    signal,
    origin: 'test',
    resolve: (n) => (n === skill.name ? skill : undefined),
    timeoutMs,
  });

test('a skill that ignores its signal is cut at the time limit, its signal aborted with a TimeoutError', async () => {
  const p = probe(() => new Promise(() => undefined));
  const t0 = Date.now();
  // (The limit's timer does not hold the process open, like AbortSignal.timeout's: this one does.)
  const alive = setInterval(() => undefined, 50);
  const { record } = await direct(p.skill, new AbortController().signal, 150).finally(() => clearInterval(alive));
  assert.equal(record.ok, false);
  assert.match(record.error ?? '', /timeout: skill "probe" did not finish within 150 ms/);
  assert.ok(Date.now() - t0 < 5000);
  assert.equal(p.seen[0].aborted, true);
  assert.equal((p.seen[0].reason as Error).name, 'TimeoutError');
});

test("an aborted turn aborts the skill's signal with the turn's reason", async () => {
  const ac = new AbortController();
  const why = new Error('the client went away');
  const p = probe(
    (signal) =>
      new Promise((_, reject) => {
        signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
        setTimeout(() => ac.abort(why), 20);
      }),
  );
  await direct(p.skill, ac.signal, 10_000).catch(() => undefined);
  assert.equal(p.seen[0].aborted, true);
  assert.equal(p.seen[0].reason, why);
});

test('a call that finishes in time is not aborted afterwards', async () => {
  const p = probe(async () => 'done');
  const { record } = await direct(p.skill, new AbortController().signal, 100);
  assert.equal(record.ok, true, record.error);
  await new Promise((r) => setTimeout(r, 250));
  assert.equal(p.seen[0].aborted, false);
});
