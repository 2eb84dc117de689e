// Adapter for Halmos (layer 3): not available with an install hint until `halmos` and `forge` are on PATH.
import { definePlugin } from '../../kernel/index.ts';
import { createHalmosAdapter } from './adapter.ts';

export default definePlugin({
  setup(ctx) {
    ctx.registerTool(createHalmosAdapter());
  },
});
