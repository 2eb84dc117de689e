// ExtismWasmHost: runs WASM plugins (Extism ABI) with limits the 1.0.x SDK does not have.
// Each instance lives in its own worker thread (kernel/wasm/host-worker.js) so the host can:
//   - time-limit every call: an overrun terminates the worker, wherever the guest is;
//   - cap linear memory: the cap is written into the module's memory section before compiling,
//     and host-side allocations (alloc, vars, HTTP bodies) have a per-call byte budget;
//   - survive any guest: a trap, timeout or memory overrun discards the worker, and the next
//     call rebuilds it from the already compiled module (counted in `restarts`);
//   - grant nothing by default: no WASI, no file system, HTTP only with the "network"
//     permission and a matching allowed host (redirects are not followed), and only to public
//     addresses unless an address or range is listed (net-policy.ts).
// Calls to one instance are queued: an Extism instance is not re-entrant.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import { Worker } from 'node:worker_threads';
import { capModuleMemory, ModuleLimitError, PAGE_BYTES, unsupportedImports } from './module-limits.ts';
import { AddressRefused, hostNameAllowed, parseHostRules, resolveChecked, type HostRules } from './net-policy.ts';
import { WasmPluginError, type WasmCallOptions, type WasmHost, type WasmInstance, type WasmLoadOptions } from './types.ts';

export * from './types.ts';

const WORKER_URL = new URL('./host-worker.js', import.meta.url);

/** pino-compatible: `logger.info({ plugin }, message)`. */
export interface GuestLogger {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface ExtismWasmHostOptions {
  /** Receives the guests' log_* calls. Without one they are dropped. */
  logger?: GuestLogger;
  /** Same as `logger` (the kernel passes its pino logger under this name). */
  log?: GuestLogger;
  /** Per-call limit when neither the load nor the call gives one. Default 10 s. */
  defaultTimeoutMs?: number;
  /** Linear-memory cap when the load gives none. Default 1024 pages (64 MiB). */
  defaultMaxMemoryPages?: number;
  /** Largest output a call may return. Default 16 MiB. */
  maxOutputBytes?: number;
  /** Largest HTTP response body handed to a guest. Default 4 MiB. */
  maxHttpResponseBytes?: number;
  /** Total size of the variables (var_set) one instance may keep. Default 1 MiB. */
  maxVarBytes?: number;
  /** Guest log lines forwarded per call; the rest are dropped. Default 100. */
  maxLogsPerCall?: number;
  /** Time allowed for starting a worker, on top of the call limit that bounds the guest's start
   *  function. Default 5 s (thread start-up on a busy machine). */
  startupGraceMs?: number;
}

interface ResolvedLimits {
  timeoutMs: number;
  maxMemoryPages: number;
  maxOutputBytes: number;
  maxHttpResponseBytes: number;
  maxVarBytes: number;
  maxLogsPerCall: number;
  startupGraceMs: number;
}

const DEFAULTS = {
  timeoutMs: 10_000,
  maxMemoryPages: 1024,
  maxOutputBytes: 16 * 1024 * 1024,
  maxHttpResponseBytes: 4 * 1024 * 1024,
  maxVarBytes: 1024 * 1024,
  maxLogsPerCall: 100,
  startupGraceMs: 5000,
};

type ErrorCode = WasmPluginError['code'];

function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function positiveInt(v: unknown, what: string, id: string): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0) {
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- echoes whatever invalid value the manifest gave
    throw new WasmPluginError(id, 'wasm_load_failed', `${what} must be a positive integer, got ${String(v)}`);
  }
  return v;
}

export class ExtismWasmHost implements WasmHost {
  private readonly instances = new Set<ExtismWasmInstance>();
  private readonly opts: ExtismWasmHostOptions;

  constructor(opts: ExtismWasmHostOptions = {}) {
    this.opts = opts;
  }

