// Provides the "analysis" service: the one engine behind the REST API, the CLI, the
// contract_audit skill and MCP, so every surface returns the same body for the same input.
// Tools are read from the registry on every call; builtin tools' self-tests run once in the
// background after start-up (not blocking boot) and feed the health report.
import { definePlugin } from '../../kernel/index.ts';
import { createAnalysisEngine } from './engine.ts';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chooseCompiler } from '../../lib/analysis/compiler/index.ts';
import { WARM_MODULE } from './warm-task.ts';

type Config = { self_test_on_start?: boolean; self_test_timeout_ms?: number; self_test_delay_ms?: number; warm_up_for?: string };

export default definePlugin<Config>({
  setup(ctx) {
    // A one-shot CLI run: start the workers now, so loading the parser and solc overlaps the
    // plugins still loading on this thread (a cold start is otherwise boot, then worker start-up).
    if (ctx.config.warm_up_for && ctx.services.pool) {
      let compiler: string | null = null;
      if (ctx.config.warm_up_for.endsWith('.sol')) {
        try {
          const choice = chooseCompiler(readFileSync(ctx.config.warm_up_for, 'utf8'));
          compiler = choice.ok ? (choice.candidates[0]?.version ?? null) : null;
        } catch {
          /* the analysis reports an unreadable path */
        }
      }
      // One per thread the pool will use for this run's first tasks (tinypool starts a thread
      // per queued task up to its maximum): the compile and the parse may land on either.
      for (let i = 0; i < Math.min(2, os.availableParallelism()); i++)
        ctx.services.pool.run(WARM_MODULE, 'warmTask', { compiler }).catch(() => {
          /* a warm-up that fails costs nothing: the analysis loads what it needs */
        });
    }
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
