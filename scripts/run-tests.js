// `npm test`: runs every test/**/*.test.ts with node:test (Node 20 has no --test globs).
// Extra args are treated as path filters: `npm test -- wasm kernel`.
// VIGIL_SKIP_TYPECHECK=1 skips the type check, lint and format steps of a whole run.
// VIGIL_TEST_CPU_LOG=<file> appends each test file's CPU and wall seconds to <file> (JSON lines),
// then prints the heaviest files: `VIGIL_TEST_CPU_LOG=/tmp/cpu.jsonl npm test`.
import { spawn } from 'node:child_process';
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

// A whole run also type-checks (strict TypeScript: tsx strips types without checking them, so a
// type error would otherwise land silently), lints (typescript-eslint with types, and the
// kernel <- lib <- plugins import rule) and checks formatting; filtered runs skip that for speed.
// The type check is ESLint's `vigil/typecheck` rule: tsc's errors taken from the TypeScript program
// the type-aware rules build anyway (a separate `tsc --noEmit` built and checked the same program
// a second time; `npm run typecheck` still runs tsc alone).
// The checks are single-threaded and the tests keep both cores busy only once they run, so
// the checks run beside the tests rather than before them (on 2 cores that is ~2 min of one idle
// core saved); their output is held back and printed after the tests', with the verdict.
const bin = (pkg, file) => path.join(root, 'node_modules', pkg, file);
const checks =
  filters.length === 0 && process.env.VIGIL_SKIP_TYPECHECK !== '1'
    ? [
        { name: 'type check and lint', args: [bin('eslint', 'bin/eslint.js'), '.'], fix: 'npm run lint' },
        { name: 'format', args: [bin('prettier', 'bin/prettier.cjs'), '--check', '--log-level', 'warn', '.'], fix: 'npm run format' },
      ]
    : [];
const running = checks.map(
  (c) =>
    new Promise((resolve) => {
      let out = '';
      const p = spawn(process.execPath, c.args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
      p.stdout.on('data', (d) => (out += d));
      p.stderr.on('data', (d) => (out += d));
      p.on('error', (e) => resolve({ ...c, ok: false, out: out + String(e) }));
      p.on('close', (code) => resolve({ ...c, ok: code === 0, out }));
    }),
);

// Compilers: only the bundled releases, and no downloads, unless a test asks for them (the
// on-demand install test sets its own cache): results must not depend on this machine's cache.
const solcEnv = process.env.VIGIL_SOLC_CACHE
  ? {}
  : {
      VIGIL_SOLC_CACHE: fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-test-solc-')),
      VIGIL_SOLC_AUTO_INSTALL: process.env.VIGIL_SOLC_AUTO_INSTALL ?? '0',
    };
const concurrency = process.env.VIGIL_TEST_CONCURRENCY ?? '2';
const cpuLog = process.env.VIGIL_TEST_CPU_LOG ? path.resolve(process.env.VIGIL_TEST_CPU_LOG) : null;
// The tests run from the compiled JavaScript mirror (kernel/compiled.js), as `vigil` does: tsx's
// loader hooks cost about a second of CPU in every test process and pool worker. Stack traces
// still point at the .ts lines (source maps). VIGIL_NO_JS_CACHE=1 runs them through tsx.
const { prepareMirror } = await import('../kernel/compiled.js');
const mirror = await prepareMirror({ withTests: true, quiet: false });
const child = spawn(
  process.execPath,
  [
    ...(mirror ? ['--enable-source-maps'] : ['--import', 'tsx']),
    ...(cpuLog ? ['--import', path.join(root, 'scripts', 'test-cpu.js')] : []),
    '--test',
    `--test-concurrency=${concurrency}`,
    '--test-reporter=spec',
    ...(mirror ? files.map((f) => path.join(mirror, f).replace(/\.ts$/, '.js')) : files),
  ],
  { cwd: root, stdio: 'inherit', env: { ...process.env, ...solcEnv, VIGIL_LOG_LEVEL: process.env.VIGIL_LOG_LEVEL ?? 'silent' } },
);
const tests = new Promise((resolve) => child.on('exit', (code, signal) => resolve(signal ? 1 : (code ?? 1))));

const testCode = await tests;
if (cpuLog && fs.existsSync(cpuLog)) {
  const rows = fs
    .readFileSync(cpuLog, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  const cpu = (r) => r.user + r.system + (r.children ?? 0);
  const total = rows.reduce((s, r) => s + cpu(r), 0);
  console.log(
    `\nCPU seconds by test file, the processes it spawned included (${rows.length} files, ${total.toFixed(1)} CPU-s in all; log: ${cpuLog}):`,
  );
  for (const r of rows.sort((a, b) => cpu(b) - cpu(a)).slice(0, 20))
    console.log(`  ${cpu(r).toFixed(1).padStart(6)} cpu ${r.wall.toFixed(1).padStart(6)} wall  ${r.file}`);
}
let failed = testCode !== 0;
for (const r of await Promise.all(running)) {
  if (r.ok) {
    console.log(`${r.name} passed`);
    continue;
  }
  failed = true;
  process.stdout.write(r.out);
  console.error(`${r.name} failed (${r.fix}): fix the problems above`);
}
process.exit(failed ? 1 : 0);