  async load(o: WasmLoadOptions): Promise<WasmInstance> {
    const id = typeof o?.id === 'string' && o.id ? o.id : 'unknown';
    if (typeof o?.wasmPath !== 'string' || !o.wasmPath) throw new WasmPluginError(id, 'wasm_load_failed', 'wasmPath is required');
    const timeoutMs = positiveInt(o.timeoutMs, 'timeoutMs', id) ?? this.opts.defaultTimeoutMs ?? DEFAULTS.timeoutMs;
    const maxMemoryPages = positiveInt(o.maxMemoryPages, 'maxMemoryPages', id) ?? this.opts.defaultMaxMemoryPages ?? DEFAULTS.maxMemoryPages;
    if (maxMemoryPages > 65536) throw new WasmPluginError(id, 'wasm_load_failed', 'maxMemoryPages cannot exceed 65536 (4 GiB)');

    let raw: Uint8Array;
    try {
      raw = await readFile(o.wasmPath);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      const hint = code === 'ENOENT' ? ' (not built? run `vigil plugin build` or `npm install`)' : '';
      throw new WasmPluginError(id, 'wasm_load_failed', `cannot read ${o.wasmPath}: ${code ?? (e as Error).message}${hint}`);
    }
    if (o.sha256 !== undefined) {
      const actual = sha256Hex(raw);
      if (actual !== o.sha256.toLowerCase()) {
        throw new WasmPluginError(id, 'wasm_load_failed', `sha256 mismatch for ${o.wasmPath}: manifest expects ${o.sha256}, file has ${actual}`);
      }
    }

    let capped: Uint8Array<ArrayBuffer>;
    try {
      capped = capModuleMemory(raw, maxMemoryPages).bytes;
    } catch (e) {
      if (e instanceof ModuleLimitError) throw new WasmPluginError(id, e.reason === 'memory' ? 'wasm_memory' : 'wasm_load_failed', e.message);
      throw e;
    }
    let module: WebAssembly.Module;
    try {
      module = await WebAssembly.compile(capped);
    } catch (e) {
      throw new WasmPluginError(id, 'wasm_load_failed', `invalid WebAssembly module: ${(e as Error).message}`);
    }
    const bad = unsupportedImports(module);
    if (bad.length) {
      const abortHint = bad.some((b) => b.startsWith('env.abort')) ? '; build AssemblyScript with --use abort=~lib/pdk/index/pdkAbort (vigil plugin build does)' : '';
      throw new WasmPluginError(
        id,
        'wasm_load_failed',
        `module imports ${bad.slice(0, 5).join(', ')}${bad.length > 5 ? ` and ${bad.length - 5} more` : ''}, which the host does not provide (only extism:host/env; no WASI)${abortHint}`,
      );
    }

    const permissions = Array.isArray(o.permissions) ? o.permissions : [];
    const network = permissions.includes('network');
    const limits: ResolvedLimits = {
      timeoutMs,
      maxMemoryPages,
      maxOutputBytes: this.opts.maxOutputBytes ?? DEFAULTS.maxOutputBytes,
      maxHttpResponseBytes: this.opts.maxHttpResponseBytes ?? DEFAULTS.maxHttpResponseBytes,
      maxVarBytes: this.opts.maxVarBytes ?? DEFAULTS.maxVarBytes,
      maxLogsPerCall: this.opts.maxLogsPerCall ?? DEFAULTS.maxLogsPerCall,
      startupGraceMs: this.opts.startupGraceMs ?? DEFAULTS.startupGraceMs,
    };
    const config: Record<string, string> = {};
    for (const [k, v] of Object.entries(o.config ?? {})) config[k] = typeof v === 'string' ? v : JSON.stringify(v);

    const inst = new ExtismWasmInstance(id, module, limits, {
      config,
      network,
      allowedHosts: network ? (o.allowedHosts ?? []).map((h) => h.toLowerCase()) : [],
      logger: this.opts.logger ?? this.opts.log,
      onClose: (i) => this.instances.delete(i),
    });
    await inst.start();
    this.instances.add(inst);
    return inst;
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.instances].map((i) => i.close()));
    this.instances.clear();
  }
}

interface InstanceSetup {
  config: Record<string, string>;
  network: boolean;
  allowedHosts: string[];
  logger?: GuestLogger;
  onClose(i: ExtismWasmInstance): void;
}

interface CurrentCall {
  id: number;
  fn: string;
  resolve(v: Uint8Array): void;
  reject(e: WasmPluginError): void;
}

type WorkerMessage =
  | { type: 'ready' }
  | { type: 'init_error'; code: ErrorCode; message: string }
  | { type: 'log'; level: 'debug' | 'info' | 'warn' | 'error'; message: string }
  | { type: 'http'; sab: SharedArrayBuffer; request: { url: string; method: string; headers: Record<string, unknown> }; body: Uint8Array | null }
  | { type: 'result'; id: number; ok: true; output: Uint8Array | null }
  | { type: 'result'; id: number; ok: false; code: ErrorCode; message: string; fatal: boolean };

