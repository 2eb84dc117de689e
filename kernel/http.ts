// Builds one Fastify app per surface: request ids, the error contract, request spans,
// latency metrics, OpenAPI generation, then the route plugins registered for that surface.
import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import swagger from '@fastify/swagger';
import { context, trace, SpanKind, SpanStatusCode, type Span, type Tracer } from '@opentelemetry/api';
import type { Logger } from 'pino';
import type { Registry as PromRegistry, Histogram } from 'prom-client';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { installErrorHandling } from './errors.ts';
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
    routerOptions: { ignoreTrailingSlash: false },
    forceCloseConnections: 'idle',
  }).withTypeProvider<TypeBoxTypeProvider>() as unknown as FastifyInstance;

  installErrorHandling(app);
  // Query strings and path params arrive as text and need coercion ("?limit=10" is a number);
  // JSON bodies do not: {"message": 42} is an error, not the string "42".
  const ajvOpts = { removeAdditional: false, useDefaults: true, allErrors: false, strict: false } as const;
  const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;
  const strictAjv = new Ajv({ ...ajvOpts, coerceTypes: false });
  const coercingAjv = new Ajv({ ...ajvOpts, coerceTypes: 'array' });
  for (const a of [strictAjv, coercingAjv]) (addFormats as any)(a);
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? strictAjv : coercingAjv).compile(schema));

  const hist = o.metrics.getSingleMetric('vigil_http_request_duration_seconds') as Histogram<string>;
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id);
    req.startedAt = process.hrtime.bigint();
    const span = o.tracer.startSpan(`${req.method} ${req.url.split('?')[0]}`, {
      kind: SpanKind.SERVER,
      attributes: { 'http.request.method': req.method, 'url.path': req.url.split('?')[0], 'vigil.surface': o.surface, 'vigil.request_id': req.id },
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
