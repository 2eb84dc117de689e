// Ahead-of-time JavaScript for vigil's own TypeScript. Node 20 runs TypeScript only through a
// loader (tsx), whose hooks run on a separate thread: every import of every module, in the main
// thread and in each pool worker, waits on a round trip there — about a second of CPU per thread
// before any work starts, most of a one-file `vigil analyze`. So vigil keeps a mirror of its sources
// compiled to JavaScript (esbuild, type-stripping only: the same transform tsx applies) under
// node_modules/.cache/vigil-js, written at install and refreshed at start when a source changed, and
// runs that. Each compiled file keeps its source's `import.meta.url`, so paths to data files, task
// modules and workers still point into the source tree; only relative import specifiers are
// rewritten (to the mirror's `.js`, or to the source tree's own non-TypeScript file). Plain
// JavaScript, because it runs before any TypeScript loader.
//
// A TypeScript module outside the tree (a plugin in VIGIL_PLUGIN_DIRS, a test's temporary plugin)
// is bundled on import with its imports of vigil pointing at the mirror; tsx, registered on first
// need, is the fallback. VIGIL_NO_JS_CACHE=1 turns the mirror off entirely.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE_DIRS = ['kernel', 'lib', 'plugins', 'schemas'];
/** Sources compiled from dependencies that ship TypeScript only: the Solidity parser's grammar
 *  and AST builder (lib/analysis/solidity-parser.ts drives them directly; tsx loads them as
 *  CommonJS TypeScript). Compiled to CommonJS under `vendor/`. */
const VENDOR = [{ pkg: '@solidity-parser/parser', dir: 'src' }];
const ENV_DIR = 'VIGIL_JS_MIRROR';

/** solc builds older than 0.5 are asm.js that V8 declines to validate (it runs them as plain JS):
 *  a harmless "Invalid asm.js" warning per load that would otherwise land on the user's stderr.
 *  Node's other warnings are printed as Node prints them. (The launcher and each pool worker.) */
export function quietAsmJsWarnings() {
  process.removeAllListeners('warning');
  process.on('warning', (w) => {
    if (/Invalid asm\.js/.test(w.message)) return;
    process.stderr.write(`(node:${process.pid}) ${w.name}: ${w.message}\n`);
  });
}

export function mirrorDir() {
  return path.resolve(process.env.VIGIL_JS_CACHE_DIR || path.join(ROOT, 'node_modules', '.cache', 'vigil-js'));
}

function walk(dir, out, skip) {
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (!skip(e.name)) walk(p, out, skip);
    } else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** Every source the mirror holds: [source path, compiled path, module format]. */
function plan(out, withTests) {
  const items = [];
  // AssemblyScript sources are WASM plugin code, not Node modules.
  const skip = (name) => name === 'node_modules' || name === 'assembly' || name.startsWith('.');
  for (const d of withTests ? [...SOURCE_DIRS, 'test', 'bench'] : SOURCE_DIRS)
    for (const src of walk(path.join(ROOT, d), [], skip))
      items.push([src, path.join(out, path.relative(ROOT, src)).replace(/\.ts$/, '.js'), 'esm']);
  const require = createRequire(path.join(ROOT, 'package.json'));
  for (const v of VENDOR) {
    let base;
    try {
      base = path.dirname(require.resolve(`${v.pkg}/package.json`));
    } catch {
      continue;
    }
    for (const src of walk(path.join(base, v.dir), [], skip))
      items.push([src, path.join(out, 'vendor', v.pkg, path.relative(base, src)).replace(/\.ts$/, '.js'), 'cjs']);
  }
  return items;
}

let tsconfig;
function tsconfigRaw() {
  if (tsconfig === undefined) {
    try {
      tsconfig = { compilerOptions: JSON.parse(fs.readFileSync(path.join(ROOT, 'tsconfig.json'), 'utf8')).compilerOptions ?? {} };
    } catch {
      tsconfig = { compilerOptions: {} };
    }
  }
  return tsconfig;
}

