// `npm test`: runs every test/**/*.test.ts with node:test through tsx (Node 20 has no --test globs).
// Extra args are treated as path filters: `npm test -- wasm kernel`.
// VIGIL_SKIP_TYPECHECK=1 skips the type check of a whole run.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
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
// A whole run type-checks, lints and checks formatting first (strict TypeScript, ~25 s): tsx strips types without checking
// them, so a type error would otherwise land silently. Filtered runs skip it for speed.
if (filters.length === 0 && process.env.VIGIL_SKIP_TYPECHECK !== '1') {
  const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const r = spawnSync(process.execPath, [tsc, '--noEmit', '-p', path.join(root, 'tsconfig.json')], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error('type check failed (npm run typecheck): fix the errors above');
    process.exit(1);
  }
  console.log('type check passed');
  // Then lint (typescript-eslint with types, and the kernel <- lib <- plugins import rule) and
  // formatting: `npm run lint`, `npm run format` fix most of what these report.
  const bin = (pkg, file) => path.join(root, 'node_modules', pkg, file);
  for (const [name, args, fix] of [
    ['lint', [bin('eslint', 'bin/eslint.js'), '.'], 'npm run lint'],
    ['format', [bin('prettier', 'bin/prettier.cjs'), '--check', '--log-level', 'warn', '.'], 'npm run format'],
  ]) {
    const c = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
    if (c.status !== 0) {
      console.error(`${name} check failed (${fix}): fix the problems above`);
      process.exit(1);
    }
    console.log(`${name} check passed`);
  }
}
// Compilers: only the bundled releases, and no downloads, unless a test asks for them (the
// on-demand install test sets its own cache): results must not depend on this machine's cache.
const solcEnv = process.env.VIGIL_SOLC_CACHE
  ? {}
  : {
      VIGIL_SOLC_CACHE: fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-test-solc-')),
      VIGIL_SOLC_AUTO_INSTALL: process.env.VIGIL_SOLC_AUTO_INSTALL ?? '0',
    };
const concurrency = process.env.VIGIL_TEST_CONCURRENCY ?? '2';
const child = spawn(
  process.execPath,
  ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...files],
  { cwd: root, stdio: 'inherit', env: { ...process.env, ...solcEnv, VIGIL_LOG_LEVEL: process.env.VIGIL_LOG_LEVEL ?? 'silent' } },
);
child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 1)));
