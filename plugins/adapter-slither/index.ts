// Adapter for Slither (layer 1): reported as not available with an install hint until the
// `slither` binary is on PATH, then run for real on the submitted contract.
import { definePlugin } from '../../kernel/index.ts';
import { createSlitherAdapter } from './adapter.ts';

export default definePlugin({
  setup(ctx) {
    ctx.registerTool(createSlitherAdapter());
  },
});