/** A relative import in the mirror: a TypeScript module is its compiled neighbour; anything else
 *  (a plain .js module, JSON) is the source tree's own file, so each module exists once. Imports
 *  are found by es-module-lexer, not by pattern: source text holds Solidity `import "./X.sol";`
 *  lines in strings, which must stay as they are. */
function rewriteSpecifiers(lexer, code, src) {
  const [imports] = lexer.parse(code);
  let out = code;
  for (const im of [...imports].reverse()) {
    const spec = im.n;
    if (typeof spec !== 'string' || !/^\.\.?\//.test(spec)) continue;
    const next = spec.endsWith('.ts') ? `${spec.slice(0, -3)}.js` : pathToFileURL(path.resolve(path.dirname(src), spec)).href;
    // A static import's range is the bare specifier; a dynamic one's is the quoted expression.
    out = out.slice(0, im.s) + (im.d > -1 ? JSON.stringify(next) : next) + out.slice(im.e);
  }
  return out;
}

async function compileOne(esbuild, lexer, [src, dest, format]) {
  const code = fs.readFileSync(src, 'utf8');
  const url = pathToFileURL(src).href;
  const r = await esbuild.transform(code, {
    loader: 'ts',
    format,
    target: 'node20',
    sourcefile: src,
    sourcemap: 'inline',
    sourcesContent: false,
    tsconfigRaw: format === 'esm' ? tsconfigRaw() : {},
    define:
      format === 'esm'
        ? {
            'import.meta.url': JSON.stringify(url),
            'import.meta.dirname': JSON.stringify(path.dirname(src)),
            'import.meta.filename': JSON.stringify(src),
          }
        : {},
  });
  const text = format === 'esm' ? rewriteSpecifiers(lexer, r.code, src) : r.code;
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  // Another process may be refreshing the same file: write aside, then rename (atomic).
  const tmp = `${dest}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  fs.writeFileSync(tmp, text);
  const st = fs.statSync(src);
  fs.utimesSync(tmp, st.atime, st.mtime);
  fs.renameSync(tmp, dest);
}

function stale([src, dest]) {
  try {
    // The copy carries its source's mtime; utimes keeps about a millisecond of it, not nanoseconds.
    return Math.abs(fs.statSync(dest).mtimeMs - fs.statSync(src).mtimeMs) >= 1;
  } catch {
    return true;
  }
}

/** Brings the mirror up to date (compiling only what changed) and returns its folder, or null when
 *  it cannot be used here (no esbuild, a read-only install that is out of date, turned off). */
export async function prepareMirror({ quiet = true, withTests = false } = {}) {
  if (/^(1|true|yes)$/i.test(process.env.VIGIL_NO_JS_CACHE ?? '')) return null;
  const out = mirrorDir();
  const items = plan(out, withTests);
  const todo = items.filter(stale);
  if (todo.length) {
    let esbuild, lexer;
    try {
      esbuild = await import('esbuild');
      lexer = await import('es-module-lexer');
      await lexer.init;
    } catch {
      return null;
    }
    try {
      fs.mkdirSync(out, { recursive: true });
      // The mirror sits under the project's package.json ("type": "module"); vendored CommonJS says so.
      for (const [dir, type] of [
        [out, 'module'],
        [path.join(out, 'vendor'), 'commonjs'],
      ]) {
        fs.mkdirSync(dir, { recursive: true });
        const pj = path.join(dir, 'package.json');
        if (!fs.existsSync(pj)) fs.writeFileSync(pj, JSON.stringify({ type }) + '\n');
      }
      // A mirror outside the project (VIGIL_JS_CACHE_DIR) resolves packages through a link to
      // the project's node_modules, as the default one inside node_modules does by its place.
      const nm = path.join(out, 'node_modules');
      if (!out.startsWith(path.join(ROOT, 'node_modules') + path.sep) && !fs.existsSync(nm))
        fs.symlinkSync(path.join(ROOT, 'node_modules'), nm, 'dir');
      await Promise.all(todo.map((it) => compileOne(esbuild, lexer, it)));
    } catch (e) {
      if (!quiet) process.stderr.write(`vigil: compiled JavaScript cache not usable (${e.message}); running through tsx\n`);
      return null;
    }
  }
  process.env[ENV_DIR] = out;
  return out;
}

let tsxRegistered = false;
/** Registers the TypeScript loader in this thread (once): for sources the mirror does not hold. */
export async function ensureTsx() {
  if (tsxRegistered) return;
  tsxRegistered = true;
  // Both hooks, as `node --import tsx` sets them: a TypeScript file outside a "type": "module"
  // package is loaded through require(), which the ESM hooks alone leave in a cycle.
  (await import('tsx/esm/api')).register();
  (await import('tsx/cjs/api')).register();
}

/** The compiled file for a source path inside the tree, or null (not in the mirror, or no mirror). */
export function compiledPath(file) {
  const out = process.env[ENV_DIR];
  if (!out || !file.endsWith('.ts')) return null;
  const rel = path.relative(ROOT, file);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
  const dest = path.join(out, rel).replace(/\.ts$/, '.js');
  return fs.existsSync(dest) ? dest : null;
}

/** The compiled CommonJS module of a vendored TypeScript dependency file (see VENDOR), or null. */
export function compiledVendorPath(pkg, relInPackage) {
  const out = process.env[ENV_DIR];
  if (!out) return null;
  const dest = path.join(out, 'vendor', pkg, relInPackage).replace(/\.ts$/, '.js');
  return fs.existsSync(dest) ? dest : null;
}

/** `import()` of a module by file path: its compiled JavaScript when the mirror has it, else the
 *  source (through tsx for TypeScript). */
export async function importModule(file) {
  const compiled = compiledPath(file);
  if (compiled) return import(pathToFileURL(compiled).href);
  // Without the mirror the host already runs a TypeScript loader (bin/vigil.js, a test runner).
  if (process.env[ENV_DIR] && file.endsWith('.ts')) {
    const bundled = await bundleOutside(file).catch(() => null);
    if (bundled) return import(pathToFileURL(bundled).href);
    await ensureTsx();
  }
  return import(pathToFileURL(file).href);
}

/** A TypeScript module outside the tree (a plugin in VIGIL_PLUGIN_DIRS, say), bundled with its own
 *  imports into one file whose imports of vigil's sources are the mirror's modules: loading it
 *  through tsx instead would give it a second copy of the kernel (its HttpError would not be
 *  vigil's). npm packages stay imports, resolved from the plugin's folder. */
async function bundleOutside(file) {
  const out = process.env[ENV_DIR];
  const esbuild = await import('esbuild');
  const dest = path.join(out, 'outside', `${createHash('sha256').update(file).digest('hex').slice(0, 16)}.mjs`);
  const r = await esbuild.build({
    entryPoints: [file],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    sourcemap: 'inline',
    logLevel: 'silent',
    plugins: [
      {
        name: 'vigil-mirror',
        setup(b) {
          b.onResolve({ filter: /^\.|^\// }, (a) => {
            const abs = path.resolve(a.resolveDir, a.path);
            const mirrored = compiledPath(abs);
            return mirrored ? { path: pathToFileURL(mirrored).href, external: true } : undefined;
          });
          // Each bundled file keeps its own location, so paths to its data files still work.
          b.onLoad({ filter: /\.[cm]?[jt]s$/ }, (a) => ({
            loader: /\.[cm]?ts$/.test(a.path) ? 'ts' : 'js',
            contents: fs
              .readFileSync(a.path, 'utf8')
              .replace(/\bimport\.meta\.url\b/g, JSON.stringify(pathToFileURL(a.path).href))
              .replace(/\bimport\.meta\.dirname\b/g, JSON.stringify(path.dirname(a.path)))
              .replace(/\bimport\.meta\.filename\b/g, JSON.stringify(a.path)),
          }));
        },
      },
    ],
  });
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  const tmp = `${dest}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, r.outputFiles[0].text);
  fs.renameSync(tmp, dest);
  return dest;
}
