// Route schemas of the gateway core (TypeBox): they validate requests, shape responses and
// generate the OpenAPI description at /openapi.json.
import { Type } from '../../kernel/index.ts';

export const ErrorBody = Type.Object(
  { error: Type.String(), code: Type.String(), details: Type.Optional(Type.Record(Type.String(), Type.Unknown())) },
  { description: 'Error body used for every 4xx/5xx' },
);

export const ChatBody = Type.Object({
  message: Type.String({ minLength: 1, description: 'The user message' }),
  session_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'Continue this session (omit to start one)' })),
  subject: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 256,
      description: 'Id of the end user the conversation concerns (GDPR data-subject requests find sessions by it); kept with a new session',
    }),
  ),
});

const Usage = Type.Object({ prompt_tokens: Type.Integer(), completion_tokens: Type.Integer() });

export const ToolCall = Type.Object({
  id: Type.String(),
  name: Type.String(),
  arguments: Type.Unknown(),
  status: Type.Union(
    ['ok', 'error', 'denied', 'invalid_args', 'blocked', 'unknown_skill', 'pending', 'aborted'].map((s) => Type.Literal(s)),
  ),
  ok: Type.Boolean(),
  output: Type.Unknown(),
  error: Type.Optional(Type.String()),
  duration_ms: Type.Number(),
});

export const GuardrailEvent = Type.Object({
  direction: Type.String(),
  action: Type.String(),
  layer: Type.String(),
  kinds: Type.Array(Type.String()),
  tool_call_id: Type.Optional(Type.String()),
});

export const PendingApproval = Type.Object({
  approval_id: Type.String(),
  tool_call_id: Type.String(),
  skill: Type.String(),
  input: Type.Record(Type.String(), Type.Unknown()),
  expires_at: Type.String(),
});

export const ChatResponse = Type.Object({
  session_id: Type.String(),
  response: Type.String(),
  tool_calls: Type.Array(ToolCall),
  guardrails: Type.Array(GuardrailEvent),
  usage: Usage,
  model: Type.String(),
  pending_approval: Type.Optional(PendingApproval),
});

export const SkillInfo = Type.Object({
  name: Type.String(),
  description: Type.String(),
  capabilities: Type.Array(Type.String()),
  input_schema: Type.Record(Type.String(), Type.Unknown()),
  allowed: Type.Boolean(),
  missing_capabilities: Type.Array(Type.String()),
  plugin: Type.Union([Type.String(), Type.Null()]),
  runtime: Type.String(),
});

export const SkillList = Type.Object({
  permission_set: Type.String(),
  capabilities: Type.Array(Type.String()),
  skills: Type.Array(SkillInfo),
});

export const SessionSummary = Type.Object({
  id: Type.String(),
  title: Type.Union([Type.String(), Type.Null()]),
  model: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String(),
  updated_at: Type.String(),
});

export const SessionMessage = Type.Object({
  seq: Type.Integer(),
  role: Type.String(),
  content: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String(),
  tool_calls: Type.Optional(Type.Array(Type.Object({ id: Type.String(), name: Type.String(), arguments: Type.String() }))),
  tool_call_id: Type.Optional(Type.String()),
  name: Type.Optional(Type.String()),
  status: Type.Optional(Type.String()),
});

export const SessionDetail = Type.Intersect([SessionSummary, Type.Object({ messages: Type.Array(SessionMessage) })]);

const HealthPart = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded'), Type.Literal('down')]),
  detail: Type.String(),
});

export const Health = Type.Object({
  status: Type.Union([Type.Literal('healthy'), Type.Literal('degraded'), Type.Literal('unhealthy')]),
  version: Type.String(),
  uptime_seconds: Type.Integer(),
  checks: Type.Object({
    store: HealthPart,
    plugins: Type.Intersect([HealthPart, Type.Object({ errors: Type.Array(Type.Object({ id: Type.String(), error: Type.String() })) })]),
    llm: Type.Intersect([HealthPart, Type.Object({ provider: Type.String(), model: Type.String() })]),
    guardrails: Type.Intersect([HealthPart, Type.Object({ layers: Type.Array(Type.String()) })]),
    integrations: Type.Intersect([
      HealthPart,
      Type.Object({ items: Type.Array(Type.Object({ id: Type.String(), status: Type.String(), detail: Type.String() })) }),
    ]),
  }),
});

export const Readiness = Type.Object({
  version: Type.String(),
  posture: Type.String(),
  score: Type.Integer({ minimum: 0, maximum: 100 }),
  runtime: Type.Object({
    skills_registered: Type.Integer(),
    active_connections: Type.Integer(),
    active_sessions: Type.Integer(),
    uptime_seconds: Type.Integer(),
  }),
  checks: Type.Array(
    Type.Object({
      id: Type.String(),
      category: Type.String(),
      title: Type.String(),
      status: Type.Union([Type.Literal('active'), Type.Literal('available'), Type.Literal('attention')]),
      detail: Type.String(),
    }),
  ),
  next_actions: Type.Array(Type.String()),
});
