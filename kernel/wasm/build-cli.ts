// Command line for the WASM plugin build, used by scripts/postinstall.js:
//   node --import tsx kernel/wasm/build-cli.ts [--optional] [DIR...]
// Without DIRs it builds every AssemblyScript plugin under plugins/ and examples/.
// --optional: a failed build prints a warning and the exit code stays 0 (npm install must not
// fail because one optional plugin does not compile).
import path from 'node:path';
import { buildAll, defaultPluginRoots, findWasmPluginDirs, stopCompiler } from './build.ts';

async function main(argv: string[]): Promise<number> {
  const optional = argv.includes('--optional');
  const unknown = argv.filter((a) => a.startsWith('--') && a !== '--optional');
  if (unknown.length) {
    console.error(`vigil wasm build: unknown option ${unknown.join(', ')}\nusage: build-cli.ts [--optional] [DIR...]`);
    return 2;
  }
  const given = argv.filter((a) => !a.startsWith('--'));
  const dirs = given.length ? given.map((d) => path.resolve(d)) : await findWasmPluginDirs(defaultPluginRoots());
  if (!dirs.length) {
    console.log('vigil wasm build: no AssemblyScript plugins found');
    return 0;
  }
  const started = performance.now();
  const outcomes = await buildAll(dirs);
  await stopCompiler();
  let failed = 0;
  for (const o of outcomes) {
    if (o.ok) {
      const r = o.result;
      console.log(`  built ${r.id} -> ${path.relative(process.cwd(), r.wasmPath) || r.wasmPath} (${(r.bytes / 1024).toFixed(1)} KiB, sha256 ${r.sha256.slice(0, 12)}…, ${r.ms} ms)${r.manifestUpdated ? ', plugin.json updated' : ''}`);
    } else {
      failed++;
      const text = `  ${optional ? 'warning' : 'error'}: ${o.error}`;
      if (optional) console.warn(text);
      else console.error(text);
    }
  }
  const total = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`vigil wasm build: ${outcomes.length - failed} built, ${failed} failed in ${total} s`);
  if (failed && optional) console.warn('vigil wasm build: plugins that failed to build stay unavailable (their status says "not built") until `vigil plugin build DIR` succeeds.');
  return failed && !optional ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e) => {
    console.error(`vigil wasm build: ${(e as Error).stack ?? e}`);
    process.exit(process.argv.includes('--optional') ? 0 : 1);
  },
);
