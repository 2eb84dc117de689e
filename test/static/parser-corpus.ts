// The corpus of the parser-equivalence check (test/static/parser-equivalence.test.ts samples it;
// bench/parser-equivalence.ts runs all of it) and the comparison itself: the two-stage parser
// against @solidity-parser/parser's own parse, same tree or same error.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import bundled from '@solidity-parser/parser';
import { parseSolidityText } from '../../lib/analysis/solidity-parser.ts';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const datasets = process.env.VIGIL_DATASETS ? path.resolve(process.env.VIGIL_DATASETS) : path.resolve(root, '../shared/datasets');

function solFiles(dir: string, out: string[] = []): string[] {
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== 'node_modules' && !e.name.startsWith('.')) solFiles(p, out);
    } else if (e.name.endsWith('.sol')) out.push(p);
  }
  return out;
}

/** Every Solidity file of the repository (plugins, tests, examples) and of each dataset. With
 *  `every` > 1, each dataset contributes every `every`-th of its files in path order (at least
 *  one): a fixed sample spread over the dataset's sources, compiler versions and sizes. The
 *  repository's own files are always all there. */
export function corpus(every = 1): { repository: string[]; datasets: Record<string, string[]> } {
  const repository = ['plugins', 'test', 'examples'].flatMap((d) => solFiles(path.join(root, d)));
  const sets: Record<string, string[]> = {};
  if (fs.existsSync(datasets))
    for (const e of fs.readdirSync(datasets, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (!e.isDirectory()) continue;
      const all = solFiles(path.join(datasets, e.name));
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
