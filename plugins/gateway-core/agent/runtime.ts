// The agent loop. One user turn: input guardrails -> (LLM step -> tool calls)* bounded by
// agent.max_turns -> answer. Each tool call is checked in this order: the skill exists, the
// permission set grants every capability it declares, the arguments match its JSON schema, the
// tool-argument guardrails pass, the approval policy allows it; only then does it run (with a
// time limit and the turn's abort signal), and its result passes the tool-result guardrails
// before the model sees it. A refused call is a tool result the model can read, never a crash.
// Chat and stream share this loop, so the two can never disagree.
import { randomUUID } from 'node:crypto';
import { context, trace, SpanStatusCode, type Context, type Span } from '@opentelemetry/api';
import { Ajv, type ValidateFunction } from 'ajv';
import type { Logger } from 'pino';
import {
  HttpError,
  type ApprovalRecord,
  type AuditEvent,
  type Capability,
  type GuardrailDirection,
  type KernelServices,
  type LlmMessage,
  type LlmToolSpec,
  type LlmUsage,
  type MessageRecord,
  type Skill,
} from '../../../kernel/index.ts';
import type { ApprovalGate, AuditSink, Tenancy, TenantContext, UsageMeter } from '../../../lib/gateway/contracts.ts';
import type { GuardrailAccess } from './guard.ts';
import { chooseBackend, type BackendChoice } from '../../../lib/gateway/agent/llm-select.ts';
import { gatewayMetrics, type GatewayMetrics } from './metrics.ts';
import { OutputGate, WholeAnswerGate } from './output-gate.ts';
import { missingCapabilities, type PermissionPolicy } from '../../../lib/gateway/agent/permissions.ts';
import { LlmProviderError, isAbortError } from '../../../lib/gateway/agent/provider-error.ts';
import type {
  AgentService,
  ChatResult,
  DirectCallRequest,
  Emit,
  GuardrailEventRecord,
  PendingApprovalInfo,
  ToolCallRecord,
  ToolCallStatus,
} from '../../../lib/gateway/agent/types.ts';

export interface AgentOptions {
  maxTurns: number;
  skillTimeoutMs: number;
  historyLimit: number;
  maxToolOutputChars: number;
  systemPrompt: string;
}

export const DEFAULT_AGENT_OPTIONS: AgentOptions = {
  maxTurns: 8,
  skillTimeoutMs: 30_000,
  historyLimit: 60,
  maxToolOutputChars: 16_000,
  systemPrompt:
    'You are vigil, an assistant for smart-contract engineers. Use the tools you are given when they help; ' +
    'never invent tool results. Answer concisely and say plainly when a tool failed or was refused.',
};

const PAUSED = 'agent_paused_turns';

export interface TurnRequest {
  tenant: TenantContext;
  sessionId?: string;
  message: string;
  /** The end user this conversation is about (GDPR subject id); stored with a new session. */
  subject?: string;
}

interface QueuedCall {
  id: string;
  name: string;
  arguments: string;
  /** Set when resuming after a decided approval. */
  decided?: ApprovalRecord;
}

interface PausedTurn {
  approval_id: string;
  tenant: string | null;
  permissions: Capability[] | null;
  /** The key whose request paused (TenantContext.key): it may not decide the next approval either. */
  key?: string | null;
  session_id: string;
  provider: string;
  model: string;
  steps: number;
  call: QueuedCall;
  queue: QueuedCall[];
}

/** A turn whose request-level checks passed; run() does the work. */
export interface PreparedTurn {
  state: TurnState;
  /** Ends the turn span and releases the session when run() is never called. */
  cancel(): void;
}

interface TurnState {
  tenant: TenantContext;
  sessionId: string;
  isNew: boolean;
  title: string;
  subject: string | null;
  choice: BackendChoice;
  caps: Capability[];
  permissionSet: string;
  messages: LlmMessage[];
  fresh: Array<Omit<MessageRecord, 'seq' | 'session_id' | 'created_at'>>;
  queue: QueuedCall[];
  steps: number;
  usage: LlmUsage;
  toolCalls: ToolCallRecord[];
  guardrails: GuardrailEventRecord[];
  response: string;
  span: Span;
  ctx: Context;
  emit: Emit;
  signal: AbortSignal;
  waitForApprovals: boolean;
  released: boolean;
  /** Set for a single call made outside a chat turn (callSkillDirect). */
  direct?: DirectCallOptions;
}

/** What identifies a turn; newTurn() fills in the per-turn accumulators. */
type TurnInit = Pick<
  TurnState,
  'tenant' | 'sessionId' | 'isNew' | 'choice' | 'caps' | 'permissionSet' | 'span' | 'ctx' | 'emit' | 'signal' | 'waitForApprovals'
> &
  Partial<Pick<TurnState, 'subject' | 'messages' | 'queue' | 'steps' | 'released' | 'direct'>>;

function newTurn(init: TurnInit): TurnState {
  return {
    title: '',
    subject: null,
    messages: [],
    fresh: [],
    queue: [],
    steps: 0,
    usage: { prompt_tokens: 0, completion_tokens: 0 },
    toolCalls: [],
    guardrails: [],
    response: '',
    released: false,
    ...init,
  };
}