const HTTP_STATE = { done: 1, denied: 2, failed: 3 } as const;

class ExtismWasmInstance implements WasmInstance {
  readonly id: string;
  private _restarts = 0;
  private worker: Worker | null = null;
  private starting: Promise<Worker> | null = null;
  private started = false;
  private closed = false;
  private seq = 0;
  private current: CurrentCall | null = null;
  private tail: Promise<unknown> = Promise.resolve();
  private readonly exportedFns: Set<string>;

  constructor(
    id: string,
    private readonly module: WebAssembly.Module,
    private readonly limits: ResolvedLimits,
    private readonly setup: InstanceSetup,
  ) {
    this.id = id;
    this.exportedFns = new Set(WebAssembly.Module.exports(module).filter((e) => e.kind === 'function').map((e) => e.name));
  }

  get restarts(): number {
    return this._restarts;
  }

  private err(code: ErrorCode, message: string): WasmPluginError {
    return new WasmPluginError(this.id, code, message);
  }

  async start(): Promise<void> {
    await this.ensureWorker();
  }

  private ensureWorker(): Promise<Worker> {
    if (this.worker) return Promise.resolve(this.worker);
    if (this.starting) return this.starting;
    if (this.started) this._restarts++;
    this.started = true;
    this.starting = this.spawn().finally(() => {
      this.starting = null;
    });
    return this.starting;
  }

  private spawn(): Promise<Worker> {
    const l = this.limits;
    const worker = new Worker(WORKER_URL, {
      workerData: {
        module: this.module,
        config: this.setup.config,
        network: this.setup.network,
        allowedHosts: this.setup.allowedHosts,
        maxMemoryPages: l.maxMemoryPages,
        // Host-side blocks per call: as much as the guest's own memory cap allows.
        allocBudgetBytes: l.maxMemoryPages * PAGE_BYTES,
        maxOutputBytes: l.maxOutputBytes,
        maxHttpResponseBytes: l.maxHttpResponseBytes,
        httpTimeoutMs: l.timeoutMs,
        maxVarBytes: l.maxVarBytes,
        maxLogsPerCall: l.maxLogsPerCall,
      },
      // The guest never sees the environment, and the worker needs none of it.
      env: {},
      execArgv: ['--disable-warning=ExperimentalWarning'],
      // Bounds the worker's JS heap; guest linear memory is bounded by the module rewrite.
      resourceLimits: { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
    });
    const initTimeout = l.timeoutMs + l.startupGraceMs;
    return new Promise<Worker>((resolve, reject) => {
      let settled = false;
      const timer = setTimeout(() => {
        fail(this.err('wasm_timeout', `instance did not start within ${initTimeout} ms (start function runs too long?)`));
      }, initTimeout);
      const fail = (e: WasmPluginError) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        worker.removeAllListeners('message');
        void worker.terminate();
        reject(e);
      };
      worker.on('message', (m: WorkerMessage) => {
        if (m.type === 'ready') {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          if (this.closed) {
            void worker.terminate();
            reject(this.err('wasm_aborted', 'instance closed while starting'));
            return;
          }
          this.worker = worker;
          // An idle instance never holds the process open; run() refs it while a call is out.
          worker.unref();
          resolve(worker);
        } else if (m.type === 'init_error') {
          fail(this.err(m.code, `cannot instantiate module: ${m.message}`));
        } else {
          this.onMessage(worker, m);
        }
      });
      worker.on('error', (e: Error & { code?: string }) => {
        const code: ErrorCode = e.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'wasm_memory' : 'wasm_trap';
        const wrapped = this.err(code, `instance worker failed: ${e.message}`);
        if (!settled) return fail(wrapped);
        this.workerDied(worker, wrapped);
      });
      worker.on('exit', (exitCode) => {
        if (!settled) return fail(this.err('wasm_load_failed', `instance worker exited with code ${exitCode} while starting`));
        this.workerDied(worker, this.err('wasm_trap', `instance worker exited unexpectedly (code ${exitCode})`));
      });
    });
  }

  /** Drops the worker: the next call builds a fresh instance. */
  private discard(worker: Worker | null): void {
    if (!worker) return;
    if (this.worker === worker) this.worker = null;
    worker.removeAllListeners('message');
    void worker.terminate();
  }

  private workerDied(worker: Worker, e: WasmPluginError): void {
    if (this.worker !== worker) return;
    this.worker = null;
    const c = this.current;
    if (c) {
      this.current = null;
      c.reject(e);
    }
  }

