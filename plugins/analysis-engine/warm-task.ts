// Pool task that readies a worker thread for the analysis a one-shot CLI run is about to start:
// it loads the Solidity parser (and runs it once, which is when ANTLR builds its prediction
// tables) and the solc release the input will compile with. Run while the main thread is still
// booting the plugins, so those seconds overlap instead of following each other.
import { loadCompiler } from '../../lib/analysis/compiler/solc-loader.ts';
import { outlineSource } from '../../lib/analysis/outline.ts';
import { fileURLToPath } from 'node:url';

export const WARM_MODULE = fileURLToPath(import.meta.url);

export function warmTask(args: { compiler: string | null }): { compiler: string | null } {
  outlineSource('contract Warm { function f(uint a) public pure returns (uint) { return a + 1; } }');
  if (args?.compiler) {
    try {
      loadCompiler(args.compiler);
    } catch {
      return { compiler: null }; // the analysis itself reports a compiler it cannot load
    }
  }
  return { compiler: args?.compiler ?? null };
}