/** How a call made outside a chat turn (an MCP tools/call) differs from one the model makes. */
interface DirectCallOptions {
  /** Where the call came from, recorded in the audit detail ("mcp"). */
  origin: string;
  /** Callables that are not registered skills (the MCP analysis operations), looked up first. */
  resolve?: (name: string) => Skill | undefined;
  /** Result size limit (the caller is not a model context window). */
  maxOutputChars: number;
  /** Time limit for this call instead of agent.skill_timeout_ms (an analysis carries its own budget). */
  timeoutMs?: number;
  /** Direction the result is checked in: 'tool_result' when a model reads it next, 'output' when it
   *  goes straight back to the caller (an MCP client), like an answer. */
  resultDirection?: 'tool_result' | 'output';
}

class GuardrailBlock extends Error {
  constructor(
    readonly layer: string,
    readonly direction: GuardrailDirection,
  ) {
    super(`blocked by guardrail layer "${layer}" (${direction})`);
  }
}

const noop: Emit = () => {};

/**
 * A new session's id: a UUIDv7 (RFC 9562), the creation time in milliseconds followed by 74
 * random bits. Ids made one after the other sort together, so a new session's rows land next to
 * the previous session's in the store's indexes (a random v4 id dirtied one more index page per
 * turn, written at each commit: ~35% of the store's cost per turn). Still unguessable; the time
 * it reveals is the session's created_at.
 */
export function sessionUuid(now = Date.now()): string {
  const t = now.toString(16).padStart(12, '0');
  // randomUUID() is "xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx": its time-free tail keeps the variant.
  return `${t.slice(0, 8)}-${t.slice(8, 12)}-7${randomUUID().slice(15)}`;
}

export class AgentRuntimeImpl implements AgentService {
  readonly metrics: GatewayMetrics;
  private readonly active = new Map<string, number>();
  private readonly waiting = new Set<string>();
  private readonly validators = new WeakMap<Skill, ValidateFunction>();
  private readonly ajv = new Ajv({ allErrors: false, strict: false, useDefaults: true });
  private readonly resumes = new Set<Promise<void>>();

  constructor(
    private readonly services: KernelServices,
    private readonly log: Logger,
    readonly policy: PermissionPolicy,
    readonly guardrails: GuardrailAccess,
    readonly opts: AgentOptions = DEFAULT_AGENT_OPTIONS,
  ) {
    this.metrics = gatewayMetrics(services.metrics);
  }

  activeSessions(): number {
    return this.active.size;
  }

  backend(): BackendChoice {
    return chooseBackend(this.services.registry, this.services.settings.file);
  }

  /** Skills with whether the tenant's permission set allows each. */
  skillsFor(tenant: TenantContext): Array<{ skill: Skill; allowed: boolean; missing: Capability[] }> {
    const { capabilities } = this.policy.forTenant(tenant);
    return this.services.registry
      .skills()
      .map((skill) => {
        const missing = missingCapabilities(skill, capabilities);
        return { skill, allowed: missing.length === 0, missing };
      })
      .sort((a, b) => a.skill.name.localeCompare(b.skill.name));
  }

  /**
   * The tool list offered to the model for a set of capabilities: the allowed skills, sorted by
   * name. Built once per capability list and kept while the registered skills stay the same (a
   * plugin registering or dropping a skill rebuilds it); the same frozen array every step, so a
   * backend may cache what it derives from it.
   */
  private toolsFor(caps: Capability[]): LlmToolSpec[] {
    const skills = this.services.registry.skills();
    const hit = this.toolCache.get(caps);
    if (hit && (hit.skills === skills || (hit.skills.length === skills.length && hit.skills.every((x, i) => x === skills[i]))))
      return hit.tools;
    const tools = Object.freeze(
      skills
        .filter((skill) => missingCapabilities(skill, caps).length === 0)
        .sort((a, b) => a.name.localeCompare(b.name))
        .map((skill) => Object.freeze({ name: skill.name, description: skill.description, parameters: skill.inputSchema })),
    ) as LlmToolSpec[];
    this.toolCache.set(caps, { skills, tools });
    return tools;
  }
  private readonly toolCache = new WeakMap<Capability[], { skills: Skill[]; tools: LlmToolSpec[] }>();

