// Provides the "analysis" service: the one engine behind the REST API, the CLI, the
// contract_audit skill and MCP, so every surface returns the same body for the same input.
// Tools are read from the registry on every call; builtin tools' self-tests run once in the
// background after start-up (not blocking boot) and feed the health report.
import { definePlugin } from '../../kernel/index.ts';
import { createAnalysisEngine } from './engine.ts';
import { readFileSync } from 'node:fs';
import path from 'node:path';

type Config = {
  self_test_on_start?: boolean;
  self_test_timeout_ms?: number;
  self_test_delay_ms?: number;
  full_budget_ms?: number;
};

export default definePlugin<Config>({
  setup(ctx) {
    let version = '0.0.0';
    try {
      version = JSON.parse(readFileSync(path.join(ctx.services.settings.rootDir, 'package.json'), 'utf8')).version ?? version;
    } catch {
      /* version stays unknown */
    }
    const engine = createAnalysisEngine({
      registry: ctx.services.registry,
      pool: ctx.services.pool,
      metrics: ctx.services.metrics,
      tracer: ctx.services.tracer,
      log: ctx.log,
      version,
      contractRoots: ctx.services.settings.contractRoots,
      selfTestTimeoutMs: ctx.config.self_test_timeout_ms,
      fullBudgetMs: ctx.config.full_budget_ms,
    });
    ctx.provide('analysis', engine);
    ctx.onStart(() => {
      if (ctx.config.self_test_on_start === false) return;
      // Deferred and never concurrent with an analysis: a CLI run that analyses and exits skips them.
      engine.scheduleSelfTests(ctx.config.self_test_delay_ms ?? 3000);
    });
    ctx.onClose(() => engine.close());
  },
});
