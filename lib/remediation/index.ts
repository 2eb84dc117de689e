// Remediation: real source fixes for findings (engine.ts) and the before/after comparison that
// validates a patch (validate.ts).
export { remediate, classifyFinding, unchangedResult } from './engine.ts';
export { remediateOffThread, remediateTask, REMEDIATE_MODULE } from './task.ts';
export type { RemediateTaskArgs } from './task.ts';
export type { RemediateOptions, RemediationResult, FixRecord, CompileCheck } from './engine.ts';
export { compareFindings, decideVerdict, matchKey, validatePatch } from './validate.ts';
export type { Comparison, Verdict, PatchSide } from './validate.ts';
