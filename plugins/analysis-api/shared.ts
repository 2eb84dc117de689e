// What every route module of this plugin needs: the analysis engine (looked up per request, so
// an engine that failed to load shows up as 503 and in /health instead of taking these routes
// down with it), output formatters, and request cancellation.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError, type AnalysisEngine, type AnalysisResult, type PluginContext } from '../../kernel/index.ts';

export interface ApiConfig extends Record<string, unknown> {
  max_contract_bytes: number;
  store_full_reports: boolean;
}

export type Ctx = PluginContext<ApiConfig>;

export function engineOf(ctx: Ctx): AnalysisEngine {
  const engine = ctx.services.get<AnalysisEngine>('analysis');
  if (!engine) {
    const st = ctx.services.registry.plugins().find((p) => p.id === 'analysis-engine');
    const why = st ? (st.status === 'error' ? `it failed to load: ${st.error}` : `it is ${st.status}`) : 'no analysis-engine plugin is installed';
    throw new HttpError(503, 'unavailable', `contract analysis is not available: ${why}`);
  }
  return engine;
}

/** Aborts when the client goes away before the answer is written, or when the budget runs out. */
export function requestSignal(req: FastifyRequest, reply: FastifyReply, timeoutS: number): { signal: AbortSignal; deadline: number; done: () => void } {
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

type Formatter = (r: AnalysisResult, opts?: Record<string, unknown>) => unknown;

/** Output formatters of the analysis engine (lib/analysis/format), loaded on first use. */
export async function formatter(kind: 'sarif' | 'markdown' | 'html'): Promise<Formatter> {
  const mods: Record<string, () => Promise<Record<string, unknown>>> = {
    sarif: () => import('../../lib/analysis/format/sarif.ts'),
    markdown: () => import('../../lib/analysis/format/markdown.ts'),
    html: () => import('../../lib/analysis/format/html.ts'),
  };
  let mod: Record<string, unknown>;
  try {
    mod = await mods[kind]();
  } catch (e) {
    throw new HttpError(503, 'unavailable', `the ${kind} formatter is not available: ${(e as Error).message.split('\n')[0]}`);
  }
  const name = { sarif: 'toSarif', markdown: 'toMarkdown', html: 'toHtml' }[kind];
  const fn = mod[name] ?? mod.default;
  if (typeof fn !== 'function') throw new HttpError(503, 'unavailable', `the ${kind} formatter does not export ${name}()`);
  return fn as Formatter;
}

export const CONTENT_TYPES = {
  json: 'application/json; charset=utf-8',
  sarif: 'application/sarif+json; charset=utf-8',
  markdown: 'text/markdown; charset=utf-8',
  html: 'text/html; charset=utf-8',
} as const;
