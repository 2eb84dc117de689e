// Public surface of the static analysis layer (layer 1), for detector plugins, the static
// analyzer tool, tests and the benchmark.
export * from './ast.ts';
export * from './parse.ts';
export * from './facts.ts';
export * from './summaries.ts';
export * from './engine.ts';
export * from './dedup.ts';
export * from './wasm-protocol.ts';
export * from './detector-modules.ts';
export * from './rule-helpers.ts';
export * from './entropy.ts';
export * from './reachability.ts';
export * from './token-interfaces.ts';
export * from './abi.ts';
export { admits, bugScope } from './version.ts';
