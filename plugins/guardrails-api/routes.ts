// Route module of the guardrail check endpoint, separate from the plugin entry so tests can mount
// it on a bare Fastify instance with any guardrail chain.
import type { FastifyPluginAsync } from 'fastify';
import { HttpError, Type, type Static } from '../../kernel/index.ts';
import type { GuardrailChain } from '../../lib/guardrails/chain.ts';

export const CheckBody = Type.Object(
  {
    text: Type.String({ description: 'Text to check (a user message, model output, tool arguments or a tool result)' }),
    direction: Type.Optional(
      Type.Union([Type.Literal('input'), Type.Literal('output'), Type.Literal('tool_args'), Type.Literal('tool_result')], {
        description: 'Which kind of message this is; layers only run on the directions they cover. Default input.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const CheckFinding = Type.Object({
  layer: Type.String(),
  kind: Type.String(),
  start: Type.Integer({ description: 'UTF-16 offset in the text this layer saw (after earlier layers redacted)' }),
  end: Type.Integer(),
  score: Type.Number({ minimum: 0, maximum: 1 }),
  action: Type.Optional(Type.Union([Type.Literal('log'), Type.Literal('redact'), Type.Literal('block')])),
  detail: Type.Optional(Type.String()),
});

export const CheckResponse = Type.Object({
  action: Type.Union([Type.Literal('allow'), Type.Literal('log'), Type.Literal('redact'), Type.Literal('block')]),
  redacted_text: Type.String(),
  findings: Type.Array(CheckFinding),
  blocked_by: Type.Optional(Type.String()),
});

export const ErrorResponse = Type.Object({
  error: Type.String(),
  code: Type.String(),
  details: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});

export interface GuardrailsRouteOptions {
  /** The `guardrails` service (it counts hits itself). */
  chain: GuardrailChain;
  maxTextChars?: number;
}

export function guardrailsRoutes(opts: GuardrailsRouteOptions): FastifyPluginAsync {
  const maxChars = opts.maxTextChars ?? 262144;
  return async (app) => {
    app.post<{ Body: Static<typeof CheckBody> }>(
      '/api/v1/guardrails/check',
      {
        schema: {
          tags: ['guardrails'],
          summary: 'Check a text against the guardrail chain',
          description:
            'Runs every guardrail layer that covers the direction, in order, with the modes from the service config: the first block wins, a redact hands the redacted text to the next layer. Nothing is stored.',
          body: CheckBody,
          response: { 200: CheckResponse, 400: ErrorResponse, 413: ErrorResponse },
        },
        // Runs before schema validation, which would coerce a number to a string: text must really be one.
        preValidation: async (req) => {
          const body = req.body as Record<string, unknown> | null;
          if (!body || typeof body !== 'object' || Array.isArray(body))
            throw new HttpError(400, 'invalid_request', 'body must be a JSON object {text, direction?}');
          if (typeof body.text !== 'string') throw new HttpError(400, 'invalid_request', 'field "text" is required and must be a string');
        },
      },
      async (req) => {
        const { text, direction = 'input' } = req.body;
        if (text.length > maxChars) {
          throw new HttpError(413, 'payload_too_large', `text is ${text.length} characters; the limit is ${maxChars}`);
        }
        const result = await opts.chain.run(text, direction);
        const body: Static<typeof CheckResponse> = {
          action: result.action,
          redacted_text: result.redacted_text,
          findings: result.findings,
        };
        if (result.blocked_by) body.blocked_by = result.blocked_by;
        return body;
      },
    );
  };
}
