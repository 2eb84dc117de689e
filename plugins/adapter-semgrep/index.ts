// Adapter for Semgrep (layer 1): not available with an install hint until `semgrep` is on PATH.
import { definePlugin } from '../../kernel/index.ts';
import { createSemgrepAdapter } from './adapter.ts';

export default definePlugin<{ rules?: string }>({
  setup(ctx) {
    ctx.registerTool(createSemgrepAdapter({ rules: ctx.config.rules }));
  },
});
