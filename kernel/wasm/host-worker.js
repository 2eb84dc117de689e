// Worker thread that runs ONE Extism plugin instance for kernel/wasm/host.ts.
// Plain JavaScript on purpose: a worker's entry module is not passed through the tsx loader, and
// a loader-free worker also starts faster, which matters when a crashed instance is rebuilt.
//
// The guest runs synchronously on this thread; the main thread keeps the clock and terminates
// this worker when a call overruns. Host functions are overridden here to enforce limits the
// 1.0.x SDK lacks: a per-call budget on host-side allocations, a bounded variable store that
// survives the per-call reset, and HTTP only when the manifest granted "network" (the request
// itself is made by the main thread, which re-checks the allow-list).
import { parentPort, workerData } from 'node:worker_threads';
import createPlugin from '@extism/extism';

const EXTISM_ENV = 'extism:host/env';
const HTTP_HEADER_BYTES = 16;
const _STATE_DONE = 1; // protocol value; a done state needs no branch here
const STATE_DENIED = 2;
const STATE_FAILED = 3;

class HostLimitError extends Error {
  constructor(code, message) {
    super(message);
    this.vigilCode = code;
  }
}

const opts = workerData;
const decoder = new TextDecoder();
const encoder = new TextEncoder();
let plugin = null;
let allocated = 0;
let logCount = 0;
let lastGuestErrorLog = null;
let httpStatus = 0;
const vars = new Map();
let varBytes = 0;

function postLog(level, message) {
  if (level === 'error') lastGuestErrorLog = String(message).slice(0, 2000);
  if (logCount >= opts.maxLogsPerCall) return;
  logCount++;
  parentPort.postMessage({ type: 'log', level, message: String(message).slice(0, 4096) });
}

const logger = {
  debug: (m) => postLog('debug', m),
  info: (m) => postLog('info', m),
  warn: (m) => postLog('warn', m),
  error: (m) => postLog('error', m),
  log: (m) => postLog('info', m),
  trace: (m) => postLog('debug', m),
};

function hostMatches(rawHost, allowed) {
  const hostname = rawHost.replace(/^\[|\]$/g, '');
  // An IP literal against IP/CIDR entries is decided by the main thread (net-policy.ts), which
  // is the authority anyway and also checks every address a name resolves to.
  if (/^[0-9.]+$|:/.test(hostname) && allowed.some((p) => p.includes('/'))) return true;
  return allowed.some((raw) => {
    const pattern = raw.replace(/^\[|\]$/g, '');
    if (pattern === '*') return true;
    if (pattern.startsWith('*.')) return hostname.endsWith(pattern.slice(1)) && hostname.length > pattern.length - 1;
    return hostname === pattern;
  });
}

const functions = {
  [EXTISM_ENV]: {
    alloc(ctx, n) {
      allocated += Number(n);
      if (allocated > opts.allocBudgetBytes) {
        throw new HostLimitError('wasm_memory', `guest allocated more than ${opts.allocBudgetBytes} bytes of host memory in one call`);
      }
      return ctx.alloc(n);
    },
    // The SDK's own config_get traps on an empty-string value (it stores "" as "no block").
    config_get(ctx, keyAddr) {
      const key = ctx.read(keyAddr)?.string();
      if (key === undefined || !Object.hasOwn(opts.config, key)) return 0n;
      return ctx.store(encoder.encode(String(opts.config[key])));
    },
    var_get(ctx, keyAddr) {
      const key = ctx.read(keyAddr)?.string();
      if (key === undefined || !vars.has(key)) return 0n;
      return ctx.store(vars.get(key).slice());
    },
    var_set(ctx, keyAddr, valueAddr) {
      const key = ctx.read(keyAddr)?.string();
      if (key === undefined) return;
      const old = vars.get(key);
      if (old) varBytes -= old.length + key.length;
      vars.delete(key);
      if (valueAddr === 0n) return;
      const value = ctx.read(valueAddr)?.bytes().slice();
      if (!value) return;
      if (varBytes + value.length + key.length > opts.maxVarBytes) {
        throw new HostLimitError('wasm_memory', `guest variables exceed ${opts.maxVarBytes} bytes`);
      }
      varBytes += value.length + key.length;
      vars.set(key, value);
    },
    http_request(ctx, reqAddr, bodyAddr) {
      const req = ctx.read(reqAddr);
      if (req === null) return 0n;
      let parsed;
      try {
        parsed = JSON.parse(req.string());
      } catch {
        throw new HostLimitError('wasm_trap', 'http_request: the request block is not JSON');
      }
      const rawUrl = String(parsed?.url ?? '');
      if (!opts.network) {
        throw new HostLimitError('wasm_permission_denied', `HTTP request to ${rawUrl.slice(0, 200)} refused: the plugin lacks the "network" permission`);
      }
      let url;
      try {
        url = new URL(rawUrl);
      } catch {
        throw new HostLimitError('wasm_trap', `http_request: invalid URL ${rawUrl.slice(0, 200)}`);
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        throw new HostLimitError('wasm_permission_denied', `HTTP request refused: scheme ${url.protocol} is not allowed`);
      }
      if (!hostMatches(url.hostname, opts.allowedHosts)) {
        throw new HostLimitError('wasm_permission_denied', `HTTP request to ${url.hostname} refused: not in wasm.allowed_hosts`);
      }
      const method = String(parsed.method ?? 'GET').toUpperCase();
      const body = bodyAddr === 0n || method === 'GET' || method === 'HEAD' ? null : ctx.read(bodyAddr)?.bytes().slice() ?? null;
      const sab = new SharedArrayBuffer(HTTP_HEADER_BYTES + opts.maxHttpResponseBytes);
      const header = new Int32Array(sab, 0, 4);
      const headers = parsed.headers && typeof parsed.headers === 'object' ? parsed.headers : {};
      parentPort.postMessage({ type: 'http', sab, request: { url: url.href, method, headers }, body });
      const waited = Atomics.wait(header, 0, 0, opts.httpTimeoutMs);
      if (waited === 'timed-out') throw new HostLimitError('wasm_timeout', `HTTP request to ${url.hostname} did not finish in time`);
      const state = Atomics.load(header, 0);
      const length = header[2];
      const payload = new Uint8Array(sab, HTTP_HEADER_BYTES, length).slice();
      if (state === STATE_DENIED) throw new HostLimitError('wasm_permission_denied', decoder.decode(payload));
      if (state === STATE_FAILED) {
        // The guest sees a failed request as status 0 and can decide what to do.
        postLog('warn', `http_request failed: ${decoder.decode(payload)}`);
        httpStatus = 0;
        return 0n;
      }
      httpStatus = header[1];
      allocated += payload.length;
      if (allocated > opts.allocBudgetBytes) {
        throw new HostLimitError('wasm_memory', `HTTP response pushed host memory past ${opts.allocBudgetBytes} bytes in one call`);
      }
      return ctx.store(payload);
    },
    http_status_code() {
      return httpStatus;
    },
  },
};

