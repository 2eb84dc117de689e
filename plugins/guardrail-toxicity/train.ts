// Trains the toxicity classifier and writes plugins/guardrail-toxicity/model.json.
// Reproducible: fixed seed, data order and split.
//   node --import tsx plugins/guardrail-toxicity/gen-sets.ts   # (re)writes the own example sets
//   node --import tsx plugins/guardrail-toxicity/train.ts [--data labeled_data.csv]
// Data: the Davidson tweets and the functional templates (dev, holdout, fresh) are split 70/10/20
// by a hash (splitOf: functional templates as a whole, so a test template is never seen with any
// group); the model is trained on the train part, each head calibrated on the validation part, and
// bench/guardrails.ts reports on the test part and on the sets never trained on (functional
// "blind", eval/own-eval.json). data/own-train.json is training only.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { featurize, predict } from '../../lib/guardrails/classifier.ts';
import { toxicityModelFromJson } from './toxicity.ts';
import {
  allExamples,
  calibrate,
  CATEGORIES_LIST,
  classifierInput,
  davidsonPath,
  here,
  readDavidson,
  readOwn,
  TOX_DIMS,
  TOX_TRAIN,
  trainToxModel,
} from './training.ts';

const args = process.argv.slice(2);
const dataFile = args.includes('--data') ? args[args.indexOf('--data') + 1] : davidsonPath();
if (!fs.existsSync(dataFile)) {
  console.error(`training data not found: ${dataFile} (pass --data or set VIGIL_DATASETS)`);
  process.exit(2);
}
const t0 = Date.now();
const davidson = readDavidson(dataFile);
const own = readOwn(path.join(here, 'data', 'own-train.json'));
const all = allExamples(davidson, own);
const train = all.filter((x) => x.split === 'train');
const val = all.filter((x) => x.split === 'val');
const count = (xs: typeof all, src: string) => xs.filter((x) => x.kind.startsWith(src)).length;
const model = trainToxModel(train, {
  trained_on: [
    {
      name: 'Davidson et al. 2017 hate speech and offensive language (labeled_data.csv), train split',
      licence: 'MIT',
      examples: count(train, 'davidson'),
      sha256: createHash('sha256').update(fs.readFileSync(dataFile)).digest('hex'),
    },
    {
      name: 'vigil functional templates (functional.ts dev, holdout, fresh), train split',
      licence: 'Apache-2.0',
      examples: count(train, 'functional'),
    },
    { name: 'vigil own examples (data/own-train.json)', licence: 'Apache-2.0', examples: own.length },
  ],
  calibrated_on: { examples: val.length, davidson: count(val, 'davidson'), functional: count(val, 'functional') },
  options: TOX_TRAIN,
  features:
    'word 1-2-grams + char 3-5-grams, FNV-1a hashed, sublinear tf, L2-normalised, on normalizeForMatching() text, protected-group mentions masked (maskGroups)',
});
const heads = toxicityModelFromJson(model);
model.calibration = calibrate(val, (text) => {
  const x = featurize(classifierInput(text), TOX_DIMS);
  return Object.fromEntries(CATEGORIES_LIST.map((c) => [c, predict(heads[c], x)])) as Record<(typeof CATEGORIES_LIST)[number], number>;
});
const out = path.join(here, 'model.json');
fs.writeFileSync(out, JSON.stringify(model) + '\n');
const weights = Object.values(model.heads).reduce((n, h) => n + Buffer.from(h.w, 'base64').length, 0);
console.log(
  `trained on ${train.length} examples (${count(train, 'davidson')} Davidson, ${count(train, 'functional')} functional, ${own.length} own), calibrated on ${val.length} in ${Date.now() - t0} ms; ${weights} weights, ${(fs.statSync(out).size / 1024).toFixed(0)} KB -> ${path.relative(process.cwd(), out)}`,
);
console.log(`calibration (probability scoring 0.5): ${JSON.stringify(model.calibration)}`);
