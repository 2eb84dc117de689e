// The six layers with their default settings, for callers that run the chain without the
// plugin loader (benchmarks, tests, a CLI check). The plugins build exactly the same objects.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Guardrail } from '../../kernel/index.ts';
import type { HashedModel } from './classifier.ts';
import { createEncodedExfiltrationGuardrail } from './exfiltration.ts';
import { createPromptInjectionGuardrail } from './injection.ts';
import { createPiiGuardrail } from './pii.ts';
import { createShellInjectionGuardrail } from './shell.ts';
import { createToxicityGuardrail, loadToxicityModel, type ToxicityModel } from './toxicity.ts';
import { createUnicodeSmugglingGuardrail } from './unicode.ts';

export function defaultInjectionModelPath(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'plugins', 'guardrail-prompt-injection', 'model.json');
}

export function loadInjectionModelFile(file = defaultInjectionModelPath()): HashedModel {
  let raw: string;
  try {
    raw = fs.readFileSync(file, 'utf8');
  } catch {
    throw new Error(`injection model not found at ${file}; run: node --import tsx scripts/train-injection.ts`);
  }
  return JSON.parse(raw) as HashedModel;
}

export function createDefaultGuardrails(
  model: HashedModel | null = loadInjectionModelFile(),
  toxicityModel: ToxicityModel | null = loadToxicityModel(),
): Guardrail[] {
  return [
    createUnicodeSmugglingGuardrail(),
    createPromptInjectionGuardrail(model),
    createToxicityGuardrail({}, toxicityModel),
    createShellInjectionGuardrail(),
    createEncodedExfiltrationGuardrail(),
    createPiiGuardrail(),
  ];
}
