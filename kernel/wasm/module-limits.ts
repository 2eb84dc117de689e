// Static checks and rewrites of a WASM binary before it is compiled.
// @extism/extism 1.0.x ignores any memory limit, so the host writes the cap into the module's
// own memory section: the engine then refuses `memory.grow` past it, whatever the guest does.
// Imports are checked against the Extism host ABI so a module that wants WASI, env.abort or
// anything else fails at load with a clear reason instead of a link error deep in a worker.

export const PAGE_BYTES = 65536;

/** The Extism kernel functions a guest may import from "extism:host/env". */
export const EXTISM_IMPORTS = new Set([
  'alloc',
  'free',
  'load_u8',
  'load_u64',
  'store_u8',
  'store_u64',
  'input_offset',
  'input_length',
  'input_load_u8',
  'input_load_u64',
  'output_set',
  'error_set',
  'config_get',
  'var_get',
  'var_set',
  'http_request',
  'http_status_code',
  'length',
  'length_unsafe',
  'log_warn',
  'log_info',
  'log_debug',
  'log_error',
]);
export const EXTISM_MODULE = 'extism:host/env';

export class ModuleLimitError extends Error {
  constructor(
    public readonly reason: 'bad_module' | 'memory',
    message: string,
  ) {
    super(message);
  }
}

function readLeb(buf: Uint8Array, pos: number): [value: number, next: number] {
  let result = 0;
  let shift = 0;
  for (;;) {
    if (pos >= buf.length) throw new ModuleLimitError('bad_module', 'truncated LEB128 number');
    const b = buf[pos++];
    // Multiplication keeps precision past 2^31 where bit shifts would not.
    result += (b & 0x7f) * 2 ** shift;
    if ((b & 0x80) === 0) return [result, pos];
    shift += 7;
    if (shift > 35) throw new ModuleLimitError('bad_module', 'LEB128 number too long');
  }
}

function writeLeb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) b |= 0x80;
    out.push(b);
  } while (n > 0);
  return out;
}

export interface MemoryLimits {
  initialPages: number;
  /** Declared maximum before capping (null = unbounded). */
  declaredMaxPages: number | null;
  /** Maximum written into the module. */
  maxPages: number;
}

/**
 * Returns a copy of the module whose defined memories have `maximum <= capPages`.
 * Throws ModuleLimitError('memory') when a memory's initial size already exceeds the cap, and
 * ModuleLimitError('bad_module') for a malformed binary, shared or 64-bit memory.
 */
export function capModuleMemory(bytes: Uint8Array, capPages: number): { bytes: Uint8Array<ArrayBuffer>; memories: MemoryLimits[] } {
  if (bytes.length < 8 || bytes[0] !== 0 || bytes[1] !== 0x61 || bytes[2] !== 0x73 || bytes[3] !== 0x6d) {
    throw new ModuleLimitError('bad_module', 'not a WebAssembly binary (bad magic number)');
  }
  if (bytes[4] !== 1 || bytes[5] !== 0 || bytes[6] !== 0 || bytes[7] !== 0) {
    throw new ModuleLimitError('bad_module', 'unsupported WebAssembly binary version');
  }
  let pos = 8;
  while (pos < bytes.length) {
    const sectionStart = pos;
    const id = bytes[pos++];
    const [size, contentStart] = readLeb(bytes, pos);
    const end = contentStart + size;
    if (end > bytes.length) throw new ModuleLimitError('bad_module', `section ${id} runs past the end of the module`);
    if (id !== 5) {
      pos = end;
      continue;
    }
    // Memory section: vec(limits).
    let p = contentStart;
    const [count, afterCount] = readLeb(bytes, p);
    p = afterCount;
    const memories: MemoryLimits[] = [];
    const content: number[] = [...writeLeb(count)];
    for (let i = 0; i < count; i++) {
      const flags = bytes[p++];
      if (flags === undefined) throw new ModuleLimitError('bad_module', 'truncated memory section');
      if (flags & 0x02) throw new ModuleLimitError('bad_module', 'shared memory is not supported');
      if (flags & 0x04) throw new ModuleLimitError('bad_module', '64-bit memory is not supported');
      if (flags > 1) throw new ModuleLimitError('bad_module', `unknown memory limits flags 0x${flags.toString(16)}`);
      const [min, afterMin] = readLeb(bytes, p);
      p = afterMin;
      let max: number | null = null;
      if (flags & 0x01) {
        const [m, afterMax] = readLeb(bytes, p);
        max = m;
        p = afterMax;
      }
      if (min > capPages) {
        throw new ModuleLimitError('memory', `module asks for ${min} initial memory pages, more than the cap of ${capPages}`);
      }
      const capped = Math.min(max ?? capPages, capPages);
      memories.push({ initialPages: min, declaredMaxPages: max, maxPages: capped });
      content.push(0x01, ...writeLeb(min), ...writeLeb(capped));
    }
    if (p !== end) throw new ModuleLimitError('bad_module', 'memory section has trailing bytes');
    const section = [5, ...writeLeb(content.length), ...content];
    const out = new Uint8Array(sectionStart + section.length + (bytes.length - end));
    out.set(bytes.subarray(0, sectionStart), 0);
    out.set(section, sectionStart);
    out.set(bytes.subarray(end), sectionStart + section.length);
    return { bytes: out, memories };
  }
  return { bytes: bytes.slice(), memories: [] };
}

/** Imports the host does not provide, as "module.name" strings (empty when all are fine). */
export function unsupportedImports(module: WebAssembly.Module): string[] {
  const bad: string[] = [];
  for (const imp of WebAssembly.Module.imports(module)) {
    if (imp.module === EXTISM_MODULE && imp.kind === 'function' && EXTISM_IMPORTS.has(imp.name)) continue;
    bad.push(`${imp.module}.${imp.name} (${imp.kind})`);
  }
  return bad;
}
