// Layer 1: registers solhint (an npm dependency, so it always runs offline) with its security
// rules only, executed in the kernel worker pool under the request deadline.
import { definePlugin } from '../../kernel/index.ts';
import { createSolhintTool } from './solhint.ts';

export default definePlugin({
  setup(ctx) {
    ctx.registerTool(createSolhintTool({ pool: ctx.services.pool }));
  },
});
