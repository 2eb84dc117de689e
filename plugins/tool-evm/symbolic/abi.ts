// ABI helpers for evidence: function selectors and decoding of the calldata a solver model
// produced, so a counterexample reads as `withdraw(amount=5)` rather than a hex blob.
import { keccak_256 } from '@noble/hashes/sha3';

interface AbiParam {
  name?: string;
  type: string;
  components?: AbiParam[];
}

interface AbiEntry {
  type?: string;
  name?: string;
  inputs?: AbiParam[];
  stateMutability?: string;
  payable?: boolean;
}

function canonical(p: AbiParam): string {
  if (p.type.startsWith('tuple')) return `(${(p.components ?? []).map(canonical).join(',')})${p.type.slice(5)}`;
  return p.type;
}

export function signatureOf(e: AbiEntry): string {
  return `${e.name ?? ''}(${(e.inputs ?? []).map(canonical).join(',')})`;
}

export function selectorOf(signature: string): string {
  return Buffer.from(keccak_256(new TextEncoder().encode(signature)))
    .toString('hex')
    .slice(0, 8);
}

export interface DecodedCall {
  function: string;
  signature: string | null;
  selector: string | null;
  args: Record<string, string>;
  calldata: string;
}

const isStatic = (t: string) => /^(u?int\d*|address|bool|bytes\d+)$/.test(t);

function decodeWord(type: string, word: bigint): string {
  if (type === 'address') return '0x' + (word & ((1n << 160n) - 1n)).toString(16).padStart(40, '0');
  if (type === 'bool') return word === 0n ? 'false' : 'true';
  if (/^bytes\d+$/.test(type)) {
    const n = Number(type.slice(5));
    return (
      '0x' +
      word
        .toString(16)
        .padStart(64, '0')
        .slice(0, 2 * n)
    );
  }
  const m = /^int(\d*)$/.exec(type);
  if (m) {
    const bits = BigInt(m[1] || 256);
    const v = word & ((1n << bits) - 1n);
    return (v >= 1n << (bits - 1n) ? v - (1n << bits) : v).toString();
  }
  return word.toString();
}

/** Decodes calldata against an ABI; unknown selectors are the fallback/receive function. */
export function decodeCalldata(abi: unknown[], data: Uint8Array): DecodedCall {
  const hex = Buffer.from(data).toString('hex');
  const fns = (abi as AbiEntry[]).filter((e) => e && e.type === 'function');
  if (data.length < 4) {
    const receive = (abi as AbiEntry[]).some((e) => e?.type === 'receive');
    return {
      function: data.length === 0 && receive ? 'receive' : 'fallback',
      signature: null,
      selector: null,
      args: {},
      calldata: '0x' + hex,
    };
  }
  const sel = hex.slice(0, 8);
  const fn = fns.find((e) => selectorOf(signatureOf(e)) === sel);
  if (!fn) return { function: 'fallback', signature: null, selector: sel, args: {}, calldata: '0x' + hex };
  const args: Record<string, string> = {};
  const word = (i: number): bigint => {
    const s = hex.slice(8 + 64 * i, 8 + 64 * (i + 1));
    return s ? BigInt('0x' + s.padEnd(64, '0')) : 0n;
  };
  (fn.inputs ?? []).forEach((p, i) => {
    const name = p.name && p.name !== '' ? p.name : `arg${i}`;
    if (isStatic(p.type)) args[name] = decodeWord(p.type, word(i));
    else {
      // Dynamic values: the head is an offset; show the tail's first word count as length.
      const off = Number(word(i) & 0xffffffffn);
      const lenWordIndex = off / 32;
      const len = Number.isInteger(lenWordIndex) ? word(lenWordIndex) : 0n;
      args[name] = `${p.type} (length ${len > 1n << 32n ? 'huge' : len.toString()})`;
    }
  });
  return { function: fn.name ?? 'fallback', signature: signatureOf(fn), selector: sel, args, calldata: '0x' + hex };
}

/** Static words a constructor's arguments take (dynamic ones: head + length + one data word). */
export function constructorWords(abi: unknown[]): number {
  const ctor = (abi as AbiEntry[]).find((e) => e?.type === 'constructor');
  if (!ctor) return 0;
  return Math.min(
    16,
    (ctor.inputs ?? []).reduce((n, p) => n + (isStatic(p.type) ? 1 : 3), 0),
  );
}
