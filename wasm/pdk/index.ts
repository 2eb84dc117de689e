// vigil PDK for AssemblyScript guests: a small, safe layer over the Extism host ABI.
//
//   import { readInputString, writeOutputString, setError } from "pdk";
//
// Build with `vigil plugin build DIR` (kernel/wasm/build.ts), which passes
// `--path <vigil>/wasm --use abort=~lib/pdk/index/pdkAbort`: the module then imports nothing but
// "extism:host/env" (Extism provides no `env.abort`, and the vigil host refuses any other import).
import * as env from "./env";
import { JsonWriter } from "./json";

export * from "./json";
export * from "./detector";

// ---- moving bytes between host blocks and linear memory ------------------------------------

/** Copies a host block into a fresh Uint8Array. Offset 0 means "no block" and gives null. */
export function readBlock(offs: u64): Uint8Array | null {
  if (offs == 0) return null;
  const n = <i32>env.length(offs);
  const out = new Uint8Array(n);
  const base = out.dataStart;
  let i = 0;
  // 8 bytes per host call where possible: host calls dominate the cost of a copy.
  for (; i + 8 <= n; i += 8) store<u64>(base + <usize>i, env.load_u64(offs + <u64>i));
  for (; i < n; i++) store<u8>(base + <usize>i, env.load_u8(offs + <u64>i));
  return out;
}

/** Copies bytes into a newly allocated host block and returns its offset. */
export function writeBlock(data: Uint8Array): u64 {
  const n = data.length;
  const offs = env.alloc(<u64>n);
  const base = data.dataStart;
  let i = 0;
  for (; i + 8 <= n; i += 8) env.store_u64(offs + <u64>i, load<u64>(base + <usize>i));
  for (; i < n; i++) env.store_u8(offs + <u64>i, load<u8>(base + <usize>i));
  return offs;
}

function encode(s: string): Uint8Array {
  return Uint8Array.wrap(String.UTF8.encode(s));
}

function decode(b: Uint8Array): string {
  return String.UTF8.decodeUnsafe(b.dataStart, <usize>b.length);
}

/** Stores a string in a host block (UTF-8) and returns its offset. */
export function writeStringBlock(s: string): u64 {
  return writeBlock(encode(s));
}

// ---- input / output -----------------------------------------------------------------------

/** The call's input bytes. */
export function readInput(): Uint8Array {
  const n = <i32>env.input_length();
  const out = new Uint8Array(n);
  const base = out.dataStart;
  let i = 0;
  for (; i + 8 <= n; i += 8) store<u64>(base + <usize>i, env.input_load_u64(<u64>i));
  for (; i < n; i++) store<u8>(base + <usize>i, env.input_load_u8(<u64>i));
  return out;
}

/** The call's input decoded as UTF-8. */
export function readInputString(): string {
  return decode(readInput());
}

/** Sets the call's output bytes (the last call wins). */
export function writeOutput(data: Uint8Array): void {
  const offs = writeBlock(data);
  env.output_set(offs, <u64>data.length);
}

/** Sets the call's output to a UTF-8 string. */
export function writeOutputString(s: string): void {
  writeOutput(encode(s));
}

/** Fails the call with a message; the host reports it as a `wasm_guest_error`.
 *  Return from the export afterwards (return 1 by convention). */
export function setError(message: string): void {
  env.error_set(writeStringBlock(message));
}

// ---- config and variables -----------------------------------------------------------------

/** A config value the host passed (the plugin's config, as strings), or null. */
export function getConfig(key: string): string | null {
  const b = readBlock(env.config_get(writeStringBlock(key)));
  return b == null ? null : decode(b);
}

/** A variable kept by the host between calls to this instance (lost when it is rebuilt). */
export function getVar(key: string): Uint8Array | null {
  return readBlock(env.var_get(writeStringBlock(key)));
}

export function getVarString(key: string): string | null {
  const b = getVar(key);
  return b == null ? null : decode(b);
}

export function setVar(key: string, value: Uint8Array): void {
  env.var_set(writeStringBlock(key), writeBlock(value));
}

export function setVarString(key: string, value: string): void {
  setVar(key, encode(value));
}

export function removeVar(key: string): void {
  env.var_set(writeStringBlock(key), 0);
}

// ---- logging ------------------------------------------------------------------------------

export function logDebug(msg: string): void {
  env.log_debug(writeStringBlock(msg));
}
export function logInfo(msg: string): void {
  env.log_info(writeStringBlock(msg));
}
export function logWarn(msg: string): void {
  env.log_warn(writeStringBlock(msg));
}
export function logError(msg: string): void {
  env.log_error(writeStringBlock(msg));
}

// ---- HTTP (only with the "network" permission and a matching wasm.allowed_hosts entry) -----

export class HttpResponse {
  constructor(public status: i32, public body: Uint8Array) {}
  text(): string {
    return decode(this.body);
  }
}

/** Makes an HTTP request through the host. Without the "network" permission, or to a host that
 *  is not allowed, the host fails the whole call with `wasm_permission_denied`. A request that
 *  the host could not complete (connection refused, timeout) gives status 0 and an empty body. */
export function httpRequest(method: string, url: string, headers: Map<string, string> | null = null, body: Uint8Array | null = null): HttpResponse {
  const w = new JsonWriter();
  w.beginObject();
  w.key("method").string(method);
  w.key("url").string(url);
  w.key("headers").beginObject();
  if (headers != null) {
    const keys = headers.keys();
    for (let i = 0; i < keys.length; i++) w.key(keys[i]).string(headers.get(keys[i]));
  }
  w.endObject();
  w.endObject();
  const req = writeStringBlock(w.toString());
  const bodyOffs: u64 = body == null ? 0 : writeBlock(body);
  const res = env.http_request(req, bodyOffs);
  const status = env.http_status_code();
  const data = readBlock(res);
  return new HttpResponse(status, data == null ? new Uint8Array(0) : data);
}

// ---- abort --------------------------------------------------------------------------------

/** Replaces AssemblyScript's `env.abort` (selected with `--use abort=~lib/pdk/index/pdkAbort`):
 *  records the message as the call's error, then traps. The host reports a `wasm_trap` that
 *  carries the message and rebuilds the instance before the next call. */
export function pdkAbort(message: string | null, fileName: string | null, line: u32, column: u32): void {
  let text = "abort";
  if (message != null) text += ": " + message;
  if (fileName != null) text += " at " + fileName + ":" + line.toString() + ":" + column.toString();
  const offs = writeStringBlock(text);
  // The host keeps the last error log of a call that traps and puts it in the error message;
  // error_set alone would be lost, since a trapped call has no result.
  env.log_error(offs);
  env.error_set(offs);
  unreachable();
}
