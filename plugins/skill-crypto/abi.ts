// Solidity ABI encoding/decoding (head/tail layout) for the common types: uintN, intN, address,
// bool, bytesN, bytes, string and arrays of them (T[] and T[k]). Tuples are out of scope; a
// type this does not know is a clear error, never a guess.
import { keccak_256 } from '@noble/hashes/sha3';
import { bytesToHex, hexToBytes, utf8ToBytes } from '@noble/hashes/utils';

export class AbiError extends Error {}

type Ty =
  | { k: 'uint' | 'int'; bits: number }
  | { k: 'address' | 'bool' | 'bytes' | 'string' }
  | { k: 'fixedbytes'; size: number }
  | { k: 'array'; of: Ty; len: number | null };

export function parseType(t: string): Ty {
  const s = t.trim();
  const arr = /^(.*)\[(\d*)\]$/.exec(s);
  if (arr) {
    const len = arr[2] === '' ? null : Number(arr[2]);
    if (len !== null && len < 1) throw new AbiError(`array length in "${t}" must be at least 1`);
    return { k: 'array', of: parseType(arr[1]), len };
  }
  let m = /^(u?int)(\d*)$/.exec(s);
  if (m) {
    const bits = m[2] ? Number(m[2]) : 256;
    if (bits < 8 || bits > 256 || bits % 8) throw new AbiError(`"${t}": bit size must be a multiple of 8 from 8 to 256`);
    return { k: m[1] as 'uint' | 'int', bits };
  }
  m = /^bytes(\d+)$/.exec(s);
  if (m) {
    const size = Number(m[1]);
    if (size < 1 || size > 32) throw new AbiError(`"${t}": bytesN needs N from 1 to 32`);
    return { k: 'fixedbytes', size };
  }
  if (s === 'address' || s === 'bool' || s === 'bytes' || s === 'string') return { k: s };
  throw new AbiError(`unsupported ABI type "${t}" (supported: uintN, intN, address, bool, bytesN, bytes, string and arrays of them)`);
}

const dynamic = (t: Ty): boolean => t.k === 'bytes' || t.k === 'string' || (t.k === 'array' && (t.len === null || dynamic(t.of)));
const headSize = (t: Ty): number => (t.k === 'array' && t.len !== null && !dynamic(t) ? t.len * headSize(t.of) : 32);

const word = (n: bigint) => n.toString(16).padStart(64, '0');
const pad32 = (hex: string) => hex + '0'.repeat((64 - (hex.length % 64)) % 64);

function toBig(v: unknown, t: string): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return BigInt(v);
  if (typeof v === 'string' && /^-?(0x[0-9a-fA-F]+|\d+)$/.test(v.trim())) {
    const s = v.trim();
    return s.startsWith('-') ? -BigInt(s.slice(1)) : BigInt(s);
  }
  throw new AbiError(`value ${JSON.stringify(v)} is not an integer for ${t} (use a decimal or 0x string for large numbers)`);
}

function hexData(v: unknown, what: string): string {
  if (typeof v !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(v))
    throw new AbiError(`${what} must be a 0x-prefixed hex string with whole bytes`);
  return v.slice(2).toLowerCase();
}

function encodeOne(t: Ty, v: unknown, name: string): string {
  switch (t.k) {
    case 'uint':
    case 'int': {
      const n = toBig(v, name);
      const max = 1n << BigInt(t.bits);
      if (t.k === 'uint' ? n < 0n || n >= max : n < -(max >> 1n) || n >= max >> 1n)
        throw new AbiError(`value ${n} is out of range for ${name}`);
      return word(n < 0n ? (1n << 256n) + n : n);
    }
    case 'address': {
      const h = hexData(v, 'an address');
      if (h.length !== 40) throw new AbiError('an address must be 20 bytes');
      return h.padStart(64, '0');
    }
    case 'bool':
      if (typeof v !== 'boolean') throw new AbiError(`value ${JSON.stringify(v)} is not a boolean for bool`);
      return word(v ? 1n : 0n);
    case 'fixedbytes': {
      const h = hexData(v, name);
      if (h.length !== t.size * 2) throw new AbiError(`${name} needs exactly ${t.size} bytes`);
      return pad32(h);
    }
    case 'bytes':
    case 'string': {
      const h =
        t.k === 'string'
          ? typeof v === 'string'
            ? bytesToHex(utf8ToBytes(v))
            : (() => {
                throw new AbiError('a string value must be a string');
              })()
          : hexData(v, 'bytes');
      return word(BigInt(h.length / 2)) + (h.length ? pad32(h) : '');
    }
    case 'array': {
      if (!Array.isArray(v)) throw new AbiError(`${name} needs an array value`);
      if (t.len !== null && v.length !== t.len) throw new AbiError(`${name} needs exactly ${t.len} elements, got ${v.length}`);
      const body = encodeSeq(
        v.map(() => t.of),
        v,
        v.map(() => name.replace(/\[\d*\]$/, '')),
      );
      return t.len === null ? word(BigInt(v.length)) + body : body;
    }
  }
}

