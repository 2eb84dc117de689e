// Trains the prompt-injection classifier and writes this plugin's model.json.
// Reproducible: fixed seed, fixed data order, no randomness outside mulberry32.
//   node --import tsx plugins/guardrail-prompt-injection/train.ts [--data path/to/deepset-train.json] [--out file]
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import {
  applyRelabel,
  deepsetPath,
  here,
  readExtraData,
  readLabelled,
  toModelFile,
  trainInjectionModel,
  TRAIN_OPTIONS,
} from './training.ts';

const repoRoot = path.resolve(here, '..', '..');
const args = process.argv.slice(2);
const arg = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const dataFile = arg('--data') ?? deepsetPath();
const out = arg('--out') ?? path.join(here, 'model.json');

if (!fs.existsSync(dataFile)) {
  console.error(`training data not found: ${dataFile} (pass --data or set VIGIL_DATASETS)`);
  process.exit(2);
}
const relabelled = applyRelabel(readLabelled(dataFile));
const deepset = relabelled.data;
const extra = readExtraData();
const data = [...deepset, ...extra];
const t0 = Date.now();
const model = trainInjectionModel(data);
const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const file = toModelFile(model, {
  trained_on: [
    {
      name: 'deepset/prompt-injections (train split)',
      licence: 'Apache-2.0',
      examples: deepset.length,
      relabelled_benign_personas: relabelled.changed,
      sha256: sha(fs.readFileSync(dataFile, 'utf8')),
    },
    { name: 'vigil hand-written examples (plugins/guardrail-prompt-injection/data)', licence: 'Apache-2.0', examples: extra.length },
  ],
  options: TRAIN_OPTIONS,
  features: 'word 1-2-grams + char 3-5-grams (word-bounded), FNV-1a hashed, sublinear tf, L2-normalised, on normalizeForMatching() text',
});
fs.writeFileSync(out, JSON.stringify(file) + '\n');
console.log(
  `trained on ${data.length} examples (${deepset.length} deepset + ${extra.length} own) in ${Date.now() - t0} ms; ${file.idx.length} non-zero weights -> ${path.relative(repoRoot, out)}`,
);
