// Builds one Fastify app per surface: request ids, the error contract, request spans,
// latency metrics, OpenAPI generation, then the route plugins registered for that surface.
import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import swagger from '@fastify/swagger';
import { context, trace, SpanKind, SpanStatusCode, type Span, type Tracer } from '@opentelemetry/api';
import type { Logger } from 'pino';
import type { Registry as PromRegistry, Histogram } from 'prom-client';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { HttpError, installErrorHandling, sendError } from './errors.ts';
import { hostPolicy, jsonDepthExceeds, MAX_JSON_DEPTH, protects } from './protect.ts';
import sjson from 'secure-json-parse';
import type { Surface } from './plugin-api.ts';
import type { Registry } from './registry.ts';

declare module 'fastify' {
  interface FastifyRequest {
    span?: Span;
    startedAt?: bigint;
  }
}

export interface SurfaceOptions {
  surface: Surface;
  logger: Logger;
  tracer: Tracer;
  metrics: PromRegistry;
  registry: Registry;
  version: string;
  bodyLimit: number;
  title: string;
  description: string;
  /** Host names this surface is bound to (loopback and --allowed-hosts are added). */
  bindHosts?: string[];
  allowedHosts?: string[];
  /** A request body must arrive within this time (408). */
  bodyTimeoutMs?: number;
}

