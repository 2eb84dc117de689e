// Minimal Solidity ABI codec (head/tail encoding of the contract ABI spec) for the fuzzer: it
// encodes generated arguments and decodes the few return values the property checks read
// (bool invariants, address getters). No dependency beyond keccak.
import { keccak_256 } from '@noble/hashes/sha3.js';

export interface AbiParam {
  name?: string;
  type: string;
  components?: AbiParam[];
  internalType?: string;
}

export interface AbiEntry {
  type?: string;
  name?: string;
  inputs?: AbiParam[];
  outputs?: AbiParam[];
  stateMutability?: string;
  payable?: boolean;
  constant?: boolean;
}

/** A JSON-safe argument value: bigints travel as decimal strings so sequences serialize. */
export type AbiValue = string | boolean | AbiValue[];

const TWO256 = 1n << 256n;

export function canonicalType(p: AbiParam): string {
  if (p.type.startsWith('tuple')) return `(${(p.components ?? []).map(canonicalType).join(',')})${p.type.slice(5)}`;
  return p.type;
}

export function signatureOf(fn: AbiEntry): string {
  return `${fn.name ?? ''}(${(fn.inputs ?? []).map(canonicalType).join(',')})`;
}

export function keccak(data: Uint8Array | string): Uint8Array {
  return keccak_256(typeof data === 'string' ? new TextEncoder().encode(data) : data);
}

export function selectorOf(fn: AbiEntry): Uint8Array {
  return keccak(signatureOf(fn)).slice(0, 4);
}

export function toHex(b: Uint8Array): string {
  return '0x' + Buffer.from(b).toString('hex');
}

export function fromHex(h: string): Uint8Array {
  const s = h.startsWith('0x') ? h.slice(2) : h;
  return new Uint8Array(Buffer.from(s.length % 2 ? '0' + s : s, 'hex'));
}

function word(v: bigint): Uint8Array {
  const x = ((v % TWO256) + TWO256) % TWO256;
  return fromHex(x.toString(16).padStart(64, '0'));
}

function concat(parts: Uint8Array[]): Uint8Array {
  const n = parts.reduce((a, p) => a + p.length, 0);
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

interface Parsed {
  base: string;
  /** Outer array dimension: null = not an array, -1 = dynamic, k = fixed length. */
  dim: number | null;
  inner: AbiParam;
}

function parseArray(p: AbiParam): Parsed {
  const m = /^(.*)\[(\d*)\]$/.exec(p.type);
  if (!m) return { base: p.type, dim: null, inner: p };
  return { base: m[1], dim: m[2] === '' ? -1 : Number(m[2]), inner: { ...p, type: m[1] } };
}

export function isDynamic(p: AbiParam): boolean {
  const a = parseArray(p);
  if (a.dim === -1) return true;
  if (a.dim !== null) return isDynamic(a.inner);
  if (p.type === 'bytes' || p.type === 'string') return true;
  if (p.type === 'tuple') return (p.components ?? []).some(isDynamic);
  return false;
}

function toBig(v: AbiValue): bigint {
  if (typeof v === 'boolean') return v ? 1n : 0n;
  if (typeof v === 'string') return BigInt(v);
  throw new Error('expected a scalar');
}

function encodeOne(p: AbiParam, v: AbiValue): Uint8Array {
  const a = parseArray(p);
  if (a.dim !== null) {
    const items = Array.isArray(v) ? v : [];
    const body = encodeTuple(
      items.map(() => a.inner),
      items,
    );
    return a.dim === -1 ? concat([word(BigInt(items.length)), body]) : body;
  }
  const t = p.type;
  if (t === 'tuple') return encodeTuple(p.components ?? [], Array.isArray(v) ? v : []);
  if (t === 'bytes' || t === 'string') {
    const data = t === 'string' ? new TextEncoder().encode(String(v)) : fromHex(String(v));
    const padded = new Uint8Array(Math.ceil(data.length / 32) * 32);
    padded.set(data);
    return concat([word(BigInt(data.length)), padded]);
  }
  if (t === 'bool') return word(v === true || v === 'true' || v === '1' ? 1n : 0n);
  if (t === 'address') return word(BigInt(String(v)));
  if (/^bytes\d+$/.test(t)) {
    const out = new Uint8Array(32);
    out.set(fromHex(String(v)).slice(0, 32));
    return out;
  }
  if (/^u?int\d*$/.test(t) || t === 'function') return word(toBig(v));
  // Enums and contracts appear as uint8/address in the ABI; anything else is a word.
  return word(toBig(v));
}

function encodeTuple(params: AbiParam[], values: AbiValue[]): Uint8Array {
  const heads: Uint8Array[] = [];
  const tails: Uint8Array[] = [];
  const headSize = params.reduce((n, p) => n + headLen(p), 0);
  let tailOffset = headSize;
  params.forEach((p, i) => {
    const enc = encodeOne(p, values[i] ?? defaultValue(p));
    if (isDynamic(p)) {
      heads.push(word(BigInt(tailOffset)));
      tails.push(enc);
      tailOffset += enc.length;
    } else heads.push(enc);
  });
  return concat([...heads, ...tails]);
}

function headLen(p: AbiParam): number {
  if (isDynamic(p)) return 32;
  const a = parseArray(p);
  if (a.dim !== null && a.dim >= 0) return a.dim * headLen(a.inner);
  if (p.type === 'tuple') return (p.components ?? []).reduce((n, c) => n + headLen(c), 0);
  return 32;
}

export function defaultValue(p: AbiParam): AbiValue {
  const a = parseArray(p);
  if (a.dim !== null) return a.dim > 0 ? Array.from({ length: a.dim }, () => defaultValue(a.inner)) : [];
  if (p.type === 'tuple') return (p.components ?? []).map(defaultValue);
  if (p.type === 'bool') return false;
  if (p.type === 'bytes') return '0x';
  if (p.type === 'string') return '';
  if (/^bytes\d+$/.test(p.type)) return '0x';
  return '0';
}

export function encodeArgs(params: AbiParam[], values: AbiValue[]): Uint8Array {
  return encodeTuple(params, values);
}

export function encodeCall(fn: AbiEntry, values: AbiValue[]): Uint8Array {
  return concat([selectorOf(fn), encodeArgs(fn.inputs ?? [], values)]);
}

/** Decodes the static head of a return value (bool, address, uint) at word `index`. */
export function decodeWord(ret: Uint8Array, index = 0): bigint | null {
  if (ret.length < (index + 1) * 32) return null;
  return BigInt(toHex(ret.slice(index * 32, index * 32 + 32)));
}
