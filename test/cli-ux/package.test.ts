// The npm package holds what `vigil` needs at run time and nothing that only this repository has:
// every file a shipped module imports is shipped, every package it imports is a runtime
// dependency (not a devDependency), and the datasets beside the repository are not read.
// (The full `npm pack` -> `npm install -g` -> `vigil analyze` elsewhere check is ci-docs.test.ts:
// it installs the tarball into a temporary prefix and runs every CI scenario with it.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { builtinModules } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));

function packedFiles(): Set<string> {
  const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return new Set((JSON.parse(r.stdout)[0].files as Array<{ path: string }>).map((f) => f.path));
}

const files = packedFiles();

test('the package ships the CLI, the kernel, every plugin with its entry, the postinstall and the hooks; not tests or benchmarks', () => {
  for (const f of [
    'bin/vigil.js',
    'kernel/cli.ts',
    'kernel/wasm/build-cli.ts',
    'scripts/postinstall.js',
    'scripts/git-hooks/pre-commit',
    'schemas/finding.ts',
    'wasm/pdk/index.ts',
    'package.json',
    'README.md',
    'docs/ci.md',
  ]) {
    assert.ok(files.has(f), `${f} is not in the package`);
  }
  for (const dir of fs.readdirSync(path.join(root, 'plugins'))) {
    const manifest = `plugins/${dir}/plugin.json`;
    if (!fs.existsSync(path.join(root, manifest))) continue;
    assert.ok(files.has(manifest), manifest);
    const m = JSON.parse(fs.readFileSync(path.join(root, manifest), 'utf8'));
    // a WASM plugin's module is built at install (postinstall); its sources must be there
    if (m.runtime === 'wasm') assert.ok(files.has(`plugins/${dir}/assembly/index.ts`), `${dir}: AssemblyScript source`);
    else assert.ok(files.has(`plugins/${dir}/${m.entry}`), `${dir}: entry ${m.entry}`);
  }
  for (const f of files) {
    assert.ok(
      !/^(test|bench|\.ci|node_modules)\//.test(f) && !f.endsWith('.wasm') && !f.startsWith('docs/screenshots/'),
      `${f} should not be in the package`,
    );
  }
  assert.equal(pkg.bin.vigil, 'bin/vigil.js');
  assert.ok(pkg.dependencies.tsx, 'tsx runs the TypeScript sources at run time: a dependency, not a devDependency');
});

test('every import of a shipped module resolves inside the package or to a runtime dependency', () => {
  const deps = new Set(Object.keys(pkg.dependencies));
  const builtins = new Set(builtinModules);
  const problems: string[] = [];
  let checked = 0;
  // static imports/exports at a line start, dynamic import() and require() of a literal
  const spec = /(?:^\s*(?:import|export)\s[^;'"]*?\bfrom\s*|^\s*import\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)(['"])([@\w.][\w@./-]*)\1/gm;
  for (const f of files) {
    if (!/\.(ts|js|mjs|cjs)$/.test(f) || f.includes('/assembly/') || f.startsWith('wasm/')) continue; // AssemblyScript sources compile with asc
    const text = fs
      .readFileSync(path.join(root, f), 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '');
    for (const m of text.matchAll(spec)) {
      const s = m[2];
      checked++;
      if (s.startsWith('.')) {
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(f), s));
        if (!files.has(target) && !fs.existsSync(path.join(root, target, 'package.json')))
          problems.push(`${f}: ${s} (${target} is not shipped)`);
      } else if (!s.startsWith('node:') && !builtins.has(s)) {
        const name = s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : s.split('/')[0];
        if (!deps.has(name)) problems.push(`${f}: "${s}" is not a runtime dependency`);
      }
    }
  }
  assert.deepEqual(problems, []);
  assert.ok(checked > 500, `only ${checked} imports found: the scanner is broken`);
});

test('no shipped module reads the shared datasets beside the repository at run time', () => {
  const offenders: string[] = [];
  for (const f of files) {
    if (!/\.(ts|js)$/.test(f)) continue;
    const text = fs.readFileSync(path.join(root, f), 'utf8');
    if (/\.\.\/shared\/datasets|\/work\/shared/.test(text) && !/DATASETS_DIR|VIGIL_DATASETS/.test(text)) offenders.push(f);
  }
  assert.deepEqual(offenders, []);
});
