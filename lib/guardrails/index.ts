// Guardrails library: the six layers, the chain strategy and shared helpers.
export { runGuardrails, createGuardrailChain, configureLayers, applyRedactions, looksBinary, DEFAULT_MAX_CHARS } from './chain.ts';
export type { ChainLayer, ChainOptions, GuardrailChain, GuardrailChainConfig } from './chain.ts';
export { createPiiGuardrail, findPii, PII_ENTITIES } from './pii.ts';
export { createPromptInjectionGuardrail, scoreInjection } from './injection.ts';
export { createToxicityGuardrail, scoreToxicity } from './toxicity.ts';
export { createShellInjectionGuardrail, findShellInjection } from './shell.ts';
export { createEncodedExfiltrationGuardrail, findExfiltration } from './exfiltration.ts';
export { createUnicodeSmugglingGuardrail, findUnicodeSmuggling } from './unicode.ts';
export { normalizeForMatching } from './normalize.ts';
export { guardrailHitsCounter, countGuardrailHits, GUARDRAIL_HITS_METRIC } from './metrics.ts';
export { loadInjectionModelFile, defaultInjectionModelPath, createDefaultGuardrails } from './defaults.ts';
