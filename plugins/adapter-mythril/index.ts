// Adapter for Mythril (layer 3): not available with an install hint until `myth` is on PATH.
import { definePlugin } from '../../kernel/index.ts';
import { createMythrilAdapter } from './adapter.ts';

export default definePlugin({
  setup(ctx) {
    ctx.registerTool(createMythrilAdapter());
  },
});