function encodeSeq(types: Ty[], values: unknown[], names: string[]): string {
  const heads: string[] = [];
  const tails: string[] = [];
  let offset = types.reduce((a, t) => a + (dynamic(t) ? 32 : headSize(t)), 0);
  types.forEach((t, i) => {
    const enc = encodeOne(t, values[i], names[i]);
    if (dynamic(t)) {
      heads.push(word(BigInt(offset)));
      tails.push(enc);
      offset += enc.length / 2;
    } else heads.push(enc);
  });
  return heads.join('') + tails.join('');
}

export function abiEncode(types: string[], values: unknown[]): string {
  if (types.length !== values.length) throw new AbiError(`${types.length} types but ${values.length} values`);
  return '0x' + encodeSeq(types.map(parseType), values, types);
}

function readWord(buf: Uint8Array, at: number): bigint {
  if (at + 32 > buf.length) throw new AbiError(`data is too short: needs a 32-byte word at offset ${at}, has ${buf.length} bytes`);
  return BigInt('0x' + (bytesToHex(buf.subarray(at, at + 32)) || '0'));
}

function decodeOne(t: Ty, buf: Uint8Array, at: number): unknown {
  switch (t.k) {
    case 'uint':
    case 'int': {
      let n = readWord(buf, at);
      if (t.k === 'int' && n >= 1n << 255n) n -= 1n << 256n;
      return n.toString();
    }
    case 'address':
      return checksumAddressFromHex(bytesToHex(buf.subarray(at + 12, at + 32)));
    case 'bool':
      return readWord(buf, at) !== 0n;
    case 'fixedbytes':
      readWord(buf, at);
      return '0x' + bytesToHex(buf.subarray(at, at + t.size));
    case 'bytes':
    case 'string': {
      const len = Number(readWord(buf, at));
      if (at + 32 + len > buf.length) throw new AbiError('data is too short for the declared length of a bytes/string value');
      const raw = buf.subarray(at + 32, at + 32 + len);
      return t.k === 'string' ? new TextDecoder().decode(raw) : '0x' + bytesToHex(raw);
    }
    case 'array': {
      let len = t.len;
      let start = at;
      if (len === null) {
        len = Number(readWord(buf, at));
        start = at + 32;
        if (len > buf.length) throw new AbiError('array length is larger than the data');
      }
      return decodeSeq(
        Array.from({ length: len }, () => t.of),
        buf,
        start,
      );
    }
  }
}

function decodeSeq(types: Ty[], buf: Uint8Array, base: number): unknown[] {
  const out: unknown[] = [];
  let head = base;
  for (const t of types) {
    if (dynamic(t)) {
      const off = Number(readWord(buf, head));
      out.push(decodeOne(t, buf, base + off));
      head += 32;
    } else {
      out.push(decodeOne(t, buf, head));
      head += headSize(t);
    }
  }
  return out;
}

export function abiDecode(types: string[], data: string): unknown[] {
  const buf = hexToBytes(hexData(data, 'data'));
  return decodeSeq(types.map(parseType), buf, 0);
}

/** EIP-55: a hex nibble of the address is upper-cased when the same nibble of keccak256(lowercase hex) is >= 8. */
export function checksumAddressFromHex(hex40: string): string {
  const lower = hex40.toLowerCase();
  const h = bytesToHex(keccak_256(utf8ToBytes(lower)));
  let out = '0x';
  for (let i = 0; i < 40; i++) out += parseInt(h[i], 16) >= 8 ? lower[i].toUpperCase() : lower[i];
  return out;
}