  private onMessage(worker: Worker, m: WorkerMessage): void {
    if (this.worker !== worker) return;
    if (m.type === 'log') {
      this.setup.logger?.[m.level]?.({ plugin: this.id }, m.message);
      return;
    }
    if (m.type === 'http') {
      void this.doHttp(m);
      return;
    }
    if (m.type === 'result') {
      const c = this.current;
      if (!c || c.id !== m.id) return;
      this.current = null;
      if (m.ok) {
        c.resolve(m.output ?? new Uint8Array(0));
      } else {
        // A trap, a memory overrun or a refused host call leaves the guest in an unknown state.
        if (m.fatal) this.discard(worker);
        c.reject(this.err(m.code, m.message));
      }
    }
  }

  private async doHttp(m: Extract<WorkerMessage, { type: 'http' }>): Promise<void> {
    const header = new Int32Array(m.sab, 0, 4);
    const data = new Uint8Array(m.sab, 16);
    const reply = (state: number, status: number, payload: Uint8Array) => {
      const n = Math.min(payload.length, data.length);
      data.set(payload.subarray(0, n));
      header[1] = status;
      header[2] = n;
      Atomics.store(header, 0, state);
      Atomics.notify(header, 0);
    };
    const text = (s: string) => new TextEncoder().encode(s);
    try {
      const url = new URL(m.request.url);
      // Re-checked here: the worker's copy of the rules is not the authority.
      if (!this.setup.network || (url.protocol !== 'http:' && url.protocol !== 'https:') || !hostNameAllowed(url.hostname, this.rules)) {
        return reply(HTTP_STATE.denied, 0, text(`HTTP request to ${url.hostname} refused by the host`));
      }
      let addrs: Array<{ address: string; family: number }>;
      try {
        addrs = await resolveChecked(url.hostname, this.rules);
      } catch (e) {
        if (e instanceof AddressRefused) return reply(HTTP_STATE.denied, 0, text(e.message));
        throw e;
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(m.request.headers ?? {})) headers[k] = String(v);
      const r = await this.request(url, m.request.method, headers, m.body, addrs, data.length);
      if ('tooLarge' in r) return reply(HTTP_STATE.failed, 0, text(`response exceeds the ${data.length}-byte limit`));
      reply(HTTP_STATE.done, r.status, r.body);
    } catch (e) {
      reply(HTTP_STATE.failed, 0, text((e as Error).message));
    }
  }

  private get rules(): HostRules {
    return (this._rules ??= parseHostRules(this.setup.allowedHosts));
  }
  private _rules?: HostRules;

