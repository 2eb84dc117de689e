// Builds AssemblyScript WASM plugins: assembly/index.ts -> the manifest's entry (.wasm), then
// records the module's sha256 in plugin.json so the host refuses a swapped binary.
// The compiler runs through asc's API in one reused worker (kernel/wasm/asc-worker.js): loading
// it costs ~1-2 s once, each further module about a second, which keeps `npm install` and the
// fixture builds in tests short.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { unsupportedImports } from './module-limits.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
/** Repository root (kernel/wasm/../..). */
export const REPO_ROOT = path.resolve(here, '..', '..');
/** Folder holding the PDK package (`import ... from "pdk"` resolves to wasm/pdk/index.ts). */
export const PDK_PATH = path.join(REPO_ROOT, 'wasm');
/** AssemblyScript's `abort` is routed to the PDK so the module does not import env.abort. */
export const ABORT_ALIAS = 'abort=~lib/pdk/index/pdkAbort';

export class BuildError extends Error {
  constructor(
    public readonly dir: string,
    message: string,
  ) {
    super(`${path.basename(dir)}: ${message}`);
    this.name = 'BuildError';
  }
}

export interface CompileResult {
  wasmPath: string;
  sha256: string;
  bytes: number;
  ms: number;
}

interface AscReply {
  id: number;
  ok: boolean;
  binary: Uint8Array | null;
  error: string | null;
  stderr: string;
}

// One compiler worker, kept while compiles are pending and unref'd when idle so it never holds
// the process open.
let ascWorker: Worker | null = null;
let ascSeq = 0;
const ascPending = new Map<number, { resolve(r: AscReply): void; reject(e: Error): void }>();

function compilerWorker(): Worker {
  if (ascWorker) return ascWorker;
  const w = new Worker(new URL('./asc-worker.js', import.meta.url), { execArgv: [] });
  w.on('message', (m: AscReply) => {
    const p = ascPending.get(m.id);
    if (!p) return;
    ascPending.delete(m.id);
    if (ascPending.size === 0) w.unref();
    p.resolve(m);
  });
  const failAll = (e: Error) => {
    if (ascWorker === w) ascWorker = null;
    for (const p of ascPending.values()) p.reject(e);
    ascPending.clear();
  };
  w.on('error', (e) => failAll(new Error(`AssemblyScript compiler worker failed: ${e.message}`)));
  w.on('exit', (code) => failAll(new Error(`AssemblyScript compiler worker exited (code ${code})`)));
  ascWorker = w;
  return w;
}

function runCompiler(args: string[]): Promise<AscReply> {
  const w = compilerWorker();
  w.ref();
  const id = ++ascSeq;
  return new Promise<AscReply>((resolve, reject) => {
    ascPending.set(id, { resolve, reject });
    w.postMessage({ id, args });
  });
}

/** Stops the compiler worker (it is unref'd anyway; tests call this to be tidy). */
export async function stopCompiler(): Promise<void> {
  const w = ascWorker;
  ascWorker = null;
  if (w) await w.terminate();
}

/** Compiles one AssemblyScript entry file to `outFile` against the PDK. */
export async function compileAssemblyScript(entry: string, outFile: string, opts: { optimize?: boolean } = {}): Promise<CompileResult> {
  const started = performance.now();
  entry = path.resolve(entry);
  if (!existsSync(entry)) throw new Error(`source ${entry} not found`);
  const args = [
    entry,
    '--path', PDK_PATH,
    '--use', ABORT_ALIAS,
    '--runtime', 'incremental',
    ...(opts.optimize === false ? [] : ['-O2']),
    '--outFile', 'out.wasm',
    '--noColors',
  ];
  const reply = await runCompiler(args);
  if (!reply.ok || !reply.binary) {
    const text = reply.stderr.trim() || reply.error || 'no output produced';
    // The abort alias needs the PDK in the program; without it asc's message is cryptic.
    const hint = /pdkAbort' not found/.test(text) ? '\nhint: the module must import the PDK (e.g. `import { readInputString } from "pdk"`); the build routes AssemblyScript\'s abort to it' : '';
    throw new Error(`AssemblyScript compilation failed:\n${text}${hint}`);
  }
  const bytes = reply.binary;
  await mkdir(path.dirname(outFile), { recursive: true });
  // Write then rename: a reader never sees a half-written module.
  const tmp = `${outFile}.${process.pid}.tmp`;
  await writeFile(tmp, bytes);
  await rename(tmp, outFile);
  return {
    wasmPath: outFile,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    bytes: bytes.length,
    ms: Math.round(performance.now() - started),
  };
}

interface RawManifest {
  id?: unknown;
  kind?: unknown;
  runtime?: unknown;
  entry?: unknown;
  wasm?: Record<string, unknown>;
  detector?: { export?: unknown };
  skill?: { export?: unknown };
  [k: string]: unknown;
}

