// Tinypool worker entry (plain JS: worker threads do not inherit the parent's TypeScript loader).
// Imports the named module once per worker and calls the named export: its compiled JavaScript
// when the parent runs from the mirror (kernel/compiled.js), else through tsx, registered here.
import { readFileSync, readlinkSync } from 'node:fs';
import { ensureTsx, importModule, quietAsmJsWarnings } from './compiled.js';

if (!process.env.VIGIL_JS_MIRROR) await ensureTsx();
quietAsmJsWarnings();
const cache = new Map();

// This thread's CPU-time counter (Linux: /proc/<pid>/task/<tid>/schedstat, nanoseconds on a CPU),
// so the pool can hold a budget to CPU time: on a loaded machine a thread gets a fraction of a
// core, and a wall-clock budget would buy less work the busier the machine is. null elsewhere.
let cpuFile;
function cpuClock() {
  if (cpuFile === undefined) {
    try {
      cpuFile = `/proc/${readlinkSync('/proc/thread-self')}/schedstat`;
      readFileSync(cpuFile, 'utf8');
    } catch {
      cpuFile = null;
    }
  }
  if (!cpuFile) return null;
  try {
    return { file: cpuFile, ns: Number(readFileSync(cpuFile, 'utf8').split(' ')[0]) };
  } catch {
    return null;
  }
}

export default async function dispatch(task) {
  // The pool times a task's budget from here, not from when it was queued; a task that asked to
  // (startedByTask) says itself when its budgeted work begins (after loading a compiler, say).
  let startedSent = false;
  const started = () => {
    if (startedSent || !task.started) return;
    startedSent = true;
    task.started.postMessage({ cpu: cpuClock() });
    task.started.close();
  };
  if (!task.startedByTask) started();
  let mod = cache.get(task.module);
  if (!mod) {
    mod = importModule(task.module);
    cache.set(task.module, mod);
  }
  const m = await mod;
  const f = m[task.fn];
  if (typeof f !== 'function') throw new Error(`worker task: ${task.module} has no exported function ${task.fn}`);
  try {
    return await (task.startedByTask ? f(task.args, { started }) : f(task.args));
  } finally {
    started();
  }
}
