// The parser-equivalence check on the whole corpus: the two-stage parser against
// @solidity-parser/parser's own parse on every Solidity file of the repository and of every
// dataset (`npm test` compares the repository's files and every 6th dataset file:
// test/static/parser-equivalence.test.ts). Run it when the parser or its grammar changes:
//   npm run bench:parser          (exit 1 and the list of files when a tree or error differs)
import { corpus, differing } from '../test/static/parser-corpus.ts';

const c = corpus(1);
const groups: Array<[string, string[]]> = [['repository', c.repository], ...Object.entries(c.datasets)];
let bad = 0;
const cpu0 = process.cpuUsage();
for (const [name, files] of groups) {
  const t0 = process.cpuUsage();
  const diff = differing(files);
  const u = process.cpuUsage(t0);
  bad += diff.length;
  console.log(`${name}: ${files.length} files, ${diff.length} differ (${((u.user + u.system) / 1e6).toFixed(1)} CPU-s)`);
  for (const f of diff) console.log(`  differs: ${f}`);
}
const u = process.cpuUsage(cpu0);
console.log(`all: ${groups.reduce((s, [, f]) => s + f.length, 0)} files, ${bad} differ, ${((u.user + u.system) / 1e6).toFixed(1)} CPU-s`);
process.exit(bad ? 1 : 0);
