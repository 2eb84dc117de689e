// A solc run that may not end by itself (the SMTChecker: settings.modelChecker.timeout crashes
// the emscripten builds, so nothing inside solc bounds a query) runs in a helper thread owned by
// the calling thread (a kernel pool worker), under a CPU-time budget: when the budget or the
// deadline runs out, only the helper is terminated. Before, the pool killed the worker itself,
// and the next task there reloaded everything it holds warm (modules, the parser, solc, Z3) —
// several CPU-seconds per overrun. The helper keeps its compiler loaded between runs, and is
// dropped after a minute without work (or with its owner).
//
// The caller blocks while the helper compiles (Atomics.wait; the pool worker has nothing else
// to do), so the compile stays a synchronous call for compile.ts.
import { receiveMessageOnPort, MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CompileStopped, compileTask, type CompileRequest, type CompileResult } from '../../lib/analysis/compiler/index.ts';
import { compilerModule, type CompilerModule } from '../../lib/analysis/compiler/solc-loader.ts';

/** The helper's code (plain CommonJS: it only loads a solc-js build and compiles). */
const HELPER = `(() => {
const { workerData } = require('node:worker_threads');
const fs = require('node:fs');
const { mod, port, state, warm } = workerData;
const flag = new Int32Array(state);
let cpuFile = null;
try {
  cpuFile = '/proc/' + fs.readlinkSync('/proc/thread-self') + '/schedstat';
  fs.readFileSync(cpuFile, 'utf8');
} catch {
  cpuFile = null;
}
const done = (msg) => {
  port.postMessage(msg);
  Atomics.store(flag, 0, 2);
  Atomics.notify(flag, 0);
};
let solc;
try {
  solc = mod.soljson ? require(mod.wrapper)(require(mod.soljson)) : require(mod.pkg);
} catch (e) {
  done({ crashed: 'loading solc ' + mod.version + ' failed: ' + String((e && e.message) || e) });
  return;
}
const fn = typeof solc.compileStandardWrapper === 'function' ? solc.compileStandardWrapper : solc.compile;
const longVersion = typeof solc.version === 'function' ? String(solc.version()) : mod.version;
// A replacement loading in the background first runs one small model-checking compile: V8 runs a
// fresh solc's code unoptimized, and its first real job took 2-3x as long (over a 1.7 s slice
// for a 23-line contract at load 15).
if (warm) {
  try {
    const src = '// SPDX-License-Identifier: MIT\\npragma solidity >=0.8.0;\\ncontract W { function f(uint a) public pure returns (uint) { assert(a != 3); return 10 / a; } }\\n';
    fn(JSON.stringify({ language: 'Solidity', sources: { 'W.sol': { content: src } }, settings: { modelChecker: { engine: 'bmc', targets: ['assert', 'divByZero'] }, outputSelection: {} } }), { import: () => ({ error: 'none' }) });
  } catch {
    // Only a warm-up: the first real job pays what this did not do.
  }
}
done({ ready: true, cpuFile, longVersion });
port.on('message', ({ input }) => {
  const imports = [];
  // Every import was resolved before the compile: solc asks only for what is not there.
  const onImport = (p) => {
    imports.push(p);
    return { error: 'import "' + p + '" not found' };
  };
  let raw;
  try {
    raw = fn(input, mod.modern ? { import: onImport } : onImport);
  } catch (e) {
    done({ crashed: String((e && e.message) || e) });
    return;
  }
  done({ raw, imports });
});
})();
`;

interface Helper {
  version: string;
  worker: Worker;
  port: MessagePort;
  flag: Int32Array;
  cpuFile: string | null;
  longVersion: string;
  idle: NodeJS.Timeout | null;
  /** solc is loaded (its hello was read). */
  ready: boolean;
}

/** One helper per compiler release this thread has model-checked with (in practice one). */
const helpers = new Map<string, Helper>();
const IDLE_MS = 60_000;
const POLL_MS = 25;

