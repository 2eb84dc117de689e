// `vigil analyze`'s head start: work handed to the worker pool before the plugins load, so
// loading the parser and solc overlaps the boot instead of following it. For one file the
// warm-up is the file's own compile (compileSolidity's `share`: the analysis joins that run),
// so only one worker loads solc while the other readies the parser; for a folder, which is
// built first from the CLI's plan, both ready the parser.
import os from 'node:os';
import type { WorkerPool } from '../../kernel/index.ts';
import { compileSolidity } from '../../lib/analysis/compiler/index.ts';
import { acquireCompilerFor } from './acquire.ts';
import { singleFileInput } from './cli-analyze.ts';
import { buildRanges, compileRequestFor } from './engine.ts';
import { WARM_MODULE } from './warm-task.ts';

export function startWarmUp(pool: WorkerPool, abs: string, quick: boolean): void {
  const parserOnly = () =>
    pool.run(WARM_MODULE, 'warmTask', null).catch(() => {
      /* a warm-up that fails costs nothing: the analysis loads what it needs */
    });
  if (!abs.endsWith('.sol')) {
    for (let i = 0; i < Math.min(2, os.availableParallelism()); i++) void parserOnly();
    return;
  }
  void (async () => {
    const input = singleFileInput(abs);
    void parserOnly();
    await acquireCompilerFor(buildRanges(input, input.roots));
    await compileSolidity(compileRequestFor(input, quick, input.roots), { pool, share: true });
  })().catch(() => {
    /* the analysis reads, compiles and reports the file itself */
  });
}
