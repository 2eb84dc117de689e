// Routes of the gateway surface owned by the core. Request-level checks (body, session, quota,
// input guardrails) run before a stream opens, so they answer with a JSON 4xx; once the SSE
// stream is open, failures arrive as an `error` event and the stream ends.
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { HttpError, Type, type KernelServices, type Static } from '../../kernel/index.ts';
import type { Tenancy, TenantContext } from '../../lib/gateway/contracts.ts';
import type { ReadinessRegistryImpl } from './agent/readiness.ts';
import type { AgentRuntimeImpl } from './agent/runtime.ts';
import { openSse, type SseChannel } from '../../lib/gateway/agent/sse.ts';
import type { TurnEvent } from '../../lib/gateway/agent/types.ts';
import { ChatBody, ChatResponse, ErrorBody, Health, Readiness, SessionDetail, SessionSummary, SkillList } from './schemas.ts';

export interface CoreConfig extends Record<string, unknown> {
  max_body_bytes: number;
  max_message_chars: number;
  heartbeat_ms: number;
}

export interface Shared {
  agent: AgentRuntimeImpl;
  readiness: ReadinessRegistryImpl;
  version: string;
  startedAt: number;
  config: CoreConfig;
  services: KernelServices;
  log: Logger;
  /** Paths this plugin mounted (for the rest_api readiness check). */
  routes: string[];
  app?: FastifyInstance;
}

const LOCAL: TenantContext = { name: null, permissions: null };
const errors = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  409: ErrorBody,
  413: ErrorBody,
  415: ErrorBody,
  429: ErrorBody,
  500: ErrorBody,
  502: ErrorBody,
};