function cpuMs(file: string | null): number | null {
  if (!file) return null;
  try {
    return Number(readFileSync(file, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return null;
  }
}

function drop(h: Helper): void {
  if (h.idle) clearTimeout(h.idle);
  if (helpers.get(h.version) === h) helpers.delete(h.version);
  h.port.close();
  void h.worker.terminate();
}

/** Waits (blocking this thread) until the helper flags an answer, or `stop` says to give up
 *  (then the helper is dropped, unless `keep`: one still loading solc goes on loading). */
function waitFor(h: Helper, stop: () => CompileStopped | null, keep = false): unknown {
  for (;;) {
    Atomics.wait(h.flag, 0, 1, POLL_MS);
    if (Atomics.load(h.flag, 0) === 2) {
      // The message is queued before the flag is set; a few tries cover the hand-over.
      for (let i = 0; i < 100; i++) {
        const m = receiveMessageOnPort(h.port);
        if (m) return m.message;
        Atomics.wait(h.flag, 0, 2, 1);
      }
      throw new Error('the compiler thread flagged an answer it did not send');
    }
    const s = stop();
    if (s) {
      if (!keep) drop(h);
      throw s;
    }
  }
}

/** Starts a helper loading `version` (not waiting for it); `warm`: it also runs a small
 *  model-checking compile before it says it is ready (a replacement, loading in the background). */
function spawn(version: string, warm = false): Helper {
  const mod: CompilerModule = compilerModule(version);
  const { port1, port2 } = new MessageChannel();
  const state = new SharedArrayBuffer(4);
  const flag = new Int32Array(state);
  Atomics.store(flag, 0, 1);
  const worker = new Worker(HELPER, {
    eval: true,
    // Nothing but solc-js runs there: no TypeScript loader or other flags of this thread.
    execArgv: [],
    workerData: { mod, port: port2, state, warm: warm && mod.modern && /^0\.(?:[89]|\d\d)\./.test(mod.version) },
    transferList: [port2],
  });
  worker.unref();
  port1.unref();
  const h: Helper = { version, worker, port: port1, flag, cpuFile: null, longVersion: version, idle: null, ready: false };
  worker.on('error', () => drop(h));
  // Dropped after a minute unused, loaded or not (a run resets the clock).
  h.idle = setTimeout(() => drop(h), IDLE_MS);
  h.idle.unref();
  helpers.set(version, h);
  return h;
}

function helperFor(version: string, deadline: number): Helper {
  const h = helpers.get(version) ?? spawn(version);
  if (h.ready) return h;
  // Loading the compiler is not part of a run's budget (a cold thread pays it once), only the
  // deadline; a load the deadline interrupts goes on, so the next run finds solc loaded.
  const hello = waitFor(
    h,
    () => (Date.now() > deadline ? new CompileStopped('deadline', `loading solc ${version} did not finish before the deadline`) : null),
    true,
  ) as { crashed?: string; cpuFile: string | null; longVersion: string };
  if (hello.crashed !== undefined) {
    drop(h);
    throw new Error(hello.crashed);
  }
  h.cpuFile = hello.cpuFile;
  h.longVersion = hello.longVersion;
  h.ready = true;
  return h;
}

/**
 * One standard-JSON compile with `version` in this thread's helper, stopped after `budgetMs` of
 * the helper's CPU time (wall time where the OS does not report a thread's CPU) or at
 * `deadline`: then the helper is terminated (a new one starts loading solc) and a CompileStopped thrown. A solc crash is an Error.
 */
export function compileInSidecar(
  version: string,
  input: string,
  limits: { budgetMs: number; deadline: number },
): { raw: string; imports: string[]; longVersion: string; cpuMs: number | null } {
  const h = helperFor(version, limits.deadline);
  if (h.idle) clearTimeout(h.idle);
  h.idle = null;
  const cpu0 = cpuMs(h.cpuFile);
  const t0 = Date.now();
  const used = () => {
    const c = cpuMs(h.cpuFile);
    return cpu0 !== null && c !== null ? c - cpu0 : Date.now() - t0;
  };
  Atomics.store(h.flag, 0, 1);
  h.port.postMessage({ input });
  let out: { raw?: string; imports?: string[]; crashed?: string };
  try {
    out = waitFor(h, () => {
      if (Date.now() > limits.deadline) return new CompileStopped('deadline', `solc ${version} was stopped at the deadline`);
      const u = used();
      return u >= limits.budgetMs
        ? new CompileStopped('budget', `solc ${version} was stopped after ${Math.round(u)} ms of its ${limits.budgetMs} ms budget`)
        : null;
    }) as typeof out;
  } catch (e) {
    // The stopped helper is gone (solc cannot be interrupted otherwise): a new one starts loading
    // now, beside whatever runs next, so the next run's slice is not spent loading solc (it was,
    // every time, once jobs were cut short: a full-mode slice of 1-2 s answered nothing).
    if (e instanceof CompileStopped) spawn(version, true);
    throw e;
  }
  const spent = cpu0 !== null ? used() : null;
  h.idle = setTimeout(() => drop(h), IDLE_MS);
  h.idle.unref();
  if (out.crashed !== undefined) {
    drop(h);
    throw new Error(out.crashed);
  }
  return { raw: out.raw ?? '', imports: out.imports ?? [], longVersion: h.longVersion, cpuMs: spent };
}

/** The pool task of a model-checking compile: lib's compileTask with this thread's helper as the
 *  runner, so that a run past its budget stops the helper and not the pool worker. */
export function smtCompileTask(req: CompileRequest, ctx?: { started?: () => void }): CompileResult {
  return compileTask(req, { started: ctx?.started, runner: compileInSidecar });
}

export const SMT_COMPILE_MODULE = fileURLToPath(import.meta.url);

/** This thread's helpers and whether each has solc loaded (for tests and diagnostics). */
export function sidecarHelpers(): Array<{ version: string; loaded: boolean }> {
  return [...helpers.values()].map((h) => ({ version: h.version, loaded: h.ready || Atomics.load(h.flag, 0) === 2 }));
}
