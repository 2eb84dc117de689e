// Layer 5: the AI review through the LLM backend contract. Offline with the real demo backend
// (deterministic: explains the static layer's findings, invents none); with a scripted
// OpenAI-shaped backend the JSON answer is validated item by item, invalid items are dropped,
// unconfirmed items are llm_only and capped at 0.3, confirmations attach to earlier findings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LlmBackend, LlmRequest, LlmStreamEvent } from '../../kernel/contracts/llm.ts';
import { Value } from '@sinclair/typebox/value';
import { Finding } from '../../schemas/finding.ts';
import { createDemoBackend } from '../../plugins/llm-demo/index.ts';
import { createAiReviewTool } from '../../plugins/tool-ai-review/tool.ts';
import { analyzeSource } from '../../lib/analysis/static/index.ts';
import { reentrancyDetector } from '../../plugins/detector-reentrancy/index.ts';
import { correlate } from '../../plugins/analysis-engine/correlate.ts';
import { REENTRANCY_SELF_TEST } from '../../lib/analysis/self-test.ts';

// The textbook reentrancy: withdraw() sends before it clears the balance.
const SRC = REENTRANCY_SELF_TEST;

function registryWith(...backends: LlmBackend[]) {
  return { llm: (p: string) => backends.find((b) => b.provider === p), llms: () => backends };
}

/** A provider that answers like a chat-completions model would, with a fixed text. */
function scripted(provider: string, answer: string, seen: LlmRequest[] = []): LlmBackend {
  return {
    provider,
    defaultModel: 'scripted-1',
    configured: () => true,
    async *stream(req: LlmRequest): AsyncIterable<LlmStreamEvent> {
      seen.push(req);
      for (const chunk of answer.match(/[\s\S]{1,40}/g) ?? []) yield { type: 'delta', text: chunk };
      yield { type: 'done', usage: { prompt_tokens: 100, completion_tokens: 50 }, finish_reason: 'stop' };
    },
  };
}

const opts = () => ({ signal: new AbortController().signal, deadline: Date.now() + 30_000, mode: 'full' as const });

async function staticPrior() {
  const r = await analyzeSource(SRC, 'Bank.sol', [reentrancyDetector]);
  assert.ok(r.findings.length, 'the static layer flags the reentrancy');
  return r.findings;
}

test('demo backend offline: deterministic review that confirms the static finding and invents nothing', async () => {
  const prior = await staticPrior();
  const tool = createAiReviewTool({
    registry: registryWith(createDemoBackend({ token_delay_ms: 0, model: 'demo-1' })),
    settingsFile: () => ({}),
    env: {},
  });
  assert.deepEqual(await tool.availability(), { available: true, version: 'demo/demo-1' });
  const a = await tool.run({ source: SRC, file: 'Bank.sol', sha256: '', prior }, opts());
  const b = await tool.run({ source: SRC, file: 'Bank.sol', sha256: '', prior }, opts());
  assert.equal(a.status, 'success');
  assert.deepEqual(a.findings, b.findings, 'deterministic');
  assert.equal(a.findings.length, prior.length);
  const f = a.findings[0];
  assert.ok(Value.Check(Finding, f));
  assert.equal(f.llm_only, undefined);
  assert.equal((f.evidence as any).confirms, prior[0].id);
  assert.equal(f.location.line, prior[0].location.line);
  assert.ok(f.confidence <= 0.1, 'an echo does not raise certainty');
  assert.match(f.description, /require\(msg\.sender\.call\.value\(amount\)\(\)\)/);
  // Correlation merges it into the static finding instead of adding a second one.
  const merged = correlate([...prior, ...a.findings], SRC);
  assert.equal(merged.length, prior.length);
  assert.ok(merged[0].tools.includes('vigil-ai'));
  // No prior findings: nothing to say, nothing invented.
  const none = await tool.run({ source: SRC, file: 'Bank.sol', sha256: '', prior: [] }, opts());
  assert.deepEqual(none.findings, []);
});

test('a model answer is validated: invalid items dropped, llm_only capped at 0.3, confirmations matched', async () => {
  const prior = await staticPrior();
  const answer =
    'Here is my review:\n```json\n' +
    JSON.stringify({
      findings: [
        {
          title: 'Reentrancy in withdraw',
          description: 'External call before the balance is zeroed.',
          severity: 'high',
          category: 'reentrancy',
          line: 6,
          confidence: 0.9,
          confirms: prior[0].id,
        },
        {
          title: 'Deposit overflow',
          description: 'balances can wrap on 0.4.',
          severity: 'MEDIUM',
          category: 'arithmetic',
          line: 10,
          confidence: 0.8,
        },
        { title: 'Bad severity', description: 'x', severity: 'URGENT', category: 'reentrancy', line: 4 },
        { title: 'No line', description: 'missing line number', severity: 'LOW', category: 'other' },
        { title: 'Out of file', description: 'line past the end', severity: 'LOW', category: 'other', line: 400 },
      ],
    }) +
    '\n```';
  const seen: LlmRequest[] = [];
  const tool = createAiReviewTool({
    registry: registryWith(createDemoBackend({ token_delay_ms: 0, model: 'demo-1' }), scripted('openai', answer, seen)),
    settingsFile: () => ({ analysis: { ai: { provider: 'openai', model: 'gpt-test' } } }),
    env: {},
  });
  const r = await tool.run({ source: SRC, file: 'Bank.sol', sha256: '', prior }, opts());
  assert.equal(r.status, 'success', r.error ?? '');
  assert.equal(seen[0].model, 'gpt-test');
  assert.equal(seen[0].json, true);
  assert.match(seen[0].messages[1].content!, new RegExp(`id=${prior[0].id}`), 'earlier findings are in the prompt');
  assert.equal(r.findings.length, 2);
  const confirm = r.findings.find((f) => f.category === 'reentrancy')!;
  assert.equal(confirm.llm_only, undefined);
  assert.equal(confirm.confidence, 0.5);
  const only = r.findings.find((f) => f.category === 'arithmetic')!;
  assert.equal(only.llm_only, true);
  assert.equal(only.confidence, 0.3);
  assert.equal(only.location.function, 'deposit');
  const dropped = (r.meta as any).dropped as string[];
  assert.equal(dropped.length, 3);
  assert.ok(dropped.some((d) => /line 400 is past the end/.test(d)));
});

test('a provider without a key is not available; prose without JSON is an empty review with a note', async () => {
  const unconfigured: LlmBackend = { ...scripted('anthropic', '{}'), configured: () => false };
  const tool = createAiReviewTool({
    registry: registryWith(unconfigured),
    settingsFile: () => ({ analysis: { ai: { provider: 'anthropic' } } }),
    env: {},
  });
  const av = await tool.availability();
  assert.equal(av.available, false);
  assert.match(av.reason ?? '', /not configured/);
  const chatty = createAiReviewTool({
    registry: registryWith(scripted('groq', 'I think the contract looks fine.')),
    settingsFile: () => ({ analysis: { ai: { provider: 'groq' } } }),
    env: {},
  });
  const r = await chatty.run({ source: SRC, file: 'Bank.sol', sha256: '', prior: [] }, opts());
  assert.equal(r.status, 'success');
  assert.deepEqual(r.findings, []);
  assert.match(((r.meta as any).dropped as string[])[0], /not JSON/);
});
