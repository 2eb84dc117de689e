// Pool task of vigil-ml: per-function features (AST, call graph, opcode bigrams when the source
// compiles), the shipped softmax model, function-level findings above the model's threshold.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findingId, sliceLines } from '../../lib/analysis/ids.ts';
import { CATEGORY } from '../../lib/analysis/taxonomy.ts';
import { extractFunctionSamples } from './model/features.ts';
import { bytecodeOf } from './model/dataset.ts';
import type { CompileResult } from '../../lib/analysis/compiler/index.ts';
import { predict, type MlModel } from './model/model.ts';
import type { Category, Finding } from '../../schemas/finding.ts';

export const ML_TOOL = 'vigil-ml';
export const MODEL_PATH = path.join(path.dirname(fileURLToPath(import.meta.url)), 'model.json');
/** An unconfirmed prediction never claims more than this confidence (correlation raises it). */
export const CONFIDENCE_CAP = 0.6;

const ADVICE: Record<string, string> = {
  reentrancy: 'Update state before external calls (checks-effects-interactions) or add a reentrancy guard.',
  arithmetic: 'Use checked arithmetic (Solidity >= 0.8 or SafeMath) and bound user-supplied amounts.',
  unchecked_low_level_calls: 'Check the return value of low-level calls (require(success)).',
  access_control: 'Restrict the function to authorized callers.',
  bad_randomness: 'Do not derive randomness from block values; use a VRF or commit-reveal.',
  denial_of_service: 'Avoid unbounded loops and external calls that can block progress; prefer pull payments.',
  time_manipulation: 'Do not rely on block.timestamp for critical decisions within a few seconds.',
  front_running: 'Use commit-reveal or slippage/ordering protections.',
};

let cached: MlModel | null = null;
export function loadModel(file = MODEL_PATH): MlModel {
  if (cached && file === MODEL_PATH) return cached;
  const m = JSON.parse(fs.readFileSync(file, 'utf8')) as MlModel;
  if (m.version !== 1 || !Array.isArray(m.weights) || m.weights.length !== m.classes.length)
    throw new Error(`${file} is not a vigil-ml model`);
  if (file === MODEL_PATH) cached = m;
  return m;
}

export interface MlResult {
  findings: Finding[];
  predictions: Array<{ contract: string; function: string; line: number; class: string; p: number }>;
  bytecode: boolean;
}

export async function mlTask(args: {
  source: string;
  file: string;
  absPath?: string | null;
  roots?: string[];
  compile?: boolean;
  /** The engine's full compile of this source (full mode), instead of compiling it again here. */
  compiled?: CompileResult | null;
  modelPath?: string;
}): Promise<MlResult> {
  const model = loadModel(args.modelPath);
  const wantsCode = (model.trained.metrics as { bytecode_features?: boolean } | null)?.bytecode_features !== false;
  const bc =
    wantsCode && args.compile !== false
      ? bytecodeOf(args.source, args.file, { absPath: args.absPath, roots: args.roots, compiled: args.compiled })
      : null;
  const samples = extractFunctionSamples(args.source, args.file, bc);
  const findings: Finding[] = [];
  const predictions: MlResult['predictions'] = [];
  for (const s of samples) {
    const ranked = predict(model, s.features);
    const top = ranked[0];
    predictions.push({
      contract: s.contract,
      function: s.function,
      line: s.signature_line,
      class: top.class,
      p: Math.round(top.p * 1000) / 1000,
    });
    if (top.class === 'none' || top.p < model.threshold) continue;
    // The features that pushed hardest toward the predicted class, for the reader.
    const c = model.classes.indexOf(top.class);
    const why = model.features
      .map((f, j) => ({ f, v: model.weights[c][j] * ((s.features[j] - model.mean[j]) / model.std[j]) }))
      .sort((a, b) => b.v - a.v)
      .slice(0, 4)
      .map((x) => x.f);
    const category = top.class as Category;
    findings.push({
      id: findingId({
        detector: `ml-${category}`,
        contract: s.contract,
        function: s.function,
        code: sliceLines(args.source, s.line, s.end_line),
      }),
      detector: `ml-${category}`,
      title: `Function resembles known ${CATEGORY[category].label} vulnerabilities`,
      description: `The layer-6 model (softmax regression over code features, trained on SmartBugs curated and the SWC registry) gives \`${s.function}\` a ${(top.p * 100).toFixed(0)}% probability of a ${CATEGORY[category].label} weakness. A statistical signal, not a proof: confirm with the other layers.`,
      severity: 'MEDIUM',
      confidence: Math.round(Math.min(top.p, CONFIDENCE_CAP) * 100) / 100,
      category,
      swc_id: CATEGORY[category]?.swc ?? null,
      cwe_id: null,
      location: { file: args.file, line: s.signature_line, end_line: s.signature_line, contract: s.contract, function: s.function },
      tools: [ML_TOOL],
      layers: [6],
      recommendation: ADVICE[category] ?? 'Review the function for this class of weakness.',
      evidence: {
        kind: 'prediction',
        probability: Math.round(top.p * 1000) / 1000,
        runner_up: ranked[1] ? { class: ranked[1].class, p: Math.round(ranked[1].p * 1000) / 1000 } : null,
        top_features: why,
        model_trained: model.trained.at,
      },
    });
  }
  return { findings, predictions, bytecode: !!bc };
}
