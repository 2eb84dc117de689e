// One registry of error codes for both surfaces. Every 4xx/5xx body is
// {"error": "<human sentence>", "code": "<snake_case>", "details"?: {...}}.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export const ERROR_CODES = {
  invalid_request: 400,
  invalid_json: 400,
  contract_not_found: 400,
  invalid_solidity: 400,
  unknown_tool: 400,
  unknown_layer: 400,
  unauthorized: 401,
  path_not_allowed: 403,
  guardrail_blocked: 403,
  forbidden: 403,
  not_found: 404,
  tool_not_found: 404,
  session_not_found: 404,
  report_not_found: 404,
  approval_not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  misdirected_request: 421,
  rate_limited: 429,
  quota_exceeded: 429,
  session_limit: 429,
  analysis_busy: 429,
  internal_error: 500,
  analysis_failed: 500,
  provider_error: 502,
  unavailable: 503,
  queue_full: 503,
  timeout: 504,
} as const;
export type ErrorCode = keyof typeof ERROR_CODES | (string & {});

export class HttpError extends Error {
  constructor(
    public readonly statusCode: number,
    public readonly code: ErrorCode,
    message: string,
    public readonly details?: Record<string, unknown>,
    public readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export function errorBody(code: string, error: string, details?: Record<string, unknown>) {
  return details ? { error, code, details } : { error, code };
}

export function sendError(reply: FastifyReply, status: number, code: ErrorCode, message: string, details?: Record<string, unknown>) {
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send(errorBody(code, message, details));
}

interface AjvError {
  keyword: string;
  instancePath: string;
  message?: string;
  params?: Record<string, unknown>;
}

/** The first validation problem as a sentence a person can act on: an enum or a union of
 *  literals names its allowed values ("must be one of json, sarif"), not "must match a schema
 *  in anyOf". */
export function describeValidation(errors: AjvError[]): { field: string; message: string; allowed?: unknown[] } {
  const first = errors[0];
  if (!first) return { field: '', message: 'does not match the schema' };
  const path = first.instancePath;
  const field = path
    ? path.replace(/^\//, '').replace(/\//g, '.')
    : // eslint-disable-next-line @typescript-eslint/no-base-to-string -- Ajv puts a property name (a string) here
      String(first.params?.missingProperty ?? first.params?.additionalProperty ?? '');
  const same = errors.filter((e) => e.instancePath === path);
  let allowed: unknown[] | undefined;
  if (first.keyword === 'enum') allowed = first.params?.allowedValues as unknown[];
  else if (same.some((e) => e.keyword === 'anyOf') && same.filter((e) => e.keyword !== 'anyOf').every((e) => e.keyword === 'const')) {
    allowed = same.filter((e) => e.keyword === 'const').map((e) => e.params?.allowedValue);
  }
  if (allowed?.length)
    return { field, message: `must be one of ${allowed.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(', ')}`, allowed };
  if (first.keyword === 'additionalProperties') return { field, message: `unknown field "${String(first.params?.additionalProperty)}"` };
  return { field, message: first.message ?? 'does not match the schema' };
}

/** Maps Fastify's own errors (validation, body parsing, size) onto our codes without leaking internals. */
export function installErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError & { headers?: Record<string, string> }, req: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof HttpError) {
      if (err.headers) reply.headers(err.headers);
      return sendError(reply, err.statusCode, err.code, err.message, err.details);
    }
    if (err.validation) {
      const where = err.validationContext ?? 'body';
      // A JSON endpoint sent text/plain (which Fastify parses as a string) fails the schema;
      // the real mistake is the content type, so say that.
      const ctype = String(req.headers['content-type'] ?? '');
      if (where === 'body' && typeof req.body === 'string' && !/json/i.test(ctype)) {
        return sendError(
          reply,
          415,
          'unsupported_media_type',
          `unsupported content type "${ctype}": this endpoint expects "Content-Type: application/json"`,
          { expected: 'application/json' },
        );
      }
      const { field, message, allowed } = describeValidation(err.validation);
      const msg = `invalid ${where}${field ? ` field "${field}"` : ''}: ${message}`;
      return sendError(reply, 400, 'invalid_request', msg, {
        ...(field ? { field } : {}),
        ...(allowed ? { allowed } : {}),
        errors: err.validation.slice(0, 5).map((v) => ({ path: v.instancePath, message: v.message })),
      });
    }
    switch (err.code) {
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return sendError(
          reply,
          415,
          'unsupported_media_type',
          req.headers['content-type']
            ? `unsupported content type "${req.headers['content-type']}": this endpoint expects "Content-Type: application/json"`
            : 'the request has a body but no Content-Type: send "Content-Type: application/json"',
          { expected: 'application/json' },
        );
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return sendError(reply, 413, 'payload_too_large', 'request body is larger than the limit');
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return sendError(reply, 400, 'invalid_json', 'request body is empty; send a JSON object');
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
        return sendError(reply, 400, 'invalid_json', 'request body is not valid JSON');
    }
    if (err.statusCode === 429) {
      return sendError(reply, 429, 'rate_limited', err.message || 'rate limit exceeded');
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      return sendError(reply, err.statusCode, 'invalid_request', err.message);
    }
    req.log.error({ err }, 'unhandled error');
    return sendError(reply, 500, 'internal_error', 'internal error; see the server log for the request id ' + req.id);
  });
  app.setNotFoundHandler((req, reply) => sendError(reply, 404, 'not_found', `no route for ${req.method} ${req.url.split('?')[0]}`));
}
