// Runs a benchmark (`node scripts/run-bench.js bench/<name>.ts`) from the compiled JavaScript
// mirror (kernel/compiled.js), as `vigil` and the tests run: what is measured is the code a
// server runs. Through tsx instead, every function expression would also carry its transform's
// keep-names helper (a defineProperty call per closure created, a few per cent of a gateway
// turn) and the figures would not be the server's. Falls back to tsx when the mirror cannot be used.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const file = process.argv[2];
if (!file || !file.endsWith('.ts')) {
  console.error('usage: node scripts/run-bench.js bench/<name>.ts');
  process.exit(2);
}
const { prepareMirror, ensureTsx } = await import('../kernel/compiled.js');
const mirror = await prepareMirror({ withTests: true, quiet: false });
const src = path.resolve(root, file);
if (mirror) await import(pathToFileURL(path.join(mirror, path.relative(root, src)).replace(/\.ts$/, '.js')).href);
else {
  await ensureTsx();
  await import(pathToFileURL(src).href);
}