  /** One HTTP exchange that connects only to the checked addresses. Redirects are not followed
   *  (a redirect could lead anywhere); the body is cut off past `max` bytes. */
  private request(url: URL, method: string, headers: Record<string, string>, body: Uint8Array | null, addrs: Array<{ address: string; family: number }>, max: number): Promise<{ status: number; body: Uint8Array } | { tooLarge: true }> {
    return new Promise((resolve, reject) => {
      const lookup = (_h: string, opts: { all?: boolean }, cb: (...a: any[]) => void) => {
        if (opts?.all) cb(null, addrs);
        else cb(null, addrs[0].address, addrs[0].family);
      };
      const mod = url.protocol === 'https:' ? https : http;
      const req = mod.request(url, { method, headers, lookup: lookup as any, signal: AbortSignal.timeout(this.limits.timeoutMs) }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > max) {
            res.destroy();
            resolve({ tooLarge: true });
          } else chunks.push(c);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: new Uint8Array(Buffer.concat(chunks)) }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body ? Buffer.from(body) : undefined);
    });
  }

  functionExists(fn: string): Promise<boolean> {
    return Promise.resolve(this.exportedFns.has(fn));
  }

  async callJson<T = unknown>(fn: string, input: unknown, opts?: WasmCallOptions): Promise<T> {
    let text: string | undefined;
    try {
      text = JSON.stringify(input);
    } catch (e) {
      throw this.err('wasm_bad_output', `input for ${fn} is not JSON-serialisable: ${(e as Error).message}`);
    }
    const out = await this.call(fn, text ?? 'null', opts);
    if (out.length === 0) throw this.err('wasm_bad_output', `${fn} returned no output (expected JSON)`);
    let decoded: string;
    try {
      decoded = new TextDecoder('utf-8', { fatal: true }).decode(out);
    } catch {
      throw this.err('wasm_bad_output', `${fn} returned bytes that are not UTF-8`);
    }
    try {
      return JSON.parse(decoded) as T;
    } catch (e) {
      const snippet = decoded.length > 80 ? `${decoded.slice(0, 80)}…` : decoded;
      throw this.err('wasm_bad_output', `${fn} returned invalid JSON (${(e as Error).message}): ${JSON.stringify(snippet)}`);
    }
  }

  call(fn: string, input: string | Uint8Array, opts: WasmCallOptions = {}): Promise<Uint8Array> {
    if (this.closed) return Promise.reject(this.err('wasm_aborted', 'instance is closed'));
    if (typeof fn !== 'string' || !this.exportedFns.has(fn)) {
      return Promise.reject(this.err('wasm_missing_export', `module has no exported function ${JSON.stringify(fn)}`));
    }
    let bytes: Uint8Array;
    if (typeof input === 'string') bytes = new TextEncoder().encode(input);
    else if (input instanceof Uint8Array) bytes = input.slice(); // exact-size copy we can transfer
    else return Promise.reject(this.err('wasm_bad_output', 'input must be a string or Uint8Array'));
    // The SDK turns the whole backing buffer into the input block, so it must be exactly sized.
    if (bytes.byteOffset !== 0 || bytes.buffer.byteLength !== bytes.length) bytes = bytes.slice();
    // The manifest's limit is a ceiling: a caller's (often request-wide) deadline only shortens it.
    const timeoutMs = Math.min(opts.timeoutMs ?? this.limits.timeoutMs, this.limits.timeoutMs);
    if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) return Promise.reject(this.err('wasm_timeout', `invalid timeout ${timeoutMs}`));
    const signal = opts.signal;
    if (signal?.aborted) return Promise.reject(this.err('wasm_aborted', `call to ${fn} was cancelled before it started`));

    // Queue behind earlier calls; a caller that gives up while queued is answered at once and
    // its call is skipped when its turn comes.
    return new Promise<Uint8Array>((resolve, reject) => {
      let done = false;
      const onQueuedAbort = () => {
        if (done) return;
        done = true;
        reject(this.err('wasm_aborted', `call to ${fn} was cancelled while queued`));
      };
      signal?.addEventListener('abort', onQueuedAbort, { once: true });
      const task = async () => {
        signal?.removeEventListener('abort', onQueuedAbort);
        if (done) return;
        if (this.closed) {
          done = true;
          reject(this.err('wasm_aborted', 'instance closed'));
          return;
        }
        try {
          const out = await this.run(fn, bytes, timeoutMs, signal);
          done = true;
          resolve(out);
        } catch (e) {
          done = true;
          // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passes the caught error on unchanged
          reject(e);
        }
      };
      this.tail = this.tail.then(task, task);
    });
  }

  private async run(fn: string, bytes: Uint8Array, timeoutMs: number, signal?: AbortSignal): Promise<Uint8Array> {
    const worker = await this.ensureWorker();
    return new Promise<Uint8Array>((resolve, reject) => {
      const id = ++this.seq;
      // eslint-disable-next-line prefer-const -- cleanup() reads it and may run before the assignment below
      let timer: NodeJS.Timeout | undefined;
      const cleanup = () => {
        if (timer) clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        worker.unref();
      };
      const onAbort = () => {
        if (this.current?.id !== id) return;
        this.current = null;
        cleanup();
        this.discard(worker);
        reject(this.err('wasm_aborted', `call to ${fn} was cancelled; instance terminated`));
      };
      this.current = {
        id,
        fn,
        resolve: (v) => {
          cleanup();
          resolve(v);
        },
        reject: (e) => {
          cleanup();
          reject(e);
        },
      };
      timer = setTimeout(() => {
        if (this.current?.id !== id) return;
        this.current = null;
        cleanup();
        this.discard(worker);
        reject(this.err('wasm_timeout', `call to ${fn} exceeded ${timeoutMs} ms; instance terminated`));
      }, timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      worker.ref();
      worker.postMessage({ type: 'call', id, fn, input: bytes }, [bytes.buffer as ArrayBuffer]);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const c = this.current;
    this.current = null;
    c?.reject(this.err('wasm_aborted', 'instance closed during the call'));
    const w = this.worker;
    this.worker = null;
    if (w) {
      w.removeAllListeners('message');
      await w.terminate();
    }
    this.setup.onClose(this);
  }
}
