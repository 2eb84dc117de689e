// The corpus of the parser-equivalence check (test/static/parser-equivalence.test.ts samples it;
// bench/parser-equivalence.ts runs all of it) and the comparison itself: the two-stage parser
// against @solidity-parser/parser's own parse, same tree or same error.
import fs from 'node:fs';
import path from 'node:path';
import bundled from '@solidity-parser/parser';
import { parseSolidityText } from '../../lib/analysis/solidity-parser.ts';
import { DATASETS, REPO_ROOT, solFiles } from '../support.ts';

export const root = REPO_ROOT;
const datasets = DATASETS;
/** A folder's .sol files in path order, so that a sample of every n-th file is the same on every machine. */
const sortedSolFiles = (dir: string) => solFiles(dir).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/** Every Solidity file of the repository (plugins, tests, examples) and of each dataset. With
 *  `every` > 1, each dataset contributes every `every`-th of its files in path order (at least
 *  one): a fixed sample spread over the dataset's sources, compiler versions and sizes. The
 *  repository's own files are always all there. */
export function corpus(every = 1): { repository: string[]; datasets: Record<string, string[]> } {
  const repository = ['plugins', 'test', 'examples'].flatMap((d) => sortedSolFiles(path.join(root, d)));
  const sets: Record<string, string[]> = {};
  if (fs.existsSync(datasets))
    for (const e of fs.readdirSync(datasets, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (!e.isDirectory()) continue;
      const all = sortedSolFiles(path.join(datasets, e.name));
      if (all.length) sets[e.name] = all.filter((_, i) => i % every === 0);
    }
  return { repository, datasets: sets };
}

const outcome = (fn: () => unknown) => {
  try {
    return JSON.stringify(fn());
  } catch (e) {
    const err = e as Error & { errors?: unknown };
    return `throws ${err.constructor.name}: ${err.message} ${JSON.stringify(err.errors ?? null)}`;
  }
};

/** The parse (tree, or the thrown error) of both parsers, as comparable text. */
export function bothParses(src: string, opts: Record<string, unknown>): { bundled: string; twoStage: string } {
  return { bundled: outcome(() => bundled.parse(src, opts)), twoStage: outcome(() => parseSolidityText(src, opts)) };
}

/** The files (relative to the repository) whose tolerant parse with locations differs. */
export function differing(files: string[]): string[] {
  const opts = { loc: true, range: true, tolerant: true };
  return files
    .filter((f) => {
      const r = bothParses(fs.readFileSync(f, 'utf8'), opts);
      return r.bundled !== r.twoStage;
    })
    .map((f) => path.relative(root, f));
}
