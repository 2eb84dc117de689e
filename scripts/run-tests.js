// `npm test`: runs every test/**/*.test.ts with node:test through tsx (Node 20 has no --test globs).
// Extra args are treated as path filters: `npm test -- wasm kernel`.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const walk = (d) =>
  fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(d, e.name);
    if (e.isDirectory()) return e.name === 'fixtures' || e.name === 'node_modules' ? [] : walk(p);
    return e.name.endsWith('.test.ts') ? [p] : [];
  });
const filters = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const files = walk(path.join(root, 'test'))
  .map((f) => path.relative(root, f))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
const concurrency = process.env.VIGIL_TEST_CONCURRENCY ?? '2';
const child = spawn(
  process.execPath,
  ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...files],
  { cwd: root, stdio: 'inherit', env: { ...process.env, VIGIL_LOG_LEVEL: process.env.VIGIL_LOG_LEVEL ?? 'silent' } },
);
child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 1)));
