// Layer 5, AI review: an LLM reads the contract with the earlier layers' findings as context
// and answers with findings as JSON. Every proposed item is validated against a schema and
// mapped into the finding schema; invalid items are dropped and counted, never guessed at.
// A proposal that matches an earlier finding (same category, within a few lines, or naming its
// id) is a confirmation; anything else is `llm_only` with confidence at most 0.3, because a
// language model's claim about code is a lead, not evidence.
//
// The offline demo backend is not a language model (it answers with help text), so for the
// demo provider the review is produced here, deterministically: it explains each earlier
// finding against the code it points at and proposes nothing new. Its confirmations carry a
// token confidence (0.1): an echo must not make a finding look more certain.
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { LlmBackend, LlmMessage } from '../../kernel/contracts/llm.ts';
import { CATEGORIES, SEVERITIES, type Finding } from '../../schemas/finding.ts';
import { findingId, sliceLines } from '../../lib/analysis/ids.ts';
import { outlineSource, locate } from '../../lib/analysis/outline.ts';

export const AI_TOOL = 'vigil-ai';
export const LLM_ONLY_CAP = 0.3;
export const CONFIRM_CAP = 0.5;
export const DEMO_CONFIDENCE = 0.1;
/** Largest source sent to a model (characters); longer sources are cut with a note. */
export const MAX_PROMPT_SOURCE = 24_000;

export const ReviewItem = Type.Object(
  {
    title: Type.String({ minLength: 3, maxLength: 200 }),
    description: Type.String({ minLength: 3, maxLength: 4000 }),
    severity: Type.Union(SEVERITIES.map((s) => Type.Literal(s))),
    category: Type.Union(CATEGORIES.map((c) => Type.Literal(c))),
    line: Type.Integer({ minimum: 1 }),
    end_line: Type.Optional(Type.Integer({ minimum: 1 })),
    confidence: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
    recommendation: Type.Optional(Type.String({ maxLength: 2000 })),
    /** Id of an earlier finding this item confirms. */
    confirms: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  },
  { additionalProperties: true },
);
export type ReviewItem = Static<typeof ReviewItem>;

export function buildReviewMessages(source: string, file: string, prior: Finding[]): { messages: LlmMessage[]; truncated: boolean } {
  const truncated = source.length > MAX_PROMPT_SOURCE;
  const text = truncated ? source.slice(0, MAX_PROMPT_SOURCE) : source;
  const numbered = text
    .split('\n')
    .map((l, i) => `${String(i + 1).padStart(4)} | ${l}`)
    .join('\n');
  const priorList = prior.length
    ? prior.map((f) => `- id=${f.id} [${f.severity}] ${f.category} line ${f.location.line}: ${f.title} (${f.tools.join('+')})`).join('\n')
    : '- none';
  const system = [
    'You are a smart-contract security auditor. Review the Solidity source for vulnerabilities.',
    'Answer with ONE JSON object and nothing else: {"findings": [ITEM, ...]}.',
    `ITEM = {"title": string, "description": string, "severity": one of ${SEVERITIES.join('|')}, "category": one of ${CATEGORIES.join('|')}, "line": number (1-based line in the source), "end_line"?: number, "confidence"?: 0..1, "recommendation"?: string, "confirms"?: id of an earlier finding this item agrees with}.`,
    'Confirm or refute the earlier findings where you can (use "confirms"), and add only issues you can point to a line for. Do not repeat an earlier finding without confirming it. Return {"findings": []} when you find nothing.',
  ].join('\n');
  const user = `File: ${file}${truncated ? ` (first ${MAX_PROMPT_SOURCE} characters only)` : ''}\n\nEarlier findings (static and other layers):\n${priorList}\n\nSource:\n${numbered}`;
  return {
    messages: [
      { role: 'system', content: system },
      { role: 'user', content: user },
    ],
    truncated,
  };
}

