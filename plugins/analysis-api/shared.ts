// What every route module of this plugin needs: the analysis engine (looked up per request, so
// an engine that failed to load shows up as 503 and in /health instead of taking these routes
// down with it), output formatters, and request cancellation.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError, type AnalysisEngine, type OutputFormat, type PluginContext, type ResultFormatter } from '../../kernel/index.ts';
import type { Tenancy, TenantContext } from '../../lib/gateway/contracts.ts';
import { extractApiKey } from '../../lib/gateway/governance/keys.ts';
import { applyTimeout, clientKey, maxAnalysisTimeout, type AppliedTimeout } from '../../lib/analysis/admission.ts';
import { analysisEngineOf } from '../../lib/analysis/engine-service.ts';

export interface ApiConfig extends Record<string, unknown> {
  max_contract_bytes: number;
  store_full_reports: boolean;
}

export type Ctx = PluginContext<ApiConfig>;

export function engineOf(ctx: Ctx): AnalysisEngine {
  return analysisEngineOf(ctx.services);
}

/** Aborts when the client goes away before the answer is written, or when the budget runs out. */
export function requestSignal(
  req: FastifyRequest,
  reply: FastifyReply,
  timeoutS: number,
): { signal: AbortSignal; deadline: number; done: () => void } {
  const ac = new AbortController();
  const deadline = Date.now() + timeoutS * 1000;
  const onClose = () => {
    if (!reply.raw.writableEnded) ac.abort(new Error('client disconnected'));
  };
  reply.raw.on('close', onClose);
  const timer = setTimeout(() => ac.abort(new Error(`timeout of ${timeoutS}s reached`)), timeoutS * 1000 + 2000);
  timer.unref();
  return {
    signal: ac.signal,
    deadline,
    done: () => {
      clearTimeout(timer);
      reply.raw.off('close', onClose);
    },
  };
}

/** An output formatter of the analysis engine, loaded on first use. */
export async function formatter(ctx: Ctx, kind: OutputFormat): Promise<ResultFormatter> {
  try {
    return await engineOf(ctx).formatter(kind);
  } catch (e) {
    if (e instanceof HttpError) throw e;
    throw new HttpError(503, 'unavailable', `the ${kind} formatter is not available: ${(e as Error).message.split('\n')[0]}`);
  }
}

export const CONTENT_TYPES = {
  json: 'application/json; charset=utf-8',
  sarif: 'application/sarif+json; charset=utf-8',
  markdown: 'text/markdown; charset=utf-8',
  html: 'text/html; charset=utf-8',
} as const;

const callers = new WeakMap<FastifyRequest, TenantContext | null>();

/**
 * The tenant a request acts for: req.tenant as the API surface's authentication hook sets it
 * (the same property gateway routes read); when no hook set one, a valid key in the request
 * (Authorization: Bearer / X-API-Key) still names its tenant, so ownership never depends on
 * which plugin authenticated. null: no tenant (keyless).
 */
export async function callerTenant(req: FastifyRequest, ctx: Ctx): Promise<TenantContext | null> {
  if (req.tenant?.name) return req.tenant;
  if (callers.has(req)) return callers.get(req)!;
  let t: TenantContext | null = null;
  const key = extractApiKey(req.headers);
  const dir = ctx.services.get<{ byKey(k: string): Promise<{ name: string; permissions: unknown } | null> }>('tenant-directory');
  if (key && dir) {
    const rec = await dir.byKey(key);
    if (rec) t = { name: rec.name, permissions: rec.permissions as TenantContext['permissions'] };
  }
  callers.set(req, t);
  return t;
}

/**
 * Whose reports a request may see. A request with a tenant sees that tenant's reports only. A
 * keyless request sees every report while no tenant exists (single-tenant local mode); once
 * tenants exist (e.g. `serve --api-open`) it sees only reports nobody owns, never a tenant's.
 * `owner` is what a report written by this request is stored under.
 */
export async function reportScope(req: FastifyRequest, ctx: Ctx): Promise<{ owner: string | null; scope: string | null | undefined }> {
  const name = (await callerTenant(req, ctx))?.name ?? null;
  if (name !== null) return { owner: name, scope: name };
  const tenancy = ctx.services.get<Tenancy>('tenancy');
  let tenantsExist = true; // when it cannot be told: fail closed, show only unowned reports
  try {
    // Without the tenancy plugin (not installed, or failed to load) the store and the config
    // file still say whether tenants exist.
    tenantsExist = tenancy
      ? await tenancy.enabled()
      : (await ctx.services.store.hasTenants()) ||
        Boolean(ctx.services.settings.file.tenants && Object.keys(ctx.services.settings.file.tenants).length);
  } catch {
    /* stays true */
  }
  return { owner: null, scope: tenantsExist ? null : undefined };
}

/** The request's timeout held to the server maximum; a lowered one is said in a header too. */
export function timeoutOf(requested: unknown, ctx: Ctx, reply: FastifyReply): AppliedTimeout {
  const t = applyTimeout(requested, maxAnalysisTimeout(ctx.services));
  if (t.clamped) reply.header('x-vigil-timeout-clamped', `requested=${t.requested}; applied=${t.applied}`);
  return t;
}

/** Adds the clamping note to an answer body (a no-op when the timeout was not lowered). */
export function noteTimeout<T extends Record<string, unknown>>(body: T, t: AppliedTimeout): T {
  if (!t.clamped) return body;
  const notes = Array.isArray(body.notes) ? [...(body.notes as unknown[])] : [];
  return { ...body, notes: [...notes, t.note!], timeout_clamped: { requested: t.requested, applied: t.applied } };
}

/**
 * Runs `work` for a request under its timeout (clamped to the server maximum) and an analysis
 * slot: cancelled when the client leaves or the time is up, the slot released however it ends,
 * and the clamping noted in the answer.
 */
export async function admitted<T extends Record<string, unknown>>(
  req: FastifyRequest,
  reply: FastifyReply,
  ctx: Ctx,
  requestedTimeout: unknown,
  work: (run: { budgetMs: number; signal: AbortSignal; deadline: number }) => Promise<T>,
): Promise<T> {
  const t = timeoutOf(requestedTimeout, ctx, reply);
  const cancel = requestSignal(req, reply, t.applied);
  let slot: { release: () => void; budgetMs: number } | null = null;
  try {
    slot = await admit(req, ctx, cancel.signal, cancel.deadline);
    return noteTimeout(await work({ budgetMs: slot.budgetMs, signal: cancel.signal, deadline: cancel.deadline }), t);
  } finally {
    slot?.release();
    cancel.done();
  }
}

/**
 * Waits for an analysis slot (this plugin's `analysis-admission` gate): 429 analysis_busy with Retry-After when
 * this client or the queue is full. Returns the release function and the milliseconds left of
 * the request's budget once admitted.
 */
export async function admit(
  req: FastifyRequest,
  ctx: Ctx,
  signal: AbortSignal,
  deadline: number,
): Promise<{ release: () => void; budgetMs: number }> {
  const gate = ctx.services.get('analysis-admission')!; // provided by this plugin in setup
  const release = await gate.acquire(clientKey(await callerTenant(req, ctx), req.ip), {
    signal,
    waitMs: Math.max(1000, (deadline - Date.now()) / 2),
  });
  return { release, budgetMs: Math.max(1000, deadline - Date.now()) };
}
