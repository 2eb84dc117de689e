// Worker thread that runs the AssemblyScript compiler for kernel/wasm/build.ts.
// Plain JavaScript, started without the tsx loader: under tsx, importing the compiler's large
// bundle takes ~15 s instead of under one. One worker serves many compiles in a row.
import { parentPort } from 'node:worker_threads';

const ascReady = import('assemblyscript/asc');

parentPort.on('message', async ({ id, args }) => {
  const stderr = [];
  let binary = null;
  try {
    const asc = await ascReady;
    const result = await asc.main(args, {
      stdout: { write: () => true },
      stderr: {
        write: (s) => {
          stderr.push(typeof s === 'string' ? s : new TextDecoder().decode(s));
          return true;
        },
      },
      writeFile: (name, contents) => {
        if (name.endsWith('.wasm') && typeof contents !== 'string') binary = contents;
      },
    });
    const error = result.error ? String(result.error.message ?? result.error) : null;
    parentPort.postMessage({ id, ok: !error && binary !== null, binary, error, stderr: stderr.join('') });
  } catch (e) {
    parentPort.postMessage({ id, ok: false, binary: null, error: String(e?.message ?? e), stderr: stderr.join('') });
  }
});
