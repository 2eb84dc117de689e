// Trains the layer-6 model (plugins/tool-ml/model.json) from the labelled datasets: per-function
// code features, a train/test split by contract with a fixed seed, softmax regression on the
// train part, metrics on the held-out part (bench/ml.ts prints them again from the shipped model).
//   node --import tsx scripts/train-ml.ts [--no-bytecode] [--seed N] [--out FILE]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FEATURE_NAMES } from '../plugins/tool-ml/model/features.ts';
import {
  bytecodeOf,
  datasetInfo,
  labelSamples,
  loadContracts,
  SWC_CATEGORY,
  type LabelledSample,
} from '../plugins/tool-ml/model/dataset.ts';
import { evaluate, splitByContract, train, type MlModel } from '../plugins/tool-ml/model/model.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const seed = Number(opt('--seed') ?? 1337);
const out = opt('--out') ?? path.join(root, 'plugins/tool-ml/model.json');
const useBytecode = !args.includes('--no-bytecode');
export const THRESHOLD = 0.7;

const t0 = Date.now();
const contracts = loadContracts();
const candidate = new Set([
  'reentrancy',
  'unchecked_low_level_calls',
  'bad_randomness',
  'arithmetic',
  'access_control',
  'time_manipulation',
  'denial_of_service',
  'front_running',
  ...Object.values(SWC_CATEGORY),
]);
let compiled = 0;
const all: LabelledSample[] = [];
const code = contracts.map((c, i) => {
  const bc = useBytecode ? bytecodeOf(c.source) : null;
  if (bc) compiled++;
  all.push(...labelSamples(c, candidate, bc));
  if ((i + 1) % 25 === 0) process.stderr.write(`  ${i + 1}/${contracts.length} contracts (${compiled} compiled)\n`);
  return bc;
});
// Learn only categories with enough labelled functions to say anything.
const counts = new Map<string, number>();
for (const s of all) counts.set(s.label, (counts.get(s.label) ?? 0) + 1);
const classes = [
  'none',
  ...[...counts.entries()]
    .filter(([c, n]) => c !== 'none' && n >= 10)
    .map(([c]) => c)
    .sort(),
];
// Relabel against the learned classes (a function holding a learned and an unlearned category is the learned one).
const finalSet = new Set(classes);
const samples = contracts.flatMap((c, i) => labelSamples(c, finalSet, code[i]));
const split = splitByContract(
  samples.map((s) => s.key),
  seed,
);
const testSet = new Set(split.test);
const tr = samples.filter((s) => !testSet.has(s.key));
const te = samples.filter((s) => testSet.has(s.key));
const fitted = train(
  tr.map((s) => s.features),
  tr.map((s) => classes.indexOf(s.label)),
  classes,
  FEATURE_NAMES,
);
const model: MlModel = {
  version: 1,
  ...fitted,
  threshold: THRESHOLD,
  trained: {
    at: new Date().toISOString().slice(0, 10),
    seed,
    samples: tr.length,
    contracts: split.train.length,
    test_contracts: split.test,
    data: datasetInfo(),
    metrics: null,
  },
};
const metrics = evaluate(
  model,
  te.map((s) => s.features),
  te.map((s) => s.label),
);
const trainMetrics = evaluate(
  model,
  tr.map((s) => s.features),
  tr.map((s) => s.label),
);
model.trained.metrics = {
  test: metrics,
  train_macro_f1: trainMetrics.macroF1,
  bytecode_features: useBytecode,
  compiled_contracts: compiled,
  label_counts: Object.fromEntries(counts),
};
fs.writeFileSync(out, JSON.stringify(model) + '\n');
console.log(`classes: ${classes.join(', ')}`);
console.log(
  `functions: ${samples.length} (${tr.length} train / ${te.length} test) from ${contracts.length} contracts (${compiled} compiled for opcode features); seed ${seed}`,
);
console.log(`test macro-F1 ${metrics.macroF1}, accuracy ${metrics.accuracy}; train macro-F1 ${trainMetrics.macroF1}`);
for (const [c, m] of Object.entries(metrics.perClass))
  console.log(
    `  ${c.padEnd(28)} P ${m.precision.toFixed(2)}  R ${m.recall.toFixed(2)}  F1 ${m.f1.toFixed(2)}  (support ${m.support}, predicted ${m.predicted})`,
  );
console.log(`wrote ${path.relative(root, out)} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
