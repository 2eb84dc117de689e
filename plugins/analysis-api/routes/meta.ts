// GET /, /api/v1/health/, /api/v1/tools/, /api/v1/tools/{tool_name}/, /api/v1/layers/.
// Health is decided from real state: each built-in tool's start-up self-test, a storage ping,
// plugins that failed to load, and whether the engine can analyse at all (503 when it cannot).
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { HttpError, LAYER_NAMES, type AnalysisEngine, type AnalysisHealth, type ToolInfo } from '../../../kernel/index.ts';
import { installedCompilers } from '../../../lib/analysis/compiler/index.ts';
import { ErrorBody, FreeObject, HealthResponse, RootResponse, ToolParams } from '../../../schemas/analysis-api.ts';
import type { Ctx } from '../shared.ts';

export const ENDPOINTS = {
  root: 'GET /',
  health: 'GET /api/v1/health/',
  tools: 'GET /api/v1/tools/',
  tool: 'GET /api/v1/tools/{tool_name}/',
  layers: 'GET /api/v1/layers/',
  analyze_quick: 'POST /api/v1/analyze/quick/',
  analyze_full: 'POST /api/v1/analyze/full/',
  analyze_layer: 'POST /api/v1/analyze/layer/{layer_num}/',
  analyze_tool: 'POST /api/v1/analyze/tool/{tool_name}/',
  remediate: 'POST /api/v1/remediate/',
  validate_remediation: 'POST /api/v1/validate-remediation/',
  reports: 'GET|POST /api/v1/reports/',
  report: 'GET /api/v1/reports/{report_id}/?format=json|markdown|html|sarif',
  openapi: 'GET /openapi.json',
};

