// Adapter for Aderyn (layer 1): not available with an install hint until `aderyn` is on PATH.
import { definePlugin } from '../../kernel/index.ts';
import { createAderynAdapter } from './adapter.ts';

export default definePlugin({
  setup(ctx) {
    ctx.registerTool(createAderynAdapter());
  },
});