/** Extracts the JSON object from a model's answer (tolerating code fences and surrounding prose). */
export function extractJson(text: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text);
  const body = fenced ? fenced[1] : text;
  const start = body.search(/[[{]/);
  if (start < 0) throw new Error('the answer holds no JSON');
  const open = body[start];
  const close = open === '{' ? '}' : ']';
  const end = body.lastIndexOf(close);
  if (end <= start) throw new Error('the answer holds no complete JSON value');
  return JSON.parse(body.slice(start, end + 1));
}

export function parseReview(text: string): { items: ReviewItem[]; dropped: string[] } {
  const dropped: string[] = [];
  let raw: unknown;
  try {
    raw = extractJson(text);
  } catch (e) {
    return { items: [], dropped: [`answer is not JSON: ${(e as Error).message}`] };
  }
  const list = Array.isArray(raw)
    ? raw
    : Array.isArray((raw as { findings?: unknown })?.findings)
      ? (raw as { findings: unknown[] }).findings
      : null;
  if (!list) return { items: [], dropped: ['answer has no "findings" array'] };
  const items: ReviewItem[] = [];
  list.forEach((item, i) => {
    // Models often send severities in lower case; that much is normalized, nothing more.
    const it = item && typeof item === 'object' ? { ...(item as Record<string, unknown>) } : item;
    if (it && typeof it === 'object' && typeof it.severity === 'string') it.severity = it.severity.toUpperCase();
    if (Value.Check(ReviewItem, it)) items.push(it);
    else {
      const err = [...Value.Errors(ReviewItem, it)][0];
      dropped.push(`item ${i}: ${err ? `${err.path || '/'} ${err.message}` : 'not an object'}`);
    }
  });
  return { items, dropped };
}

function matchPrior(item: ReviewItem, prior: Finding[]): Finding | null {
  if (item.confirms) {
    const byId = prior.find((f) => f.id === item.confirms);
    if (byId) return byId;
  }
  return prior.find((f) => f.category === item.category && Math.abs(f.location.line - item.line) <= 3) ?? null;
}

export function reviewToFindings(
  items: ReviewItem[],
  source: string,
  file: string,
  prior: Finding[],
  provider: string,
): { findings: Finding[]; dropped: string[] } {
  const lineCount = source.split('\n').length;
  const outline = outlineSource(source);
  const dropped: string[] = [];
  const out = new Map<string, Finding>();
  for (const [i, it] of items.entries()) {
    if (it.line > lineCount) {
      dropped.push(`item ${i}: line ${it.line} is past the end of the file (${lineCount} lines)`);
      continue;
    }
    const end = Math.min(lineCount, Math.max(it.line, it.end_line ?? it.line));
    const confirmed = matchPrior(it, prior);
    const where = locate(outline, confirmed?.location.line ?? it.line);
    const line = confirmed?.location.line ?? it.line;
    const endLine = confirmed?.location.end_line ?? end;
    const asked = it.confidence ?? (confirmed ? CONFIRM_CAP : LLM_ONLY_CAP);
    const confidence = provider === 'demo' ? DEMO_CONFIDENCE : Math.min(asked, confirmed ? CONFIRM_CAP : LLM_ONLY_CAP);
    const f: Finding = {
      id: findingId({
        detector: `ai:${it.category}`,
        contract: where.contract,
        function: where.function,
        code: sliceLines(source, line, endLine),
      }),
      detector: `ai-review`,
      title: it.title,
      description: it.description,
      severity: confirmed && provider === 'demo' ? confirmed.severity : it.severity,
      confidence: Math.round(confidence * 100) / 100,
      category: confirmed?.category ?? it.category,
      swc_id: confirmed?.swc_id ?? null,
      cwe_id: confirmed?.cwe_id ?? null,
      location: { file, line, end_line: endLine, contract: where.contract, function: where.function },
      tools: [AI_TOOL],
      layers: [5],
      recommendation: it.recommendation ?? confirmed?.recommendation ?? '',
      evidence: { kind: 'llm_review', provider, ...(confirmed ? { confirms: confirmed.id, confirms_tools: confirmed.tools } : {}) },
      ...(confirmed ? {} : { llm_only: true }),
    };
    if (!out.has(f.id)) out.set(f.id, f);
  }
  return { findings: [...out.values()], dropped };
}

const WHY: Record<string, string> = {
  reentrancy: 'control leaves the contract before its state is updated, so the callee can re-enter and act on stale state',
  access_control: 'nothing restricts who may run this, so any account can use a privileged effect',
  arithmetic: 'the arithmetic can wrap around silently on this compiler, corrupting balances or counters',
  unchecked_low_level_calls: 'a failed low-level call returns false instead of reverting, and the code carries on as if it succeeded',
  denial_of_service: 'a single failing call or a growing loop can block this path for everyone',
  bad_randomness: 'block values are known to (or chosen by) miners and other contracts, so the outcome is predictable',
  front_running: 'the effect depends on transaction order, which observers of the mempool can choose',
  time_manipulation: 'block timestamps can be nudged by the block producer',
  short_addresses: 'the input length is not checked, so a truncated argument shifts the others',
  other: 'the earlier layer flagged it as a weakness',
};

/** The demo provider's deterministic review: explains each earlier finding; invents nothing. */
export function demoReview(source: string, prior: Finding[]): ReviewItem[] {
  const seen = new Set<string>();
  const items: ReviewItem[] = [];
  for (const f of prior) {
    const key = `${f.category}:${f.location.line}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const code = sliceLines(source, f.location.line, Math.min(f.location.end_line, f.location.line + 2))
      .trim()
      .replace(/\s+/g, ' ');
    items.push({
      title: `Review: ${f.title}`,
      description: `Line ${f.location.line}${f.location.function ? ` in ${f.location.function}()` : ''}: \`${code.slice(0, 160)}\` — ${WHY[f.category] ?? WHY.other}. (Offline demo review: it explains the finding from ${f.tools.join(', ')}; set a provider key for a model's independent review.)`,
      severity: f.severity,
      category: f.category,
      line: f.location.line,
      end_line: f.location.end_line,
      confirms: f.id,
      recommendation: f.recommendation,
    });
  }
  return items;
}

/** Collects a streamed answer into text (stops at the signal). */
export async function complete(
  backend: LlmBackend,
  model: string,
  messages: LlmMessage[],
  signal: AbortSignal,
): Promise<{ text: string; usage: { prompt_tokens: number; completion_tokens: number } | null }> {
  let text = '';
  let usage: { prompt_tokens: number; completion_tokens: number } | null = null;
  for await (const ev of backend.stream({ model, messages, json: true, signal })) {
    if (signal.aborted) throw new Error('review cancelled at the deadline');
    if (ev.type === 'delta') text += ev.text;
    else if (ev.type === 'done') usage = ev.usage;
  }
  return { text, usage };
}