export async function metaRoutes(app: FastifyInstance, ctx: Ctx) {
  const engine = () => ctx.services.get<AnalysisEngine>('analysis') ?? null;
  const version = () => serviceVersion(ctx);

  app.get('/', { schema: { summary: 'Service name, version and endpoint index', response: { 200: RootResponse } } }, async () => ({
    service: 'vigil',
    version: version(),
    description:
      'Local REST API that audits Solidity: quick scan, full multi-layer audit, one layer or one tool, remediation with real source fixes, patch validation and stored reports.',
    endpoints: ENDPOINTS,
  }));

  app.get(
    '/api/v1/health/',
    {
      schema: { summary: 'Health from tool self-tests, storage and plugin state', response: { 200: HealthResponse, 503: HealthResponse } },
    },
    async (_req, reply) => {
      const tools: Record<string, unknown> = {};
      const deps: Record<string, unknown> = {};
      const degraded: string[] = [];
      const fatal: string[] = [];
      const eng = engine();
      let list: ToolInfo[] = [];
      if (!eng) {
        const st = ctx.services.registry.plugins().find((p) => p.id === 'analysis-engine');
        const why = st?.status === 'error' ? `failed to load: ${st.error}` : st ? st.status : 'not installed';
        deps.analysis_engine = { status: 'error', detail: why };
        fatal.push(`analysis engine ${why}`);
      } else {
        try {
          list = await eng.listTools();
          deps.analysis_engine = { status: 'ok' };
        } catch (e) {
          deps.analysis_engine = { status: 'error', detail: (e as Error).message };
          fatal.push('analysis engine cannot list its tools');
        }
      }
      // The engine's own health view (self-tests run once at start-up) when it offers one.
      const engHealth: AnalysisHealth | null = eng?.health
        ? await eng.health().catch((e: Error): AnalysisHealth => ({
            status: 'unhealthy',
            reasons: [`engine health failed: ${e.message}`],
            tools: {},
            self_tests_done: false,
          }))
        : null;
      let builtinOk = 0;
      for (const t of list) {
        const selfTest = engHealth?.tools[t.name]?.self_test ?? t.self_test ?? null;
        const ok = t.available && t.status === 'ok' && (selfTest ? selfTest.ok : true);
        tools[t.name] = {
          status: t.builtin ? (ok ? 'ok' : 'error') : t.available ? 'ok' : 'not_available',
          builtin: t.builtin,
          layer: t.layer,
          available: t.available,
          self_test: selfTest,
          ...(t.reason ? { reason: t.reason } : {}),
        };
        if (t.builtin && ok) builtinOk++;
        if (t.builtin && !ok)
          degraded.push(
            `built-in tool ${t.name} ${selfTest && !selfTest.ok ? `failed its self-test: ${selfTest.error ?? 'no detail'}` : (t.reason ?? 'is not available')}`,
          );
      }
      if (engHealth) {
        deps.analysis_engine = {
          status: engHealth.status === 'healthy' ? 'ok' : 'error',
          engine_status: engHealth.status,
          self_tests_done: engHealth.self_tests_done,
          reasons: engHealth.reasons,
        };
        if (engHealth.status === 'unhealthy')
          fatal.push(...(engHealth.reasons.length ? engHealth.reasons : ['the analysis engine reports it cannot analyse']));
      }
      if (eng && list.length && builtinOk === 0 && !fatal.length) fatal.push('no built-in analysis tool passed its self-test');
      if (eng && !list.length && !fatal.length) fatal.push('no analysis tool is registered');

      let storeOk: boolean;
      try {
        storeOk = await ctx.services.store.ping();
      } catch {
        storeOk = false;
      }
      deps.storage = {
        status: storeOk ? 'ok' : 'error',
        kind: ctx.services.store.kind,
        ...(storeOk ? {} : { detail: 'storage ping failed: reports cannot be saved' }),
      };
      if (!storeOk) degraded.push('storage is not reachable');

      const compilers = installedCompilers().map((c) => c.version);
      deps.solc = {
        status: compilers.length ? 'ok' : 'error',
        versions: compilers,
        ...(compilers.length ? {} : { detail: 'no solc-js compiler installed; analysis runs on the parser only' }),
      };
      if (!compilers.length) degraded.push('no Solidity compiler installed');

      const failed = ctx.services.registry.plugins().filter((p) => p.status === 'error');
      deps.plugins = {
        status: failed.length ? 'error' : 'ok',
        loaded: ctx.services.registry.plugins().filter((p) => p.status === 'loaded').length,
        failed: failed.map((p) => ({ id: p.id, kind: p.kind, error: p.error })),
      };
      if (failed.length)
        degraded.push(`${failed.length} plugin${failed.length > 1 ? 's' : ''} failed to load (${failed.map((p) => p.id).join(', ')})`);

      const status = fatal.length ? 'unhealthy' : degraded.length ? 'degraded' : 'healthy';
      deps.reasons = [...fatal, ...degraded];
      reply.code(status === 'unhealthy' ? 503 : 200);
      return { status, version: version(), timestamp: new Date().toISOString(), tools, dependencies: deps };
    },
  );

  app.get(
    '/api/v1/tools/',
    { schema: { summary: 'Every analysis tool: built-in, WASM and external, available or not and why', response: { 200: FreeObject } } },
    async () => {
      const eng = engine();
      const tools = eng ? await eng.listTools() : [];
      const failed = ctx.services.registry
        .plugins()
        .filter((p) => p.status === 'error' && ['tool', 'detector', 'service'].includes(p.kind))
        .map((p) => ({ plugin: p.id, kind: p.kind, status: 'error', error: p.error }));
      return {
        tools,
        total: tools.length,
        available: tools.filter((t) => t.available).length,
        failed_plugins: failed,
        ...(eng ? {} : { error: 'the analysis engine is not loaded, so no tool can run' }),
      };
    },
  );

  app.get(
    '/api/v1/tools/:tool_name/',
    {
      schema: {
        summary: 'One tool: availability, version, install hint, self-test',
        params: ToolParams,
        response: { 200: FreeObject, 404: ErrorBody },
      },
    },
    async (req) => {
      const { tool_name } = req.params as { tool_name: string };
      const eng = engine();
      const tool = eng ? await eng.getTool(tool_name) : null;
      if (!tool) {
        const known = eng ? (await eng.listTools()).map((t) => t.name) : [];
        throw new HttpError(404, 'tool_not_found', `no tool named "${tool_name}"`, { available_tools: known });
      }
      return tool;
    },
  );

  app.get(
    '/api/v1/layers/',
    { schema: { summary: 'The nine analysis layers and the tools in each', response: { 200: FreeObject } } },
    async () => {
      const eng = engine();
      const reported = eng ? await eng.layers() : [];
      const byNum = new Map(reported.map((l) => [l.layer, l]));
      const layers = Object.entries(LAYER_NAMES).map(
        ([n, name]) => byNum.get(Number(n)) ?? { layer: Number(n), name, tools: [], available: false },
      );
      for (const l of reported) if (!LAYER_NAMES[l.layer]) layers.push(l);
      return { layers, total: layers.length };
    },
  );
}

let cachedVersion: string | null = null;
/** The running service's version: the package version in the root folder. */
export function serviceVersion(ctx: Ctx): string {
  if (cachedVersion) return cachedVersion;
  try {
    cachedVersion = String(
      JSON.parse(fs.readFileSync(path.join(ctx.services.settings.rootDir, 'package.json'), 'utf8')).version ?? '0.0.0',
    );
  } catch {
    cachedVersion = '0.0.0';
  }
  return cachedVersion;
}
