// Shared helpers for the WASM tests: fixture builds (cached by source hash so re-runs are quick,
// but always produced by the test run itself, never checked in) and a tiny binary builder for
// modules AssemblyScript cannot produce (WASI imports, oversized memory).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { compileAssemblyScript, PDK_PATH, REPO_ROOT, stopCompiler } from '../../kernel/wasm/build.ts';
import { ExtismWasmHost, type WasmInstance } from '../../kernel/wasm/host.ts';

export const FIXTURE_OUT = path.join(REPO_ROOT, '.tmp', 'wasm-test');

function pdkDigest(): string {
  const h = createHash('sha256');
  const dir = path.join(PDK_PATH, 'pdk');
  for (const f of readdirSync(dir).sort()) h.update(f).update(readFileSync(path.join(dir, f)));
  return h.digest('hex');
}

/** Compiles an AssemblyScript entry (repo-relative) unless an identical build exists. */
export async function buildFixture(entry: string): Promise<string> {
  const abs = path.join(REPO_ROOT, entry);
  const digest = createHash('sha256').update(readFileSync(abs)).update(pdkDigest()).digest('hex').slice(0, 16);
  const out = path.join(FIXTURE_OUT, `${path.basename(path.dirname(abs))}-${path.basename(abs, '.ts')}-${digest}.wasm`);
  if (!existsSync(out)) await compileAssemblyScript(abs, out);
  return out;
}

/** A WASM plugin of plugins/<id>: its manifest, and its guest built from assembly/index.ts and
 *  loaded with the manifest's permissions and limits, as the loader does. */
export function pluginWasm(id: string) {
  const manifest = JSON.parse(readFileSync(path.join(REPO_ROOT, 'plugins', id, 'plugin.json'), 'utf8'));
  const host = new ExtismWasmHost();
  return {
    manifest,
    async load(): Promise<WasmInstance> {
      const wasmPath = await buildFixture(`plugins/${id}/assembly/index.ts`);
      return host.load({
        id: manifest.id,
        wasmPath,
        permissions: manifest.permissions,
        timeoutMs: manifest.wasm.timeout_ms,
        maxMemoryPages: manifest.wasm.max_memory_pages,
      });
    },
    async close() {
      await host.closeAll();
      await stopCompiler();
    },
  };
}

function leb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
}

function str(s: string): number[] {
  const b = [...Buffer.from(s, 'utf8')];
  return [...leb(b.length), ...b];
}

function section(id: number, body: number[]): number[] {
  return [id, ...leb(body.length), ...body];
}

/** A module with one exported no-op function `run`, optional imports and memory. */
export function rawModule(opts: { importFn?: [string, string]; memory?: { min: number; max?: number }; loopingStart?: boolean }): Uint8Array {
  const bytes = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
  bytes.push(...section(1, [1, 0x60, 0, 0])); // type 0: () -> ()
  let fnIndex = 0;
  if (opts.importFn) {
    bytes.push(...section(2, [1, ...str(opts.importFn[0]), ...str(opts.importFn[1]), 0x00, 0]));
    fnIndex = 1;
  }
  bytes.push(...section(3, [1, 0])); // one function of type 0
  if (opts.memory) {
    const lim = opts.memory.max === undefined ? [0, ...leb(opts.memory.min)] : [1, ...leb(opts.memory.min), ...leb(opts.memory.max)];
    bytes.push(...section(5, [1, ...lim]));
  }
  bytes.push(...section(7, [1, ...str('run'), 0x00, fnIndex]));
  if (opts.loopingStart) {
    bytes.push(...section(8, [fnIndex])); // start function = run
    bytes.push(...section(10, [1, 7, 0, 0x03, 0x40, 0x0c, 0x00, 0x0b, 0x0b])); // loop { br 0 }
  } else {
    bytes.push(...section(10, [1, 2, 0, 0x0b])); // body: no locals, end
  }
  return new Uint8Array(bytes);
}