export async function buildSurface(o: SurfaceOptions): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: o.logger.child({ surface: o.surface }) as unknown as FastifyBaseLogger,
    bodyLimit: o.bodyLimit,
    genReqId: (req) => {
      const h = req.headers['x-request-id'];
      return typeof h === 'string' && /^[\w.-]{1,128}$/.test(h) ? h : randomUUID();
    },
    // Per-request log lines only on demand; errors are always logged by the error handler.
    logController: new LogController({ disableRequestLogging: process.env.VIGIL_LOG_REQUESTS !== '1' }),
    // "/api/v1/health" and "/api/v1/health/" are the same resource: answer both rather than a
    // bare 404 for the variant a newcomer types.
    routerOptions: { ignoreTrailingSlash: true },
    forceCloseConnections: 'idle',
    // Backstop behind the per-request body timer below (Node checks it only every 30 s).
    requestTimeout: (o.bodyTimeoutMs ?? 30_000) + 10_000,
  }).withTypeProvider<TypeBoxTypeProvider>() as unknown as FastifyInstance;

  installErrorHandling(app);

  // --- edge protections, before every plugin hook -----------------------------------------
  // DNS rebinding: a page on evil.example whose name later resolves to 127.0.0.1 reaches us with
  // "Host: evil.example". Only names we answer to are served.
  const hosts = hostPolicy(o.bindHosts ?? ['127.0.0.1'], o.allowedHosts ?? []);
  // (Callback-style hooks: the common case finishes synchronously, without a promise per request.)
  app.addHook('onRequest', (req, reply, done) => {
    if (hosts.allowed(req.headers.host)) return done();
    void sendError(
      reply,
      421,
      'misdirected_request',
      `this server does not answer to Host "${req.headers.host}"; it serves ${hosts.describe()}. Start it with --allowed-hosts NAME to serve another name`,
    );
  });
  // Fail closed: a security plugin that did not load must not leave its routes open.
  app.addHook('onRequest', (req, reply, done) => {
    const failed = o.registry.failedProtectors((p) => protects(p, o.surface, req.url));
    if (!failed.length) return done();
    const why = failed.map((id) => `${id} (${o.registry.statuses.get(id)?.error ?? 'failed'})`).join('; ');
    void sendError(
      reply,
      503,
      'unavailable',
      `unavailable: the security plugin ${failed.join(', ')} failed to load, so the routes it protects are closed until it is fixed: ${why}`,
      { plugins: failed },
    );
  });
  // Slow bodies: the whole body must arrive within bodyTimeoutMs, else 408 and the connection
  // is closed (a client trickling a large body no longer holds a socket for minutes).
  const bodyMs = o.bodyTimeoutMs ?? 30_000;
  // The body is read from the request itself, with a timer beside it: no stream in between.
  // (A socket's request reaches this hook before its body is parsed, even a small body sent with
  // the headers: Node runs the hooks' promises as soon as the headers are parsed. A PassThrough
  // per request was ~2% of a chat turn.) On time-out the error is handed to whoever reads the body
  // (Fastify's body reader answers 408 and closes the connection) without destroying the request,
  // which would drop the socket before the 408 could be sent. Nobody reading it: the request is
  // destroyed, closing the connection the body trickles in on.
  // (Callback-style, like the hooks above and below: no promise per request.)
  app.addHook('preParsing', (req, reply, payload, done) => {
    const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
    if (!hasBody || req.raw.complete) return done(null, payload);
    const timer = setTimeout(() => {
      if (req.raw.complete || payload.destroyed) return;
      reply.header('connection', 'close');
      const err = new HttpError(408, 'request_timeout', `the request body did not arrive within ${Math.round(bodyMs / 100) / 10} s`);
      if (payload.listenerCount('error') > 0) payload.emit('error', err);
      else payload.destroy();
    }, bodyMs);
    timer.unref();
    const stop = () => clearTimeout(timer);
    payload.once('end', stop);
    payload.once('close', stop);
    done(null, payload);
  });
  // An error answered before the body was read (401, 421, 503…): close the connection rather
  // than let Node drain a body the client may trickle in for minutes.
  app.addHook('onSend', (req, reply, payload, done) => {
    if (
      reply.statusCode >= 400 &&
      !req.raw.complete &&
      (Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined)
    ) {
      reply.header('connection', 'close');
    }
    done(null, payload);
  });
  // JSON bodies: depth is checked on the text before JSON.parse, so a 5,000-deep body costs a
  // linear scan and a 400, never a deep recursion or a stored row no listing can read back.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = body as string;
    if (text.trim() === '')
      return done(Object.assign(new Error('empty'), { code: 'FST_ERR_CTP_EMPTY_JSON_BODY', statusCode: 400 }), undefined);
    if (jsonDepthExceeds(text))
      return done(
        new HttpError(400, 'invalid_request', `the JSON body is nested deeper than ${MAX_JSON_DEPTH} levels`, {
          max_depth: MAX_JSON_DEPTH,
        }),
        undefined,
      );
    let v: unknown;
    try {
      // Refuses "__proto__" / "constructor.prototype" keys, like Fastify's default parser.
      v = sjson.parse(text, { protoAction: 'error', constructorAction: 'error' });
    } catch {
      return done(Object.assign(new Error('bad json'), { code: 'FST_ERR_CTP_INVALID_JSON_BODY', statusCode: 400 }), undefined);
    }
    done(null, v);
  });
  // Query strings and path params arrive as text and need coercion ("?limit=10" is a number);
  // JSON bodies do not: {"message": 42} is an error, not the string "42".
  const ajvOpts = { removeAdditional: false, useDefaults: true, allErrors: false, strict: false } as const;
  const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;
  const strictAjv = new Ajv({ ...ajvOpts, coerceTypes: false });
  const coercingAjv = new Ajv({ ...ajvOpts, coerceTypes: 'array' });
  for (const a of [strictAjv, coercingAjv]) (addFormats as any)(a);
  app.setValidatorCompiler(({ schema, httpPart }) => lazyValidator(httpPart === 'body' ? strictAjv : coercingAjv, schema));

  const hist = o.metrics.getSingleMetric('vigil_http_request_duration_seconds') as Histogram<string>;
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id);
    req.startedAt = process.hrtime.bigint();
    const span = o.tracer.startSpan(`${req.method} ${req.url.split('?')[0]}`, {
      kind: SpanKind.SERVER,
      attributes: {
        'http.request.method': req.method,
        'url.path': req.url.split('?')[0],
        'vigil.surface': o.surface,
        'vigil.request_id': req.id,
      },
    });
    req.span = span;
    // Run the rest of the request inside the span's context so plugin spans become its children.
    context.with(trace.setSpan(context.active(), span), done);
  });
  app.addHook('onResponse', (req, reply, done) => {
    const route = req.routeOptions?.url ?? 'unmatched';
    const secs = req.startedAt ? Number(process.hrtime.bigint() - req.startedAt) / 1e9 : 0;
    hist?.observe({ surface: o.surface, method: req.method, route, status: String(reply.statusCode) }, secs);
    if (req.span) {
      req.span.updateName(`${req.method} ${route}`);
      req.span.setAttribute('http.route', route);
      req.span.setAttribute('http.response.status_code', reply.statusCode);
      if (reply.statusCode >= 500) req.span.setStatus({ code: SpanStatusCode.ERROR });
      req.span.end();
    }
    done();
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: o.title, description: o.description, version: o.version },
    },
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  for (const h of o.registry.surfaceHooks.filter((x) => x.surface === o.surface)) {
    try {
      await h.fn(app);
    } catch (e) {
      const st = o.registry.statuses.get(h.plugin);
      if (st) Object.assign(st, { status: 'error', error: `surface hooks failed: ${(e as Error).message}` });
      o.logger.error({ plugin: h.plugin, err: e }, 'surface hooks failed');
    }
  }
  for (const r of o.registry.routes.filter((x) => x.surface === o.surface)) {
    // Wrapped so a broken route module is that plugin's failure, not the surface's; the wrapper
    // keeps Fastify's encapsulation (routes, hooks and decorators stay inside the child).
    await app.register(async (child) => {
      try {
        await r.fn(child, {});
      } catch (e) {
        const st = o.registry.statuses.get(r.plugin);
        if (st) Object.assign(st, { status: 'error', error: `routes failed to mount: ${(e as Error).message}` });
        o.logger.error({ plugin: r.plugin, err: e }, 'route plugin failed to mount');
      }
    });
  }
  return app;
}

/** An Ajv validator compiled on its route's first request rather than at start: a surface has
 *  dozens of routes and a compile costs ~20 ms of CPU, while most processes (tests, CLI runs) call
 *  a few. Same contract as Ajv's own function: Fastify sees `schemaEnv` and passes the parent so a
 *  root value can be coerced, and reads `errors` after a false. */
function lazyValidator(ajv: Ajv, schema: object) {
  let compiled: ValidateFunction | undefined;
  const validate = (data: unknown, cxt?: Parameters<ValidateFunction>[1]) => {
    compiled ??= ajv.compile(schema);
    const ok = compiled(data, cxt);
    validate.errors = compiled.errors;
    return ok;
  };
  validate.errors = null as ValidateFunction['errors'];
  validate.schemaEnv = true;
  return validate;
}