async function linearMemoryPages() {
  try {
    const instance = await plugin.getInstance();
    const mem = instance.exports.memory;
    return mem instanceof WebAssembly.Memory ? mem.buffer.byteLength / 65536 : null;
  } catch {
    return null;
  }
}

async function classify(err) {
  if (err && err.vigilCode) return { code: err.vigilCode, message: err.message, fatal: true };
  const msg = String(err?.message ?? err);
  const guestPrefix = 'Plugin-originated error: ';
  if (msg.startsWith(guestPrefix)) {
    return { code: 'wasm_guest_error', message: msg.slice(guestPrefix.length).slice(0, 4000), fatal: false };
  }
  const isTrap = err instanceof WebAssembly.RuntimeError || (err instanceof RangeError && /call stack/i.test(msg));
  const pages = await linearMemoryPages();
  const detail = lastGuestErrorLog ? ` (guest said: ${lastGuestErrorLog})` : '';
  // The memory section is capped, so a guest that needs more than the cap sees memory.grow fail
  // and its allocator executes `unreachable` (AssemblyScript, Rust, C all do) with no message of
  // its own. The engine does not say which instruction trapped, so: a silent `unreachable` with
  // at least half the cap in use, or an allocator's own out-of-memory message, is the memory cap.
  const silentUnreachable = /unreachable/i.test(msg) && lastGuestErrorLog === null;
  const oomMessage = lastGuestErrorLog !== null && /allocation too large|out of memory/i.test(lastGuestErrorLog);
  if (isTrap && ((silentUnreachable && pages !== null && pages >= opts.maxMemoryPages * 0.5) || oomMessage)) {
    return {
      code: 'wasm_memory',
      message: `guest exceeded its memory cap of ${opts.maxMemoryPages} pages (${opts.maxMemoryPages * 64} KiB): ${msg}${detail}`,
      fatal: true,
    };
  }
  const where = pages !== null ? `; linear memory ${pages}/${opts.maxMemoryPages} pages` : '';
  return { code: 'wasm_trap', message: `guest trapped: ${msg}${detail}${where}`, fatal: true };
}

async function init() {
  plugin = await createPlugin(
    { wasm: [{ module: opts.module }] },
    {
      useWasi: false,
      runInWorker: false,
      config: opts.config,
      allowedHosts: [],
      allowedPaths: {},
      functions,
      logger,
    },
  );
}

async function handleCall(msg) {
  allocated = msg.input.byteLength;
  logCount = 0;
  lastGuestErrorLog = null;
  httpStatus = 0;
  try {
    const out = await plugin.call(msg.fn, msg.input.byteLength === 0 ? undefined : msg.input);
    let bytes = null;
    if (out !== null) {
      if (out.byteLength > opts.maxOutputBytes) {
        parentPort.postMessage({ type: 'result', id: msg.id, ok: false, code: 'wasm_bad_output', message: `output of ${out.byteLength} bytes exceeds the ${opts.maxOutputBytes}-byte limit`, fatal: false });
        return;
      }
      bytes = new Uint8Array(out.byteLength);
      bytes.set(new Uint8Array(out.buffer, out.byteOffset, out.byteLength));
    }
    parentPort.postMessage({ type: 'result', id: msg.id, ok: true, output: bytes }, bytes ? [bytes.buffer] : []);
  } catch (err) {
    const c = await classify(err);
    parentPort.postMessage({ type: 'result', id: msg.id, ok: false, ...c });
  } finally {
    // Drop this call's host blocks; variables live in `vars`, outside the SDK's block table.
    await plugin.reset().catch(() => {});
  }
}

parentPort.on('message', (msg) => {
  if (msg?.type === 'call') void handleCall(msg);
});

init().then(
  () => parentPort.postMessage({ type: 'ready' }),
  (err) => {
    const message = String(err?.message ?? err);
    const code = err instanceof WebAssembly.RuntimeError ? 'wasm_trap' : 'wasm_load_failed';
    parentPort.postMessage({ type: 'init_error', code, message });
  },
);
