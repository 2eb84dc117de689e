// vigil-ml (layer 6): predicts, per function, the DASP category of a weakness it resembles and a
// probability, from code features only (syntax-tree node and operator counts, static facts such
// as external calls, guards and state written after calls, and opcode bigrams of the function's
// compiled instructions). The model (model.json) is trained by scripts/train-ml.ts on SmartBugs
// curated (Apache-2.0) and the SWC registry test cases (MIT); bench/ml.ts prints its held-out
// scores. False positives are limited by reporting only predictions at or above the model's
// threshold, at the function's signature line, with confidence capped at 0.6 so a prediction
// alone never outranks a rule or a proof (correlation raises it when another layer agrees).
// Names, paths and comments never enter a feature.
import { definePlugin } from '../../kernel/index.ts';
import { createMlTool } from './tool.ts';

export default definePlugin({
  setup(ctx) {
    ctx.registerTool(createMlTool({ pool: ctx.services.pool }));
  },
});
