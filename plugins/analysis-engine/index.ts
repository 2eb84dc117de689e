// Provides the "analysis" service: the one engine behind the REST API, the CLI, the
// contract_audit skill and MCP, so every surface returns the same body for the same input.
// Tools are read from the registry on every call; builtin tools' self-tests run once in the
// background after start-up (not blocking boot) and feed the health report.
import { definePlugin } from '../../kernel/index.ts';
import { buildRanges, compileRequestFor, createAnalysisEngine } from './engine.ts';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { compileSolidity } from '../../lib/analysis/compiler/index.ts';
import { acquireCompilerFor } from './acquire.ts';
import { WARM_MODULE } from './warm-task.ts';

type Config = {
  self_test_on_start?: boolean;
  self_test_timeout_ms?: number;
  self_test_delay_ms?: number;
  /** Set by `vigil analyze`: the path it will analyse, and whether in quick mode or otherwise. */
  warm_up_for?: string;
  warm_up_mode?: 'quick' | 'full';
};

export default definePlugin<Config>({
  setup(ctx) {
    // A one-shot CLI run: start the workers now, so loading the parser and solc overlaps the
    // plugins still loading on this thread (a cold start is otherwise boot, then worker start-up).
    // For one file the warm-up is the file's own compile (shared with the analysis, see
    // compileSolidity's `share`), so only one worker loads solc; the other readies the parser.
    const pool = ctx.services.pool;
    const warmFor = ctx.config.warm_up_for;
    if (warmFor && pool) {
      const parserOnly = () =>
        pool.run(WARM_MODULE, 'warmTask', null).catch(() => {
          /* a warm-up that fails costs nothing: the analysis loads what it needs */
        });
      if (warmFor.endsWith('.sol'))
        void (async () => {
          const { singleFileInput } = await import('./cli-analyze.ts');
          const input = singleFileInput(warmFor);
          void parserOnly();
          await acquireCompilerFor(buildRanges(input, input.roots));
          await compileSolidity(compileRequestFor(input, ctx.config.warm_up_mode !== 'full', input.roots), { pool, share: true });
        })().catch(() => {
          /* the analysis reads, compiles and reports the file itself */
        });
      // A folder is built first, once per release group (the CLI's own plan): ready the parser.
      else for (let i = 0; i < Math.min(2, os.availableParallelism()); i++) void parserOnly();
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
