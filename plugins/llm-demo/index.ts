// The demo LLM backend: the default when no provider key is set. It needs no network and is
// deterministic — the same conversation always yields the same tool calls and the same answer —
// so the whole agent loop (tool calling, permissions, approvals, guardrails, streaming) can be
// used and tested offline. It is not a language model: it calls skills when the message asks for
// them (see intents.ts and docs/gateway.md) and answers from the tool results, or explains what
// it can do. It streams token by token like a provider does.
import { setTimeout as sleep } from 'node:timers/promises';
import { definePlugin, type LlmBackend, type LlmMessage, type LlmRequest, type LlmStreamEvent } from '../../kernel/index.ts';
import { planCalls } from './intents.ts';

interface DemoConfig extends Record<string, unknown> {
  token_delay_ms: number;
  model: string;
}

const approxTokens = (s: string | null | undefined) => (s ? Math.ceil(s.length / 4) : 0);
// The gateway passes the same tool list every step (see AgentRuntimeImpl.toolsFor), so its
// estimate is computed once per list rather than by serialising ~5 KB of schemas per step.
const toolTokens = new WeakMap<object, number>();
function toolsTokens(tools: LlmRequest['tools']): number {
  if (!tools) return 0;
  let n = toolTokens.get(tools);
  if (n === undefined) {
    n = approxTokens(JSON.stringify(tools));
    if (Object.isFrozen(tools)) toolTokens.set(tools, n);
  }
  return n;
}

function render(output: unknown): string {
  if (output == null) return 'no output';
  if (typeof output === 'string') return output.length > 1500 ? output.slice(0, 1500) + '…' : output;
  if (typeof output === 'object' && typeof (output as { summary?: unknown }).summary === 'string')
    return (output as { summary: string }).summary;
  const s = JSON.stringify(output);
  return s.length > 1500 ? s.slice(0, 1500) + '…' : s;
}

/** The answer once the skills have returned: one line per tool result of the current turn. */
function answerFromTools(results: LlmMessage[]): string {
  const lines = results.map((m) => {
    let r: { ok?: boolean; output?: unknown; error?: string; status?: string };
    try {
      r = JSON.parse(m.content ?? '{}');
    } catch {
      r = { ok: true, output: m.content };
    }
    return r.ok ? `- ${m.name}: ${render(r.output)}` : `- ${m.name} did not run (${r.status ?? 'error'}): ${r.error ?? 'no reason given'}`;
  });
  const failed = results.length - lines.filter((l) => !l.includes(' did not run (')).length;
  const head =
    failed === results.length
      ? 'The skill call did not succeed.'
      : failed
        ? 'Some skill calls did not succeed.'
        : 'Here is what the skills returned.';
  return `${head}\n${lines.join('\n')}\n`;
}

function helpText(message: string, offered: string[]): string {
  const ex = [
    offered.includes('crypto') && '"keccak256 of hello"',
    offered.includes('files') && '"list files"',
    offered.includes('git') && '"git status"',
    offered.includes('contract_audit') && '"audit this contract: <solidity code>"',
    offered.includes('web_search') && '"search the web for <query>"',
  ].filter(Boolean);
  const words = message.trim().split(/\s+/).length;
  return (
    `This is the offline demo backend: it does not write free text, it calls skills when you ask for them. ` +
    `Your message had ${words} word${words === 1 ? '' : 's'} and asked for no skill. ` +
    (offered.length ? `Skills you may use: ${offered.join(', ')}. ` : 'No skill is allowed by your permission set. ') +
    `Ask with /skill NAME {json}, for example /skill crypto {"op":"keccak256","data":"hello"}` +
    (ex.length ? `, or in plain words: ${ex.join(', ')}.` : '.') +
    ` Set a provider key (for example OPENAI_API_KEY) for a real model.`
  );
}

