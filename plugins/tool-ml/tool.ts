// The vigil-ml AnalysisTool: runs the model in a pool worker (compiling for opcode features).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AnalysisInput, AnalysisTool, ToolRunOptions, ToolRunOutput, WorkerPool } from '../../kernel/index.ts';
import { REENTRANCY_SELF_TEST } from '../../lib/analysis/self-test.ts';
import type { CompileResult } from '../../lib/analysis/compiler/index.ts';
import { ML_TOOL, MODEL_PATH, loadModel, mlTask, type MlResult } from './worker.ts';

const WORKER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'worker.ts');

export function createMlTool(opts: { pool: WorkerPool | null }): AnalysisTool {
  async function analyze(
    input: Pick<AnalysisInput, 'source' | 'file' | 'compilation' | 'compiled' | 'absPath' | 'roots'>,
    run: ToolRunOptions,
  ): Promise<ToolRunOutput> {
    // Opcode features need a compiling source; without one the AST features still work.
    const compiles = input.compilation ? (await input.compilation).ok : true;
    // Full mode's engine compile is exactly the one the features need (full outputs and AST): the
    // task takes it rather than compiling again on a worker that did not run it.
    const compiled = compiles && input.compiled ? ((await input.compiled) as CompileResult | null) : null;
    const args = {
      source: input.source,
      file: input.file,
      absPath: input.absPath ?? null,
      roots: input.roots,
      compile: compiles,
      compiled: compiled?.ok ? compiled : null,
    };
    const r = opts.pool
      ? await opts.pool.run<MlResult>(WORKER, 'mlTask', args, { signal: run.signal, deadline: run.deadline })
      : await mlTask(args);
    return { status: 'success', findings: r.findings, error: null, meta: { predictions: r.predictions, opcode_features: r.bytecode } };
  }
  return {
    name: ML_TOOL,
    layer: 6,
    description:
      'ML detection: a softmax model over per-function code features (syntax tree, call graph, opcode bigrams) trained on SmartBugs curated and the SWC registry',
    builtin: true,
    modes: ['full'],
    async availability() {
      if (!fs.existsSync(MODEL_PATH))
        return { available: false, reason: 'plugins/tool-ml/model.json is missing', install_hint: 'node --import tsx scripts/train-ml.ts' };
      try {
        const m = loadModel();
        return { available: true, version: `model ${m.trained.at} (${m.classes.length - 1} classes)` };
      } catch (e) {
        return { available: false, reason: (e as Error).message, install_hint: 'node --import tsx scripts/train-ml.ts' };
      }
    },
    async selfTest() {
      const out = await analyze(
        { source: REENTRANCY_SELF_TEST, file: 'SelfTest.sol' },
        { signal: new AbortController().signal, deadline: Date.now() + 60_000 },
      );
      const preds = (out.meta as { predictions: Array<{ function: string; class: string }> }).predictions;
      const w = preds.find((p) => p.function === 'withdraw');
      if (w?.class !== 'reentrancy')
        throw new Error(`vigil-ml self-test: expected withdraw() to be predicted reentrancy, got ${w?.class ?? 'no prediction'}`);
    },
    run: analyze,
  };
}
