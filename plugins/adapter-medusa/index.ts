// Adapter for Medusa (layer 2): not available with an install hint until `medusa` is on PATH.
import { definePlugin } from '../../kernel/index.ts';
import { createMedusaAdapter } from './adapter.ts';

export default definePlugin<{ test_limit?: number }>({
  setup(ctx) {
    ctx.registerTool(createMedusaAdapter({ testLimit: ctx.config.test_limit }));
  },
});