/** Everything the demo answers to one request, in order: tool calls, or the answer token by token; then done. */
function planEvents(req: LlmRequest): LlmStreamEvent[] {
  const prompt =
    req.messages.reduce((n, m) => n + approxTokens(m.content) + approxTokens(m.tool_calls ? JSON.stringify(m.tool_calls) : null), 0) +
    toolsTokens(req.tools);
  const lastUser = req.messages.map((m) => m.role).lastIndexOf('user');
  const after = req.messages.slice(lastUser + 1);
  const toolResults = after.filter((m) => m.role === 'tool');
  const offered = (req.tools ?? []).map((t) => t.name);
  const out: LlmStreamEvent[] = [];
  let completion = 0;
  if (!toolResults.length) {
    const calls = planCalls(req.messages[lastUser]?.content ?? '', new Set(offered));
    if (calls.length) {
      for (const [i, c] of calls.entries()) {
        completion += approxTokens(c.arguments) + 1;
        out.push({ type: 'tool_call', id: `call_${req.messages.length}_${i}`, name: c.name, arguments: c.arguments });
      }
      out.push({ type: 'done', usage: { prompt_tokens: prompt, completion_tokens: completion }, finish_reason: 'tool_calls' });
      return out;
    }
  }
  const text = toolResults.length ? answerFromTools(toolResults) : helpText(req.messages[lastUser]?.content ?? '', offered);
  for (const tok of text.match(/\s*\S+\s*/g) ?? [text]) {
    completion++;
    out.push({ type: 'delta', text: tok });
  }
  out.push({ type: 'done', usage: { prompt_tokens: prompt, completion_tokens: completion }, finish_reason: 'stop' });
  return out;
}

const aborted = (signal: AbortSignal) => signal.reason ?? new DOMException('aborted', 'AbortError');

/** With a token delay: one token per delay, as a provider streams. */
async function* paced(req: LlmRequest, delayMs: number): AsyncIterable<LlmStreamEvent> {
  for (const ev of planEvents(req)) {
    if (ev.type === 'delta') {
      if (req.signal?.aborted) throw aborted(req.signal);
      await sleep(delayMs, undefined, { signal: req.signal });
    }
    yield ev;
  }
}

/**
 * Without a delay: the same events from a plain async iterator. An async generator suspends and
 * resumes once per token (a hundred times for the help text), which cost more than the rest of
 * the demo backend; this hands each event out with one resolved promise. Planned on the first
 * next(), like a generator's body; a request aborted mid-answer rejects at the next token.
 */
function instant(req: LlmRequest): AsyncIterable<LlmStreamEvent> {
  return {
    [Symbol.asyncIterator](): AsyncIterator<LlmStreamEvent> {
      let events: LlmStreamEvent[] | null = null;
      let i = 0;
      let finished = false;
      const end = (): Promise<IteratorResult<LlmStreamEvent>> => {
        finished = true;
        return Promise.resolve({ value: undefined, done: true });
      };
      return {
        next() {
          if (finished) return end();
          try {
            events ??= planEvents(req);
          } catch (e) {
            finished = true;
            return Promise.reject(e instanceof Error ? e : new Error(String(e)));
          }
          if (i >= events.length) return end();
          const ev = events[i++];
          if (ev.type === 'delta' && req.signal?.aborted) {
            finished = true;
            // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- rejects with the abort reason, as fetch() does
            return Promise.reject(aborted(req.signal));
          }
          return Promise.resolve({ value: ev, done: false });
        },
        return: end,
      };
    },
  };
}

export function createDemoBackend(cfg: DemoConfig): LlmBackend {
  return {
    provider: 'demo',
    defaultModel: cfg.model,
    configured: () => true,
    stream: (req: LlmRequest) => (cfg.token_delay_ms ? paced(req, cfg.token_delay_ms) : instant(req)),
  };
}

export default definePlugin<DemoConfig>({
  setup(ctx) {
    ctx.registerLlm(createDemoBackend(ctx.config));
  },
});
