// vigil-static (layer 1): the built-in static analyzer. Registers an AnalysisTool that runs
// every enabled detector plugin in one AST traversal per file, inside the kernel worker pool
// so a pathological contract cannot block the event loop and is cancelled at the deadline.
// See lib/analysis/static for the parser, shared facts and engine.
import { definePlugin } from '../../kernel/index.ts';
import { createStaticTool } from './tool.ts';
import { wasmDetectorAdapter, wasmToolAdapter } from './wasm-adapters.ts';

export default definePlugin({
  setup(ctx) {
    const tool = createStaticTool({ pool: ctx.services.pool, registry: ctx.services.registry });
    ctx.registerTool(tool);
    // The kernel hands loaded WASM detector and tool modules to these (plugin.json provides them).
    ctx.provide('wasm-adapter:detector', wasmDetectorAdapter(tool.analyze));
    ctx.provide('wasm-adapter:tool', wasmToolAdapter);
    // Other plugins run through it: a WASM detector as its own tool (a subset of detectors), and
    // the layer 7/8 tools, whose rules run in the same traversal (analyzeTool).
    ctx.provide('static-analyzer', { analyze: tool.analyze, analyzeTool: tool.analyzeTool });
  },
});
