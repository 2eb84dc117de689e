// WASM host contract. Implementation: ./host.ts (Extism, one worker per instance so the host
// can enforce time limits and memory caps the 1.0.x SDK does not have).
export interface WasmLoadOptions {
  /** Plugin id, used in every error message. */
  id: string;
  wasmPath: string;
  /** Expected sha256 of the module; load fails on mismatch. */
  sha256?: string;
  /** Capabilities granted by the manifest; nothing else reaches the guest. */
  permissions: string[];
  /** String config handed to the guest (Extism config). */
  config?: Record<string, string>;
  timeoutMs?: number;
  maxMemoryPages?: number;
  allowedHosts?: string[];
}

export interface WasmCallOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface WasmInstance {
  readonly id: string;
  /** Calls an exported function with JSON in and JSON out. Calls are queued per instance. */
  callJson<T = unknown>(fn: string, input: unknown, opts?: WasmCallOptions): Promise<T>;
  call(fn: string, input: string | Uint8Array, opts?: WasmCallOptions): Promise<Uint8Array>;
  functionExists(fn: string): Promise<boolean>;
  /** How many times the instance was rebuilt after a trap, timeout or memory overrun. */
  readonly restarts: number;
  close(): Promise<void>;
}

export interface WasmHost {
  load(opts: WasmLoadOptions): Promise<WasmInstance>;
  closeAll(): Promise<void>;
}

export class WasmPluginError extends Error {
  constructor(
    public readonly pluginId: string,
    public readonly code:
      | 'wasm_timeout'
      | 'wasm_memory'
      | 'wasm_trap'
      | 'wasm_bad_output'
      | 'wasm_missing_export'
      | 'wasm_load_failed'
      | 'wasm_guest_error'
      /** The guest used a host capability (HTTP) its manifest does not grant. */
      | 'wasm_permission_denied'
      /** The caller's signal fired, or the instance was closed. */
      | 'wasm_aborted',
    message: string,
  ) {
    super(`plugin ${pluginId}: ${message}`);
    this.name = 'WasmPluginError';
  }
}
