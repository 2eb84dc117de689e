// Trains the toxicity classifier and writes plugins/guardrail-toxicity/model.json.
// Reproducible: fixed seed and data order.
//   node --import tsx plugins/guardrail-toxicity/gen-sets.ts   # (re)writes the own example sets
//   node --import tsx plugins/guardrail-toxicity/train.ts [--data labeled_data.csv]
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { davidsonPath, here, readDavidson, readOwn, TOX_TRAIN, trainToxModel } from './training.ts';

const args = process.argv.slice(2);
const dataFile = args.includes('--data') ? args[args.indexOf('--data') + 1] : davidsonPath();
if (!fs.existsSync(dataFile)) {
  console.error(`training data not found: ${dataFile} (pass --data or set VIGIL_DATASETS)`);
  process.exit(2);
}
const t0 = Date.now();
const davidson = readDavidson(dataFile);
const own = readOwn(path.join(here, 'data', 'own-train.json'));
const model = trainToxModel([...davidson, ...own], {
  trained_on: [
    {
      name: 'Davidson et al. 2017 hate speech and offensive language (labeled_data.csv)',
      licence: 'MIT',
      examples: davidson.length,
      sha256: createHash('sha256').update(fs.readFileSync(dataFile)).digest('hex'),
    },
    { name: 'vigil own examples (data/own-train.json)', licence: 'Apache-2.0', examples: own.length },
  ],
  options: TOX_TRAIN,
  features: 'word 1-2-grams + char 3-5-grams, FNV-1a hashed, sublinear tf, L2-normalised, on normalizeForMatching() text',
});
const out = path.join(here, 'model.json');
fs.writeFileSync(out, JSON.stringify(model) + '\n');
const weights = Object.values(model.heads).reduce((n, h) => n + Buffer.from(h.w, 'base64').length, 0);
console.log(
  `trained on ${davidson.length} Davidson + ${own.length} own examples in ${Date.now() - t0} ms; ${weights} weights, ${(fs.statSync(out).size / 1024).toFixed(0)} KB -> ${path.relative(process.cwd(), out)}`,
);
