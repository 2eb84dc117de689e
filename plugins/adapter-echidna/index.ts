// Adapter for Echidna (layer 2): not available with an install hint until `echidna` is on PATH.
import { definePlugin } from '../../kernel/index.ts';
import { createEchidnaAdapter } from './adapter.ts';

export default definePlugin<{ test_limit?: number }>({
  setup(ctx) {
    ctx.registerTool(createEchidnaAdapter({ testLimit: ctx.config.test_limit }));
  },
});