async function readManifest(dir: string): Promise<RawManifest> {
  const file = path.join(dir, 'plugin.json');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new BuildError(dir, `no plugin.json in ${dir}`);
  }
  let m: unknown;
  try {
    m = JSON.parse(text);
  } catch (e) {
    throw new BuildError(dir, `plugin.json is not valid JSON: ${(e as Error).message}`);
  }
  if (!m || typeof m !== 'object' || Array.isArray(m)) throw new BuildError(dir, 'plugin.json must be a JSON object');
  return m as RawManifest;
}

export interface PluginBuildResult extends CompileResult {
  id: string;
  dir: string;
  /** True when plugin.json's wasm.sha256 was written (it changed). */
  manifestUpdated: boolean;
}

/** Builds the WASM plugin in `dir` and records the sha256 in its plugin.json. */
export async function buildPlugin(dir: string): Promise<PluginBuildResult> {
  dir = path.resolve(dir);
  const m = await readManifest(dir);
  if (m.runtime !== 'wasm') throw new BuildError(dir, `plugin.json runtime is ${JSON.stringify(m.runtime)}, not "wasm"`);
  if (typeof m.entry !== 'string' || !m.entry.endsWith('.wasm')) throw new BuildError(dir, 'plugin.json entry must name a .wasm file');
  const out = path.resolve(dir, m.entry);
  if (!out.startsWith(dir + path.sep)) throw new BuildError(dir, 'entry must be a path inside the plugin folder');
  const src = path.join(dir, 'assembly', 'index.ts');
  if (!existsSync(src)) throw new BuildError(dir, 'no assembly/index.ts to compile');

  let compiled: CompileResult;
  try {
    compiled = await compileAssemblyScript(src, out);
  } catch (e) {
    throw new BuildError(dir, (e as Error).message);
  }

  // Catch a module the host would refuse now rather than at service start.
  const module = await WebAssembly.compile(await readFile(out));
  const bad = unsupportedImports(module);
  if (bad.length) throw new BuildError(dir, `built module imports ${bad.join(', ')}, which the host does not provide`);
  const exported = new Set(WebAssembly.Module.exports(module).map((e) => e.name));
  const wanted = m.kind === 'detector' ? (m.detector?.export ?? 'detect') : m.kind === 'skill' ? (m.skill?.export ?? 'call') : null;
  if (typeof wanted === 'string' && !exported.has(wanted)) {
    throw new BuildError(dir, `built module does not export "${wanted}" (declared by the manifest); exports: ${[...exported].join(', ')}`);
  }

  let manifestUpdated = false;
  const wasm = m.wasm && typeof m.wasm === 'object' ? m.wasm : {};
  if (wasm.sha256 !== compiled.sha256) {
    m.wasm = { ...wasm, sha256: compiled.sha256 };
    const file = path.join(dir, 'plugin.json');
    const tmp = `${file}.${process.pid}.tmp`;
    await writeFile(tmp, `${JSON.stringify(m, null, 2)}\n`);
    await rename(tmp, file);
    manifestUpdated = true;
  }
  return { ...compiled, id: typeof m.id === 'string' ? m.id : path.basename(dir), dir, manifestUpdated };
}

export type BuildOutcome = { dir: string; ok: true; result: PluginBuildResult } | { dir: string; ok: false; error: string };

/** Builds each folder in turn; one failure does not stop the others. */
export async function buildAll(dirs: string[]): Promise<BuildOutcome[]> {
  const outcomes: BuildOutcome[] = [];
  for (const dir of dirs) {
    try {
      outcomes.push({ dir, ok: true, result: await buildPlugin(dir) });
    } catch (e) {
      outcomes.push({ dir, ok: false, error: (e as Error).message });
    }
  }
  return outcomes;
}

/** Plugin folders directly under `roots` whose plugin.json says runtime "wasm" and that have
 *  AssemblyScript sources (prebuilt-only plugins are left alone). */
export async function findWasmPluginDirs(roots: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const root of roots) {
    let entries: string[];
    try {
      entries = (await readdir(root)).sort();
    } catch {
      continue;
    }
    for (const name of entries) {
      const dir = path.join(root, name);
      try {
        if (!(await stat(dir)).isDirectory()) continue;
        if (!existsSync(path.join(dir, 'assembly', 'index.ts'))) continue;
        const m = JSON.parse(await readFile(path.join(dir, 'plugin.json'), 'utf8')) as RawManifest;
        if (m.runtime === 'wasm') found.push(dir);
      } catch {
        // Not a buildable plugin folder (no or unreadable plugin.json): discovery reports it.
      }
    }
  }
  return found;
}

/** Where the bundled WASM plugins live: plugins/ and examples/ of this repository. */
export function defaultPluginRoots(): string[] {
  return [path.join(REPO_ROOT, 'plugins'), path.join(REPO_ROOT, 'examples')];
}
