// Pool task: runs solhint's processStr on one source. solhint is synchronous and walks the whole
// token stream, so a 1 MiB file runs here (killable at the deadline), not on the event loop.
import Module, { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { parseSolidityFresh } from '../../lib/analysis/solidity-parser.ts';

const require = createRequire(import.meta.url);
export const LINT_MODULE = fileURLToPath(import.meta.url);

export interface SolhintReport {
  line: number;
  column: number;
  severity: number;
  message: string;
  ruleId: string | null;
}

let solhint: { processStr(src: string, config: unknown, file?: string): { reports: any[] } } | null = null;

export function solhintVersion(): string {
  return (require('solhint/package.json') as { version: string }).version;
}

/** solhint with vigil's two-stage parser in place of the bundled one (identical trees and errors,
 *  about 2.5x faster), handed to it through the CommonJS cache before solhint first loads. */
function loadSolhint() {
  const fromSolhint = createRequire(require.resolve('solhint/lib/index.js'));
  const parserPath = fromSolhint.resolve('@solidity-parser/parser');
  const bundled = fromSolhint('@solidity-parser/parser');
  const m = new Module(parserPath);
  m.filename = parserPath;
  m.loaded = true;
  // Fresh trees: solhint writes parent links into every node, so it must not share the memo's.
  m.exports = { ...bundled, parse: parseSolidityFresh };
  require.cache[parserPath] = m;
  return require('solhint/lib/index.js');
}

export function lintTask(args: { source: string; file: string; rules: Record<string, unknown> }): {
  reports: SolhintReport[];
  version: string;
} {
  solhint ??= loadSolhint();
  // An explicit rule object (no "extends", no .solhint.json lookup): the result never depends
  // on config files lying around the analysed folder.
  const r = solhint!.processStr(args.source, { rules: args.rules }, args.file);
  return {
    version: solhintVersion(),
    reports: r.reports.map((x: any) => ({
      line: Number(x.line) || 1,
      column: Number(x.column) || 0,
      severity: Number(x.severity) || 0,
      message: String(x.message ?? ''),
      ruleId: x.ruleId ? String(x.ruleId) : null,
    })),
  };
}