  /** Request-level checks that must answer with a 4xx before any streaming starts. */
  async prepare(req: TurnRequest, signal: AbortSignal, emit: Emit = noop, waitForApprovals = false): Promise<PreparedTurn> {
    const parent = context.active();
    const span = this.services.tracer.startSpan('agent.turn', { attributes: { 'vigil.tenant': req.tenant.name ?? 'local' } }, parent);
    const ctx = trace.setSpan(parent, span);
    const fail = (e: unknown): never => {
      span.setAttribute('vigil.outcome', e instanceof HttpError ? e.code : 'error');
      span.setStatus({ code: SpanStatusCode.ERROR, message: (e as Error).message });
      span.end();
      throw e;
    };
    const choice = this.backend();
    span.setAttribute('vigil.model', choice.label);
    let sessionId: string;
    let isNew: boolean;
    let history: LlmMessage[] = [];
    if (req.sessionId) {
      const s = await this.services.store.getSession(req.sessionId, req.tenant.name);
      if (!s) return fail(new HttpError(404, 'session_not_found', `session ${req.sessionId} does not exist`));
      sessionId = s.id;
      isNew = false;
    } else {
      sessionId = sessionUuid();
      isNew = true;
    }
    span.setAttribute('vigil.session_id', sessionId);
    if (this.active.has(sessionId))
      return fail(new HttpError(409, 'conflict', `session ${sessionId} already has a turn in progress; wait for it to finish`));
    const usage = this.services.get<UsageMeter>('usage');
    if (usage) await usage.assertAvailable(req.tenant.name).catch(fail);

    const { capabilities, name: permissionSet } = this.policy.forTenant(req.tenant);
    // The title is set from the guardrail-checked text below: a title is listed on the dashboard.
    const state = newTurn({
      tenant: req.tenant,
      sessionId,
      isNew,
      subject: req.subject ?? null,
      choice,
      caps: capabilities,
      permissionSet,
      span,
      ctx,
      emit,
      signal,
      waitForApprovals,
    });
    // Input guardrails: a block is a 403 before anything is stored; a redaction replaces the message.
    let message: string;
    try {
      message = await this.guard(state, req.message, 'input');
    } catch (e) {
      if (e instanceof GuardrailBlock) {
        this.metrics.turns.inc({ outcome: 'blocked' });
        await this.audit({
          tenant: req.tenant.name,
          type: 'agent.turn',
          outcome: 'blocked',
          session_id: isNew ? null : sessionId,
          detail: { layer: e.layer, direction: 'input' },
        });
        return fail(
          new HttpError(403, 'guardrail_blocked', `the message was blocked by the ${e.layer} guardrail`, {
            layer: e.layer,
            direction: 'input',
          }),
        );
      }
      return fail(e);
    }
    state.title = message.slice(0, 80);
    if (!isNew) history = await this.loadHistory(sessionId);
    state.messages = [{ role: 'system', content: this.opts.systemPrompt }, ...history, { role: 'user', content: message }];
    state.fresh.push({ role: 'user', content: message, data: message !== req.message ? { redacted: true } : null });

    const tenancy = this.services.get<Tenancy>('tenancy');
    if (tenancy) await tenancy.sessionOpened(req.tenant.name, sessionId).catch(fail);
    this.open(sessionId);
    return { state, cancel: () => this.release(state, 'cancelled') };
  }

  async chat(req: TurnRequest, signal: AbortSignal): Promise<ChatResult> {
    const p = await this.prepare(req, signal);
    return this.run(p);
  }

  /** Runs a prepared turn to its end (answer, pause on approval, block, abort or provider failure). */
  async run(p: PreparedTurn): Promise<ChatResult> {
    const s = p.state;
    s.emit({ event: 'session', data: { session_id: s.sessionId, model: s.choice.label } });
    return context.with(s.ctx, () => this.loop(s));
  }

  private async loop(s: TurnState): Promise<ChatResult> {
    let outcome = 'success';
    try {
      for (;;) {
        while (s.queue.length) {
          const call = s.queue.shift()!;
          const paused = await this.execCall(s, call);
          if (paused) {
            outcome = 'paused';
            await this.persist(s);
            return this.result(s, paused);
          }
        }
        if (s.steps >= this.opts.maxTurns) {
          const note = `${s.response ? '\n\n' : ''}[stopped: the agent reached its limit of ${this.opts.maxTurns} model calls for one turn (agent.max_turns)]`;
          s.response += note;
          s.emit({ event: 'delta', data: { text: note } });
          s.fresh.push({ role: 'assistant', content: note.trim(), data: { limit: true } });
          outcome = 'max_turns';
          break;
        }
        const step = await this.llmStep(s);
        s.messages.push({ role: 'assistant', content: step.text || null, tool_calls: step.calls.length ? step.calls : undefined });
        s.fresh.push({ role: 'assistant', content: step.text || null, data: step.calls.length ? { tool_calls: step.calls } : null });
        if (!step.calls.length) break;
        s.queue.push(...step.calls);
      }
      await this.persist(s);
      const r = this.result(s);
      s.emit({ event: 'done', data: r });
      return r;
    } catch (e) {
      outcome = this.failureOutcome(e, s.signal);
      if (e instanceof GuardrailBlock) {
        // Output blocked mid-answer: keep the turn (tools may have run) but never the blocked text.
        s.fresh.push({ role: 'assistant', content: `[answer withheld by the ${e.layer} guardrail]`, data: { blocked: e.layer } });
        await this.persist(s).catch(() => {});
        throw new HttpError(403, 'guardrail_blocked', `the answer was blocked by the ${e.layer} guardrail`, {
          layer: e.layer,
          direction: e.direction,
        });
      }
      if (s.fresh.length > 1) await this.persist(s).catch(() => {});
      if (outcome === 'aborted') throw new HttpError(499, 'client_closed', 'the client closed the connection; the turn was stopped');
      if (e instanceof LlmProviderError) {
        throw new HttpError(502, 'provider_error', `LLM provider ${e.provider} failed: ${e.message}`, {
          provider: e.provider,
          status: e.status,
        });
      }
      throw e;
    } finally {
      s.span.setAttribute('vigil.outcome', outcome);
      s.span.setAttribute('vigil.steps', s.steps);
      s.span.setAttribute('vigil.tokens.prompt', s.usage.prompt_tokens);
      s.span.setAttribute('vigil.tokens.completion', s.usage.completion_tokens);
      if (outcome !== 'success' && outcome !== 'paused' && outcome !== 'max_turns')
        s.span.setStatus({ code: SpanStatusCode.ERROR, message: outcome });
      this.metrics.turns.inc({ outcome });
      await this.audit({
        tenant: s.tenant.name,
        type: 'agent.turn',
        outcome:
          outcome === 'success' || outcome === 'max_turns'
            ? 'success'
            : outcome === 'paused'
              ? 'info'
              : outcome === 'blocked'
                ? 'blocked'
                : 'failure',
        session_id: s.sessionId,
        detail: { model: s.choice.label, steps: s.steps, tool_calls: s.toolCalls.length, usage: s.usage, outcome },
      });
      this.release(s, outcome);
    }
  }