export function gatewayRoutes(sh: Shared): FastifyPluginAsync {
  return async (app) => {
    sh.app = app;
    app.addHook('onRoute', (r) => {
      if (!sh.routes.includes(r.url)) sh.routes.push(r.url);
    });
    // Chat takes JSON only: text/plain would otherwise reach the schema as a string and get a
    // confusing validation error instead of a 415 (this is encapsulated to the core's routes).
    app.removeContentTypeParser('text/plain');

    const tenantOf = (req: FastifyRequest): TenantContext => {
      if (req.tenant) return req.tenant;
      const t = sh.services.get<Tenancy>('tenancy');
      return t ? t.of(req) : LOCAL;
    };
    const checkMessage = (body: Static<typeof ChatBody>) => {
      if (!body.message.trim()) throw new HttpError(400, 'invalid_request', 'message must not be empty');
      if (body.message.length > sh.config.max_message_chars) {
        throw new HttpError(413, 'payload_too_large', `message is longer than ${sh.config.max_message_chars} characters`);
      }
    };
    const chatSchema = (summary: string, description: string, ok: unknown) => ({
      summary,
      description,
      tags: ['agent'],
      body: ChatBody,
      response: { 200: ok, ...errors },
    });

    app.post<{ Body: Static<typeof ChatBody> }>(
      '/api/v1/agent/chat',
      {
        bodyLimit: sh.config.max_body_bytes,
        schema: chatSchema(
          'Chat (synchronous)',
          'Runs one agent turn and returns the answer, the tool calls made and the guardrail findings. Returns early with pending_approval when a skill call waits for a human.',
          ChatResponse,
        ),
      },
      async (req, reply) => {
        checkMessage(req.body);
        const ac = new AbortController();
        const onClose = () => {
          if (!reply.raw.writableFinished) ac.abort(new DOMException('the client disconnected', 'AbortError'));
        };
        reply.raw.on('close', onClose);
        try {
          return await sh.agent.chat(
            { tenant: tenantOf(req), sessionId: req.body.session_id, message: req.body.message, subject: req.body.subject },
            ac.signal,
          );
        } finally {
          reply.raw.off('close', onClose);
        }
      },
    );

    app.post<{ Body: Static<typeof ChatBody> }>(
      '/api/v1/chat/stream',
      {
        bodyLimit: sh.config.max_body_bytes,
        schema: chatSchema(
          'Chat (server-sent events)',
          'Streams one agent turn as SSE. Events: session, delta, tool_call, tool_result, approval_required, guardrail, done, error; each is `event: <name>` with a JSON `data:` line, and the stream ends after done or error.',
          { description: 'text/event-stream', content: { 'text/event-stream': { schema: Type.String() } } },
        ),
      },
      async (req, reply) => {
        checkMessage(req.body);
        const ac = new AbortController();
        let ch: SseChannel | null = null;
        const early: TurnEvent[] = [];
        const emit = (e: TurnEvent) => {
          if (!ch) return void early.push(e);
          ch.send(e.event, e.data);
          if (e.event === 'session') for (const x of early.splice(0)) ch.send(x.event, x.data);
        };
        const prepared = await sh.agent.prepare(
          { tenant: tenantOf(req), sessionId: req.body.session_id, message: req.body.message, subject: req.body.subject },
          ac.signal,
          emit,
          true,
        );
        ch = openSse(req, reply, sh.config.heartbeat_ms);
        const channel = ch;
        if (channel.signal.aborted) ac.abort(channel.signal.reason);
        else channel.signal.addEventListener('abort', () => ac.abort(channel.signal.reason), { once: true });
        try {
          await sh.agent.run(prepared);
        } catch (e) {
          if (!ac.signal.aborted) {
            const err = e instanceof HttpError ? e : null;
            if (!err) req.log.error({ err: e }, 'stream turn failed');
            channel.send(
              'error',
              err
                ? { error: err.message, code: err.code, ...(err.details ? { details: err.details } : {}) }
                : { error: 'internal error; see the server log for the request id ' + req.id, code: 'internal_error' },
            );
          }
        } finally {
          channel.end();
        }
        return reply;
      },
    );

    app.get(
      '/api/v1/skills',
      {
        schema: {
          summary: 'List skills',
          description: "Every registered skill with its capabilities, input schema and whether the caller's permission set allows it.",
          tags: ['agent'],
          response: { 200: SkillList, 401: ErrorBody, 429: ErrorBody },
        },
      },
      async (req) => {
        const tenant = tenantOf(req);
        const p = sh.agent.policy.forTenant(tenant);
        return {
          permission_set: p.name,
          capabilities: p.capabilities,
          skills: sh.agent.skillsFor(tenant).map(({ skill, allowed, missing }) => ({
            name: skill.name,
            description: skill.description,
            capabilities: skill.capabilities,
            input_schema: skill.inputSchema,
            allowed,
            missing_capabilities: missing,
            plugin: skill.plugin ?? null,
            runtime: skill.runtime ?? 'ts',
          })),
        };
      },
    );

    const summary = (s: { id: string; created_at: string; updated_at: string; meta: Record<string, unknown> }) => ({
      id: s.id,
      title: typeof s.meta.title === 'string' ? s.meta.title : null,
      model: typeof s.meta.model === 'string' ? s.meta.model : null,
      created_at: s.created_at,
      updated_at: s.updated_at,
    });

    app.get<{ Querystring: { limit: number } }>(
      '/api/v1/sessions',
      {
        schema: {
          summary: 'Recent sessions',
          description: "The caller's most recently updated sessions, newest first.",
          tags: ['agent'],
          querystring: Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }) }),
          response: { 200: Type.Object({ sessions: Type.Array(SessionSummary) }), 400: ErrorBody, 401: ErrorBody, 429: ErrorBody },
        },
      },
      async (req) => {
        const rows = await sh.services.store.listSessions({ tenant: tenantOf(req).name, limit: req.query.limit });
        return { sessions: rows.map(summary) };
      },
    );

    app.get<{ Params: { id: string } }>(
      '/api/v1/sessions/:id',
      {
        schema: {
          summary: 'Session history',
          description: "One session's messages in order (user, assistant, tool). Another tenant's session answers 404.",
          tags: ['agent'],
          params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 128 }) }),
          response: { 200: SessionDetail, 401: ErrorBody, 404: ErrorBody, 429: ErrorBody },
        },
      },
      async (req) => {
        const s = await sh.services.store.getSession(req.params.id, tenantOf(req).name);
        if (!s) throw new HttpError(404, 'session_not_found', `session ${req.params.id} does not exist`);
        const msgs = await sh.services.store.getMessages(s.id);
        return {
          ...summary(s),
          messages: msgs.map((m) => {
            const d = m.data ?? {};
            return {
              seq: m.seq,
              role: m.role,
              content: m.content,
              created_at: m.created_at,
              ...(Array.isArray(d.tool_calls)
                ? { tool_calls: d.tool_calls as Array<{ id: string; name: string; arguments: string }> }
                : {}),
              ...(typeof d.tool_call_id === 'string' ? { tool_call_id: d.tool_call_id } : {}),
              ...(typeof d.name === 'string' ? { name: d.name } : {}),
              ...(typeof d.status === 'string' ? { status: d.status } : {}),
            };
          }),
        };
      },
    );

    app.get(
      '/health',
      {
        schema: {
          summary: 'Health',
          description: 'Liveness and readiness signals: storage, plugins in error, LLM backend, guardrails. 503 when storage is down.',
          tags: ['operations'],
          response: { 200: Health, 503: Health },
        },
      },
      async (_req, reply) => {
        const storeOk = await sh.services.store.ping().catch(() => false);
        const failed = sh.services.registry.plugins().filter((p) => p.status === 'error');
        const b = sh.agent.backend();
        const layers = sh.agent.guardrails.layers();
        // Live dependencies other plugins report (external MCP servers): one that is configured
        // but down ('attention') degrades health; one that is merely not configured does not.
        const integrations = await sh.readiness.healthChecks();
        const down = integrations.filter((c) => c.status === 'attention');
        const status = !storeOk ? 'unhealthy' : failed.length || b.problem || !layers.length || down.length ? 'degraded' : 'healthy';
        reply.code(storeOk ? 200 : 503);
        return {
          status,
          version: sh.version,
          uptime_seconds: Math.floor((Date.now() - sh.startedAt) / 1000),
          checks: {
            store: {
              status: storeOk ? 'ok' : 'down',
              detail: `${sh.services.store.kind} store ${storeOk ? 'answers' : 'does not answer'}`,
            },
            plugins: {
              status: failed.length ? 'degraded' : 'ok',
              detail: `${failed.length} plugins in error`,
              errors: failed.map((f) => ({ id: f.id, error: f.error ?? 'unknown' })),
            },
            llm: { status: b.problem ? 'degraded' : 'ok', detail: b.problem ?? `using ${b.label}`, provider: b.provider, model: b.model },
            guardrails: {
              status: layers.length ? 'ok' : 'degraded',
              detail: layers.length ? `${layers.length} layers loaded` : (sh.agent.guardrails.problem ?? 'no guardrail layer loaded'),
              layers,
            },
            integrations: {
              status: down.length ? 'degraded' : 'ok',
              detail: down.length
                ? `${down.length} of ${integrations.length} down: ${down.map((c) => c.title).join(', ')}`
                : `${integrations.filter((c) => c.status === 'active').length} connected`,
              items: integrations.map((c) => ({ id: c.id, status: c.status, detail: c.detail })),
            },
          },
        };
      },
    );

    app.get(
      '/metrics',
      {
        schema: {
          summary: 'Prometheus metrics',
          description: 'Text exposition format: request latency histograms, skill call counters, guardrail hits, LLM latency and tokens.',
          tags: ['operations'],
          response: { 200: { description: 'Prometheus text format', content: { 'text/plain': { schema: Type.String() } } } },
        },
      },
      async (_req, reply) => {
        const text = await sh.services.metrics.metrics();
        reply.type(sh.services.metrics.contentType);
        return text;
      },
    );

    app.get(
      '/api/v1/enterprise/readiness',
      {
        schema: {
          summary: 'Enterprise readiness report',
          description:
            'Deployment posture: each check is verified against this running instance (active), compiled in but not wired (available), or needs attention.',
          tags: ['operations'],
          response: { 200: Readiness, 401: ErrorBody, 429: ErrorBody },
        },
      },
      async () =>
        sh.readiness.report(sh.version, {
          skills_registered: sh.services.registry.skills().length,
          active_connections: await connections(app),
          active_sessions: sh.agent.activeSessions(),
          uptime_seconds: Math.floor((Date.now() - sh.startedAt) / 1000),
        }),
    );
  };
}

function connections(app: FastifyInstance): Promise<number> {
  return new Promise((resolve) => {
    if (!app.server.listening) return resolve(0);
    app.server.getConnections((err, n) => resolve(err ? 0 : n));
  });
}
