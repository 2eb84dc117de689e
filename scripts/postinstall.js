// Runs after npm install / npm ci: compiles the TypeScript sources to the JavaScript mirror that
// `vigil` runs from (kernel/compiled.js; refreshed at start-up when a source changes, but an
// installed copy may not be writable then), and builds the bundled WASM plugins (AssemblyScript ->
// .wasm) under plugins/ and examples/ through kernel/wasm/build-cli.ts. Built modules are not in
// git, so this is how a fresh checkout gets them. Never fails the install: a plugin that does not
// build is reported and stays unavailable. VIGIL_SKIP_WASM_BUILD=1 skips the WASM step.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'kernel', 'wasm', 'build-cli.ts');

// Resolved like the build will resolve them (works when npm hoists them above this package).
function resolvable(specifier) {
  try {
    import.meta.resolve(specifier);
    return true;
  } catch {
    return false;
  }
}

function warn(msg) {
  console.warn(`vigil postinstall: ${msg}`);
}

try {
  const { prepareMirror } = await import('../kernel/compiled.js');
  if (!(await prepareMirror({ quiet: false }))) warn('the compiled JavaScript cache was not built; vigil runs through tsx');
} catch (e) {
  warn(`the compiled JavaScript cache was not built (${e.message}); vigil runs through tsx`);
}

if (process.env.VIGIL_SKIP_WASM_BUILD) {
  console.log('vigil postinstall: VIGIL_SKIP_WASM_BUILD is set, WASM plugins not built');
} else if (!existsSync(cli)) {
  warn(`${path.relative(root, cli)} not found; WASM plugins not built`);
} else if (!resolvable('tsx') || !resolvable('assemblyscript/asc')) {
  warn('tsx or assemblyscript is not installed; WASM plugins not built (run `npm run build:wasm` once they are)');
} else {
  const r = spawnSync(process.execPath, ['--import', 'tsx', cli, '--optional'], {
    cwd: root,
    stdio: 'inherit',
    timeout: 10 * 60 * 1000,
  });
  if (r.error) warn(`WASM build could not run: ${r.error.message}`);
  else if (r.status !== 0) warn(`WASM build exited with code ${r.status}; WASM plugins may be unavailable`);
}
process.exit(0);
