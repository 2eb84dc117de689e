export * from './detector.ts';
export * from './tool.ts';
export * from './guardrail.ts';
export * from './skill.ts';
export * from './llm.ts';
export * from './compliance.ts';
export * from './analysis.ts';
export * from './remediation.ts';
