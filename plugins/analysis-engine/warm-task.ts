// Pool task that readies a worker thread for the analysis a one-shot CLI run is about to start:
// it loads the Solidity parser and runs it once, which is when ANTLR builds its prediction tables.
// Run while the main thread is still booting the plugins, so those seconds overlap instead of
// following each other (the file's compile, which loads solc, is the other worker's warm-up).
import { outlineSource } from '../../lib/analysis/outline.ts';
import { fileURLToPath } from 'node:url';

export const WARM_MODULE = fileURLToPath(import.meta.url);

export function warmTask(): void {
  outlineSource('contract Warm { function f(uint a) public pure returns (uint) { return a + 1; } }');
}