  private failureOutcome(e: unknown, signal: AbortSignal): string {
    if (e instanceof GuardrailBlock) return 'blocked';
    if (isAbortError(e, signal)) return 'aborted';
    if (e instanceof LlmProviderError) return 'provider_error';
    return 'error';
  }

  private result(s: TurnState, pending?: PendingApprovalInfo): ChatResult {
    const r: ChatResult = {
      session_id: s.sessionId,
      response: s.response,
      tool_calls: s.toolCalls,
      guardrails: s.guardrails,
      usage: { ...s.usage },
      model: s.choice.label,
    };
    if (pending) r.pending_approval = pending;
    return r;
  }

  // --- LLM step -------------------------------------------------------------------------------

  private async llmStep(s: TurnState): Promise<{ text: string; calls: QueuedCall[] }> {
    const { choice } = s;
    if (!choice.backend || choice.problem) throw new LlmProviderError(choice.provider, choice.problem ?? 'not available');
    const tools = this.toolsFor(s.caps);
    const span = this.services.tracer.startSpan(
      'llm.request',
      {
        attributes: {
          'vigil.provider': choice.provider,
          'vigil.model': choice.model,
          'vigil.session_id': s.sessionId,
          'vigil.tools': tools.length,
        },
      },
      s.ctx,
    );
    const t0 = performance.now();
    // The step's released text, joined when the step ends (added to s.response then, with `sep`):
    // a string concatenation per token, twice, was a good part of a turn's garbage.
    const parts: string[] = [];
    let text = '';
    const calls: QueuedCall[] = [];
    let usage: LlmUsage = { prompt_tokens: 0, completion_tokens: 0 };
    const sep = s.response && !s.response.endsWith('\n') ? '\n\n' : '';
    let first = true;
    const check = (seg: string) => context.with(s.ctx, () => this.guard(s, seg, 'output'));
    // A streamed answer is checked sentence by sentence as it goes out; an answer nobody streams
    // (the synchronous chat endpoint, a turn resumed after an approval) is checked once, whole,
    // when the model's step is complete: the client receives it whole, so the check sees what
    // the client will see (see ./output-gate.ts).
    const gate =
      s.emit === noop
        ? new WholeAnswerGate(check, (t) => parts.push(t))
        : new OutputGate(check, (t) => {
            if (first && sep) s.emit({ event: 'delta', data: { text: sep } });
            first = false;
            parts.push(t);
            s.emit({ event: 'delta', data: { text: t } });
          });
    let outcome = 'success';
    try {
      for await (const ev of choice.backend.stream({ model: choice.model, messages: s.messages, tools, signal: s.signal })) {
        if (s.signal.aborted) throw s.signal.reason ?? new DOMException('aborted', 'AbortError');
        if (ev.type === 'delta') {
          const released = gate.push(ev.text);
          if (released) await released;
        } else if (ev.type === 'tool_call')
          calls.push({ id: ev.id || `call_${randomUUID().slice(0, 8)}`, name: ev.name, arguments: ev.arguments });
        else if (ev.type === 'done') usage = ev.usage;
      }
      await gate.flush();
      text = parts.join('');
      return { text, calls };
    } catch (e) {
      outcome = this.failureOutcome(e, s.signal);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (e as Error).message });
      if (!(e instanceof GuardrailBlock) && !isAbortError(e, s.signal) && !(e instanceof LlmProviderError)) {
        throw new LlmProviderError(choice.provider, (e as Error).message || String(e));
      }
      throw e;
    } finally {
      // What was released (and only that) is part of the answer, whether the step ended or failed.
      if (parts.length) s.response += sep + (text || parts.join(''));
      s.steps++;
      const secs = (performance.now() - t0) / 1000;
      s.usage.prompt_tokens += usage.prompt_tokens;
      s.usage.completion_tokens += usage.completion_tokens;
      span.setAttribute('vigil.tokens.prompt', usage.prompt_tokens);
      span.setAttribute('vigil.tokens.completion', usage.completion_tokens);
      span.setAttribute('vigil.tool_calls', calls.length);
      span.setAttribute('vigil.outcome', outcome);
      span.end();
      this.metrics.llmDuration.observe({ provider: choice.provider, model: choice.model, outcome }, secs);
      if (usage.prompt_tokens)
        this.metrics.llmTokens.inc({ provider: choice.provider, model: choice.model, type: 'prompt' }, usage.prompt_tokens);
      if (usage.completion_tokens)
        this.metrics.llmTokens.inc({ provider: choice.provider, model: choice.model, type: 'completion' }, usage.completion_tokens);
      const meter = this.services.get<UsageMeter>('usage');
      const total = usage.prompt_tokens + usage.completion_tokens;
      if (meter && total) await meter.consume(s.tenant.name, total).catch((err) => this.log.warn({ err }, 'usage meter failed'));
    }
  }

  // --- guardrails ------------------------------------------------------------------------------

  /** Runs the chain; returns the (possibly redacted) text or throws GuardrailBlock. */
  private async guard(s: TurnState, text: string, direction: GuardrailDirection, toolCallId?: string): Promise<string> {
    if (!text) return text;
    const span = this.services.tracer.startSpan(
      'guardrail.check',
      { attributes: { 'vigil.direction': direction, 'vigil.session_id': s.sessionId, 'vigil.chars': text.length } },
      s.ctx,
    );
    try {
      const r = await this.guardrails.run(text, direction);
      span.setAttribute('vigil.action', r.action);
      if (r.errors?.length) span.setAttribute('vigil.layer_errors', r.errors.map((x) => x.layer).join(','));
      if (r.action === 'allow') return text;
      const byLayer = new Map<string, { action: 'log' | 'redact' | 'block'; kinds: Set<string> }>();
      for (const f of r.findings) {
        const cur = byLayer.get(f.layer) ?? { action: f.action, kinds: new Set<string>() };
        if (f.action === 'block' || (f.action === 'redact' && cur.action === 'log')) cur.action = f.action;
        cur.kinds.add(f.kind);
        byLayer.set(f.layer, cur);
      }
      if (r.action === 'block' && r.blocked_by && !byLayer.has(r.blocked_by))
        byLayer.set(r.blocked_by, { action: 'block', kinds: new Set(['blocked']) });
      for (const [layer, v] of byLayer) {
        const ev: GuardrailEventRecord = { direction, action: v.action, layer, kinds: [...v.kinds] };
        if (toolCallId) ev.tool_call_id = toolCallId;
        s.guardrails.push(ev);
        s.emit({ event: 'guardrail', data: ev });
        await this.audit({
          tenant: s.tenant.name,
          type: 'guardrail.hit',
          outcome: v.action === 'block' ? 'blocked' : 'info',
          session_id: s.isNew ? null : s.sessionId,
          detail: { ...ev },
        });
      }
      span.setAttribute('vigil.layers', [...byLayer.keys()].join(','));
      if (r.action === 'block') throw new GuardrailBlock(r.blocked_by ?? [...byLayer.keys()][0] ?? 'chain', direction);
      return r.action === 'redact' ? r.redacted_text : text;
    } finally {
      span.end();
    }
  }

  // --- tool calls ------------------------------------------------------------------------------

  /** Runs one tool call; returns the pending approval when the turn must pause. */
  private async execCall(s: TurnState, call: QueuedCall): Promise<PendingApprovalInfo | null> {
    const t0 = performance.now();
    const span = this.services.tracer.startSpan(
      'skill.call',
      {
        attributes: {
          'vigil.skill': call.name,
          'vigil.session_id': s.sessionId,
          'vigil.tenant': s.tenant.name ?? 'local',
          'vigil.tool_call_id': call.id,
        },
      },
      s.ctx,
    );
    let parsed: unknown = call.arguments;
    const finish = async (status: ToolCallStatus, output: unknown, error?: string): Promise<null> => {
      const rec: ToolCallRecord = {
        id: call.id,
        name: call.name,
        arguments: parsed,
        status,
        ok: status === 'ok',
        output,
        duration_ms: Math.round((performance.now() - t0) * 100) / 100,
      };
      if (error) rec.error = error;
      s.toolCalls.push(rec);
      s.emit({ event: 'tool_result', data: rec });
      const forModel = JSON.stringify(
        status === 'ok' ? { ok: true, output } : { ok: false, status, error, ...(output != null ? { output } : {}) },
      );
      const content =
        forModel.length > this.opts.maxToolOutputChars ? forModel.slice(0, this.opts.maxToolOutputChars) + '…[truncated]' : forModel;
      s.messages.push({ role: 'tool', tool_call_id: call.id, name: call.name, content });
      s.fresh.push({ role: 'tool', content, data: { tool_call_id: call.id, name: call.name, status } });
      this.metrics.skillCalls.inc({ skill: call.name, outcome: status });
      this.metrics.skillDuration.observe({ skill: call.name }, rec.duration_ms / 1000);
      span.setAttribute('vigil.outcome', status);
      if (status !== 'ok') span.setStatus({ code: SpanStatusCode.ERROR, message: error ?? status });
      span.end();
      const outcome: AuditEvent['outcome'] =
        status === 'ok' ? 'success' : status === 'denied' ? 'denied' : status === 'blocked' ? 'blocked' : 'failure';
      await this.audit({
        tenant: s.tenant.name,
        type: 'skill.call',
        outcome,
        session_id: s.direct ? null : s.sessionId,
        detail: {
          skill: call.name,
          tool_call_id: call.id,
          status,
          duration_ms: rec.duration_ms,
          ...(error ? { error } : {}),
          ...(s.direct ? { via: s.direct.origin, call_session: s.sessionId } : {}),
        },
      });
      return null;
    };

    if (!call.decided) {
      try {
        parsed = call.arguments.trim() ? JSON.parse(call.arguments) : {};
      } catch {
        s.emit({ event: 'tool_call', data: { id: call.id, name: call.name, arguments: call.arguments } });
        return finish('invalid_args', null, `invalid_arguments: the arguments for "${call.name}" are not valid JSON`);
      }
      s.emit({ event: 'tool_call', data: { id: call.id, name: call.name, arguments: parsed } });
    } else {
      parsed = call.decided.input;
    }
    const skill = s.direct?.resolve?.(call.name) ?? this.services.registry.skill(call.name);
    if (!skill) {
      const known = this.skillsFor(s.tenant)
        .filter((x) => x.allowed)
        .map((x) => x.skill.name);
      return finish(
        'unknown_skill',
        null,
        `unknown_skill: there is no skill named "${call.name}" (available: ${known.join(', ') || 'none'})`,
      );
    }
    const missing = missingCapabilities(skill, s.caps);
    if (missing.length) {
      return finish(
        'denied',
        null,
        `capability_denied: skill "${skill.name}" needs ${missing.join(', ')}, which the permission set "${s.permissionSet}" does not grant`,
      );
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      return finish('invalid_args', null, `invalid_arguments: the arguments for "${skill.name}" must be a JSON object`);
    }
    let input = parsed as Record<string, unknown>;
    if (!call.decided) {
      const validate = this.validator(skill);
      if (!validate(input)) {
        const e = validate.errors?.[0];
        const where = e?.instancePath ? `"${e.instancePath.slice(1).replace(/\//g, '.')}"` : 'input';
        const extra =
          e?.keyword === 'enum'
            ? ` (${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')})`
            : e?.keyword === 'additionalProperties'
              ? ` ("${(e.params as { additionalProperty: string }).additionalProperty}")`
              : '';
        return finish(
          'invalid_args',
          null,
          `invalid_arguments: ${where} ${e?.message ?? 'does not match the schema'}${extra} for skill "${skill.name}"`,
        );
      }
      try {
        const argsText = JSON.stringify(input);
        const checked = await this.guard(s, argsText, 'tool_args', call.id);
        if (checked !== argsText) {
          try {
            input = JSON.parse(checked);
          } catch {
            return finish('blocked', null, 'guardrail: the arguments were redacted and are no longer valid JSON; the call was not made');
          }
        }
      } catch (e) {
        if (e instanceof GuardrailBlock)
          return finish('blocked', null, `guardrail_blocked: the ${e.layer} guardrail blocked these arguments; the call was not made`);
        throw e;
      }
      const gate = this.services.get<ApprovalGate>('approvals');
      if (gate) {
        const verdict = await gate.check({
          tenant: s.tenant.name,
          key: s.tenant.key ?? null,
          sessionId: s.sessionId,
          skill: skill.name,
          capabilities: skill.capabilities,
          input,
          toolCallId: call.id,
        });
        if (verdict.decision === 'pending') {
          const a = verdict.approval;
          const info: PendingApprovalInfo = {
            approval_id: a.id,
            tool_call_id: call.id,
            skill: skill.name,
            input,
            expires_at: a.expires_at,
          };
          span.setAttribute('vigil.outcome', 'pending');
          span.end();
          this.metrics.skillCalls.inc({ skill: skill.name, outcome: 'pending' });
          s.emit({ event: 'approval_required', data: info });
          if (s.direct) {
            // No turn to resume later: the caller waits for the decision (or goes away, and the
            // approval expires unused). Nothing is stored for resumeAfterApproval.
            const decided = await gate.waitFor(a.id, s.tenant.name, s.signal);
            return this.execCall(s, { ...call, decided });
          }
          const paused: PausedTurn = {
            approval_id: a.id,
            tenant: s.tenant.name,
            permissions: s.tenant.permissions,
            key: s.tenant.key ?? null,
            session_id: s.sessionId,
            provider: s.choice.provider,
            model: s.choice.model,
            steps: s.steps,
            call: { ...call, arguments: JSON.stringify(input) },
            queue: [...s.queue],
          };
          // Stored before waiting, so a decision that arrives after a disconnect can still resume.
          await this.services.store.putRecord(PAUSED, a.id, paused as unknown as Record<string, unknown>, s.tenant.name);
          if (!s.waitForApprovals) {
            s.toolCalls.push({
              id: call.id,
              name: skill.name,
              arguments: input,
              status: 'pending',
              ok: false,
              output: null,
              duration_ms: 0,
            });
            s.queue.length = 0;
            return info;
          }
          this.waiting.add(a.id);
          let decided: ApprovalRecord;
          try {
            decided = await gate.waitFor(a.id, s.tenant.name, s.signal);
          } finally {
            this.waiting.delete(a.id);
          }
          if (!(await this.services.store.deleteRecord(PAUSED, a.id, s.tenant.name))) {
            return this.execCall(s, {
              ...call,
              decided: { ...decided, status: 'denied', reason: 'the approval was already resumed elsewhere' },
            });
          }
          return this.execCall(s, { ...call, decided });
        }
      }
    }
    if (call.decided && call.decided.status !== 'approved') {
      return finish(
        'denied',
        null,
        `approval_${call.decided.status}: a human ${call.decided.status === 'expired' ? 'did not decide in time' : 'denied this call'}${call.decided.reason ? ` (${call.decided.reason})` : ''}`,
      );
    }
    span.setAttribute('vigil.capabilities', skill.capabilities.join(','));
    const r = await this.callSkill(skill, input, s);
    if (r.aborted) throw s.signal.reason ?? new DOMException('aborted', 'AbortError');
    if (!r.ok) return finish('error', r.output ?? null, r.error ?? 'the skill failed');
    let output = r.output;
    let outText = typeof output === 'string' ? output : JSON.stringify(output ?? null);
    const maxChars = s.direct?.maxOutputChars ?? this.opts.maxToolOutputChars;
    if (outText.length > maxChars) {
      // The model only ever sees this much; the client gets the same view (and the guardrails check it).
      output = { truncated: true, total_chars: outText.length, text: outText.slice(0, maxChars) };
      outText = JSON.stringify(output);
    }
    try {
      const checked = await this.guard(s, outText, s.direct?.resultDirection ?? 'tool_result', call.id);
      if (checked !== outText) {
        try {
          output = typeof output === 'string' ? checked : JSON.parse(checked);
        } catch {
          output = checked;
        }
      }
    } catch (e) {
      if (e instanceof GuardrailBlock) return finish('blocked', null, `guardrail_blocked: the ${e.layer} guardrail withheld this result`);
      throw e;
    }
    return finish('ok', output);
  }

  /**
   * One skill call outside a chat turn (MCP tools/call), through the same execCall as a call the
   * model makes: skill lookup, permission set, schema, tool-argument guardrails, approval policy,
   * time limit, tool-result guardrails, metrics, the skill.call span and the audit event. An
   * approval is waited for inline. Nothing is stored as a chat session.
   */
  async callSkillDirect(req: DirectCallRequest): Promise<{ record: ToolCallRecord; guardrails: GuardrailEventRecord[] }> {
    const parent = context.active();
    const span = this.services.tracer.startSpan(
      'agent.direct_call',
      { attributes: { 'vigil.tenant': req.tenant.name ?? 'local', 'vigil.origin': req.origin, 'vigil.skill': req.name } },
      parent,
    );
    const { capabilities, name: permissionSet } = this.policy.forTenant(req.tenant);
    const s = newTurn({
      tenant: req.tenant,
      sessionId: req.sessionId ?? `${req.origin}-${randomUUID()}`,
      isNew: true,
      choice: {
        provider: 'none',
        model: 'none',
        label: 'none',
        backend: null,
        problem: 'no model takes part in a direct call',
        source: 'config',
      },
      caps: capabilities,
      permissionSet,
      span,
      ctx: trace.setSpan(parent, span),
      emit: req.emit ?? noop,
      signal: req.signal,
      waitForApprovals: true,
      released: true,
      direct: {
        origin: req.origin,
        resolve: req.resolve,
        maxOutputChars: req.maxOutputChars ?? this.opts.maxToolOutputChars,
        timeoutMs: req.timeoutMs,
        resultDirection: req.resultDirection,
      },
    });
    const call: QueuedCall = { id: `call_${randomUUID().slice(0, 12)}`, name: req.name, arguments: JSON.stringify(req.input ?? {}) };
    try {
      await context.with(s.ctx, () => this.execCall(s, call));
    } catch (e) {
      if (!req.signal.aborted) throw e;
      s.toolCalls.push({
        id: call.id,
        name: req.name,
        arguments: req.input,
        status: 'aborted',
        ok: false,
        output: null,
        error: 'aborted: the caller went away before the call finished',
        duration_ms: 0,
      });
    } finally {
      span.end();
    }
    return { record: s.toolCalls[s.toolCalls.length - 1], guardrails: s.guardrails };
  }

  private validator(skill: Skill): ValidateFunction {
    let v = this.validators.get(skill);
    if (!v) {
      try {
        v = this.ajv.compile(skill.inputSchema);
      } catch (e) {
        const msg = `skill schema is invalid: ${(e as Error).message}`;
        v = Object.assign(() => false, {
          errors: [{ instancePath: '', message: msg, keyword: 'schema', params: {}, schemaPath: '' }],
        }) as unknown as ValidateFunction;
      }
      this.validators.set(skill, v);
    }
    return v;
  }

  private async callSkill(
    skill: Skill,
    input: Record<string, unknown>,
    s: TurnState,
  ): Promise<{ ok: boolean; output?: unknown; error?: string; aborted?: boolean }> {
    const limitMs = s.direct?.timeoutMs ?? this.opts.skillTimeoutMs;
    // The skill's signal aborts when the turn does (with its reason) or when the time limit
    // passes (a TimeoutError, as AbortSignal.timeout gives). One controller and a plain timer,
    // cleared when the call ends: AbortSignal.timeout + AbortSignal.any cost ~20-40 µs of CPU
    // per call in Node 20 (weakly held signals, a timer left running for the whole limit).
    const ac = new AbortController();
    const signal = ac.signal;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      ac.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
    }, limitMs);
    timer.unref?.();
    const onTurnAbort = () => ac.abort(s.signal.reason);
    if (s.signal.aborted) onTurnAbort();
    else s.signal.addEventListener('abort', onTurnAbort, { once: true });
    let onAbort: (() => void) | undefined;
    // A skill that ignores its signal still cannot hold the turn past the limit.
    const stop = new Promise<never>((_, rej) => {
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- rejects with the abort reason, as fetch() does
      onAbort = () => rej(signal.reason);
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      const r = await Promise.race([
        skill.call(input, { sessionId: s.sessionId, tenant: s.tenant.name, signal, workspace: this.services.settings.workspace }),
        stop,
      ]);
      return { ok: r.ok, output: r.output, error: r.error };
    } catch (e) {
      if (s.signal.aborted) return { ok: false, aborted: true };
      if (timedOut) return { ok: false, error: `timeout: skill "${skill.name}" did not finish within ${limitMs} ms` };
      return { ok: false, error: `skill "${skill.name}" failed: ${(e as Error).message || String(e)}` };
    } finally {
      clearTimeout(timer);
      s.signal.removeEventListener('abort', onTurnAbort);
      if (onAbort) signal.removeEventListener('abort', onAbort);
    }
  }

  // --- approvals -------------------------------------------------------------------------------

  async resumeAfterApproval(approval: ApprovalRecord): Promise<void> {
    // A stream waiting on this approval resumes the turn itself and shows the client the result.
    if (this.waiting.has(approval.id)) return;
    const raw = await this.services.store.getRecord(PAUSED, approval.id, approval.tenant);
    if (!raw || !(await this.services.store.deleteRecord(PAUSED, approval.id, approval.tenant))) return;
    const p = raw as unknown as PausedTurn;
    const job = this.resume(p, approval);
    this.resumes.add(job);
    try {
      await job;
    } finally {
      this.resumes.delete(job);
    }
  }

  private async resume(p: PausedTurn, approval: ApprovalRecord): Promise<void> {
    const tenant: TenantContext = { name: p.tenant, permissions: p.permissions, key: p.key ?? null };
    if (this.active.has(p.session_id)) {
      // The session is busy with another turn; record the decision as a note the next turn will see.
      await this.services.store.appendMessages(p.session_id, [
        {
          role: 'tool',
          content: JSON.stringify({ ok: false, status: 'denied', error: 'the approval arrived while another turn was running; ask again' }),
          data: { tool_call_id: p.call.id, name: p.call.name, status: 'denied' },
        },
      ]);
      return;
    }
    const parent = context.active();
    const span = this.services.tracer.startSpan(
      'agent.turn',
      { attributes: { 'vigil.tenant': p.tenant ?? 'local', 'vigil.session_id': p.session_id, 'vigil.resumed_approval': approval.id } },
      parent,
    );
    const registry = this.services.registry;
    const backend = registry.llm(p.provider) ?? null;
    const choice: BackendChoice = {
      provider: p.provider,
      model: p.model,
      label: `${p.provider}/${p.model}`,
      backend,
      problem: backend ? null : `LLM provider "${p.provider}" is no longer registered`,
      source: 'config',
    };
    const { capabilities, name: permissionSet } = this.policy.forTenant(tenant);
    const s = newTurn({
      tenant,
      sessionId: p.session_id,
      isNew: false,
      choice,
      caps: capabilities,
      permissionSet,
      messages: [
        { role: 'system', content: this.opts.systemPrompt },
        ...(await this.loadHistory(p.session_id, new Set([p.call.id, ...p.queue.map((q) => q.id)]))),
      ],
      queue: [{ ...p.call, decided: approval }, ...p.queue],
      steps: p.steps,
      span,
      ctx: trace.setSpan(parent, span),
      emit: noop,
      signal: new AbortController().signal,
      waitForApprovals: false,
    });
    this.open(p.session_id);
    try {
      await context.with(s.ctx, () => this.loop(s));
    } catch (e) {
      this.log.warn({ err: e, approval: approval.id }, 'resumed turn failed');
    }
  }

  /** Waits for turns resumed in the background (tests, shutdown). */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.resumes]);
  }

  // --- sessions --------------------------------------------------------------------------------

  private open(sessionId: string) {
    this.active.set(sessionId, (this.active.get(sessionId) ?? 0) + 1);
    this.metrics.activeSessions.set(this.active.size);
  }

  private release(s: TurnState, _outcome: string) {
    if (s.released) return;
    s.released = true;
    const n = (this.active.get(s.sessionId) ?? 1) - 1;
    if (n <= 0) this.active.delete(s.sessionId);
    else this.active.set(s.sessionId, n);
    this.metrics.activeSessions.set(this.active.size);
    const tenancy = this.services.get<Tenancy>('tenancy');
    if (tenancy) tenancy.sessionClosed(s.tenant.name, s.sessionId).catch((err) => this.log.warn({ err }, 'tenancy.sessionClosed failed'));
    if (s.span.isRecording()) s.span.end();
  }

  private async persist(s: TurnState) {
    if (!s.fresh.length) return;
    if (s.isNew) {
      await this.services.store.createSession({
        id: s.sessionId,
        tenant: s.tenant.name,
        subject: s.subject,
        meta: { title: s.title, model: s.choice.label },
      });
      s.isNew = false;
    }
    await this.services.store.appendMessages(s.sessionId, s.fresh);
    s.fresh = [];
  }

  /**
   * Stored messages -> model messages: the last `historyLimit`, starting at a user message, and
   * every tool call answered (a call left without a result — paused or interrupted — gets a
   * note, since providers reject a tool call without its result).
   */
  private async loadHistory(sessionId: string, pendingIds: Set<string> = new Set()): Promise<LlmMessage[]> {
    const rows = await this.services.store.getMessages(sessionId);
    let start = Math.max(0, rows.length - this.opts.historyLimit);
    while (start > 0 && start < rows.length && rows[start].role !== 'user') start--;
    const out: LlmMessage[] = [];
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- stored JSON: whatever the row holds is shown as text
    const answered = new Set(rows.filter((r) => r.role === 'tool').map((r) => String(r.data?.tool_call_id ?? '')));
    for (const r of rows.slice(start)) {
      if (r.role === 'assistant') {
        const calls = (r.data?.tool_calls as LlmMessage['tool_calls']) ?? undefined;
        out.push({ role: 'assistant', content: r.content, tool_calls: calls?.length ? calls : undefined });
        for (const c of calls ?? []) {
          if (!answered.has(c.id) && !pendingIds.has(c.id)) {
            out.push({
              role: 'tool',
              tool_call_id: c.id,
              name: c.name,
              content: JSON.stringify({
                ok: false,
                status: 'aborted',
                error: 'this call did not complete (the turn was interrupted or is awaiting approval)',
              }),
            });
          }
        }
      } else if (r.role === 'tool') {
        // eslint-disable-next-line @typescript-eslint/no-base-to-string -- stored JSON: whatever the row holds is shown as text
        out.push({ role: 'tool', content: r.content, tool_call_id: String(r.data?.tool_call_id ?? ''), name: String(r.data?.name ?? '') });
      } else if (r.role === 'user') {
        out.push({ role: 'user', content: r.content });
      }
    }
    return out;
  }

  private async audit(e: AuditEvent) {
    const sink = this.services.get<AuditSink>('audit');
    if (!sink) return;
    try {
      await sink.record(e);
    } catch (err) {
      this.log.warn({ err, type: e.type }, 'audit sink failed');
    }
  }
}
