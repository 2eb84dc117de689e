// Layer-6 benchmark: scores the shipped model (plugins/tool-ml/model.json) on the contracts its
// training held out (split by contract, fixed seed, recorded in the model), at the threshold
// the tool reports at, and checks that the split is reproducible from the datasets.
//   node --import tsx bench/ml.ts
import { loadModel } from '../plugins/tool-ml/worker.ts';
import { bytecodeOf, labelSamples, loadContracts } from '../plugins/tool-ml/model/dataset.ts';
import { evaluate, splitByContract } from '../plugins/tool-ml/model/model.ts';

const t0 = Date.now();
const model = loadModel();
const info = model.trained;
const useCode = (info.metrics as { bytecode_features?: boolean } | null)?.bytecode_features !== false;
const contracts = loadContracts();
const classes = new Set(model.classes);
const test = new Set(info.test_contracts);
const samples = contracts.filter((c) => test.has(c.key)).flatMap((c) => labelSamples(c, classes, useCode ? bytecodeOf(c.source) : null));
// Same candidate pool as training: contracts with at least one modelled function.
const all = contracts.flatMap((c) => labelSamples(c, classes, null).map((s) => s.key));
const again = splitByContract(all, info.seed).test;
const reproducible = again.length === info.test_contracts.length && again.every((k, i) => k === info.test_contracts[i]);

console.log(
  `vigil-ml model of ${info.at}: ${model.classes.length - 1} classes, ${model.features.length} features, threshold ${model.threshold}`,
);
console.log(`data: ${info.data.map((d) => `${d.name} (${d.license})`).join('; ')}`);
console.log(
  `split: seed ${info.seed}, ${info.contracts} train contracts / ${info.test_contracts.length} test contracts; reproducible from the datasets: ${reproducible ? 'yes' : 'NO'}`,
);
for (const th of [0.5, model.threshold, 0.85]) {
  const m = evaluate(
    model,
    samples.map((s) => s.features),
    samples.map((s) => s.label),
    th,
  );
  console.log(`\nheld-out functions: ${samples.length}, threshold ${th}: macro-F1 ${m.macroF1}, accuracy ${m.accuracy}`);
  console.log('  class                        precision  recall   F1     support  predicted');
  for (const [c, x] of Object.entries(m.perClass))
    console.log(
      `  ${c.padEnd(28)} ${x.precision.toFixed(2).padStart(9)} ${x.recall.toFixed(2).padStart(7)} ${x.f1.toFixed(2).padStart(6)} ${String(x.support).padStart(8)} ${String(x.predicted).padStart(10)}`,
    );
}
console.log(`\n(${((Date.now() - t0) / 1000).toFixed(1)} s, opcode features ${useCode ? 'on' : 'off'})`);
