// The `crypto` skill: the Ethereum primitives an agent reviewing contracts keeps needing —
// keccak256/sha256, function selectors, ABI encode/decode, EIP-55 checksummed addresses and
// signer recovery for personal_sign (EIP-191) signatures. Pure computation (@noble/hashes,
// @noble/curves), no keys held and nothing signed. Inputs are strict: hex must be 0x-prefixed
// whole bytes, and an address whose mixed case fails its checksum is reported invalid rather
// than silently "fixed", since a wrong checksum usually means a typo.
import { secp256k1 } from '@noble/curves/secp256k1';
import { sha256 } from '@noble/hashes/sha2';
import { keccak_256 } from '@noble/hashes/sha3';
import { bytesToHex, concatBytes, hexToBytes, utf8ToBytes } from '@noble/hashes/utils';
import { definePlugin, type SkillResult } from '../../kernel/index.ts';
import { AbiError, abiDecode, abiEncode, checksumAddressFromHex } from './abi.ts';

const OPS = [
  'keccak256',
  'sha256',
  'function_selector',
  'abi_encode',
  'abi_decode',
  'checksum_address',
  'recover_signer',
  'hash_message',
] as const;
type Op = (typeof OPS)[number];

const need = (op: Op, fields: string[]) => ({ if: { properties: { op: { const: op } } }, then: { required: fields } });

export const cryptoInputSchema = {
  type: 'object',
  required: ['op'],
  additionalProperties: false,
  properties: {
    op: { enum: [...OPS], description: 'What to compute' },
    data: { type: 'string', description: 'keccak256/sha256 input; abi_decode: 0x hex data' },
    encoding: { enum: ['utf8', 'hex'], description: 'How data/message is given (default utf8; hex means 0x-prefixed bytes)' },
    signature: { type: 'string', description: 'function_selector: e.g. "transfer(address,uint256)"; recover_signer: 65-byte 0x signature' },
    types: { type: 'array', items: { type: 'string' }, description: 'ABI types, e.g. ["address","uint256"]' },
    values: { type: 'array', description: 'abi_encode values (integers as numbers or decimal/0x strings)' },
    address: { type: 'string', description: 'checksum_address input' },
    message: { type: 'string', description: 'recover_signer/hash_message: the signed message' },
  },
  allOf: [
    need('keccak256', ['data']),
    need('sha256', ['data']),
    need('function_selector', ['signature']),
    need('abi_encode', ['types', 'values']),
    need('abi_decode', ['types', 'data']),
    need('checksum_address', ['address']),
    need('recover_signer', ['message', 'signature']),
    need('hash_message', ['message']),
  ],
};

class InputError extends Error {}

function bytesOf(s: string, encoding: unknown, what: string): Uint8Array {
  if (encoding === 'hex') {
    if (!/^0x([0-9a-fA-F]{2})*$/.test(s)) throw new InputError(`${what} must be 0x-prefixed hex with whole bytes when encoding is "hex"`);
    return hexToBytes(s.slice(2));
  }
  return utf8ToBytes(s);
}

export function checksumAddress(address: string): { address: string; valid: boolean; reason?: string } {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) throw new InputError('address must be 0x followed by 40 hex digits');
  const fixed = checksumAddressFromHex(address.slice(2));
  const body = address.slice(2);
  const mixed = body !== body.toLowerCase() && body !== body.toUpperCase();
  if (mixed && address !== fixed)
    return { address: fixed, valid: false, reason: 'the mixed-case input does not match its EIP-55 checksum (likely a typo)' };
  return { address: fixed, valid: true };
}

/** EIP-191 version 0x45 ("personal_sign") digest. */
export function hashMessage(msg: Uint8Array): Uint8Array {
  return keccak_256(concatBytes(utf8ToBytes(`\x19Ethereum Signed Message:\n${msg.length}`), msg));
}

export function recoverSigner(msg: Uint8Array, signature: string): string {
  if (!/^0x[0-9a-fA-F]{130}$/.test(signature)) throw new InputError('signature must be 65 bytes: 0x followed by 130 hex digits (r, s, v)');
  const raw = hexToBytes(signature.slice(2));
  let v = raw[64];
  if (v >= 27) v -= 27;
  if (v !== 0 && v !== 1) throw new InputError(`signature v must be 27, 28, 0 or 1, got ${raw[64]}`);
  const sig = secp256k1.Signature.fromCompact(raw.subarray(0, 64)).addRecoveryBit(v);
  const pub = sig.recoverPublicKey(hashMessage(msg)).toRawBytes(false);
  return checksumAddressFromHex(bytesToHex(keccak_256(pub.subarray(1)).subarray(12)));
}

export function runCrypto(input: Record<string, unknown>): unknown {
  const op = input.op as Op;
  const enc = input.encoding;
  switch (op) {
    case 'keccak256':
      return { hash: '0x' + bytesToHex(keccak_256(bytesOf(String(input.data), enc, 'data'))) };
    case 'sha256':
      return { hash: '0x' + bytesToHex(sha256(bytesOf(String(input.data), enc, 'data'))) };
    case 'function_selector': {
      const sig = String(input.signature).replace(/\s+/g, '');
      if (!/^[A-Za-z_$][\w$]*\([\w,[\]()]*\)$/.test(sig))
        throw new InputError('signature must look like name(type1,type2), e.g. transfer(address,uint256)');
      return { signature: sig, selector: '0x' + bytesToHex(keccak_256(utf8ToBytes(sig)).subarray(0, 4)) };
    }
    case 'abi_encode':
      return { data: abiEncode(input.types as string[], input.values as unknown[]) };
    case 'abi_decode':
      return { values: abiDecode(input.types as string[], String(input.data)) };
    case 'checksum_address':
      return checksumAddress(String(input.address));
    case 'hash_message':
      return { hash: '0x' + bytesToHex(hashMessage(bytesOf(String(input.message), enc, 'message'))) };
    case 'recover_signer':
      return { address: recoverSigner(bytesOf(String(input.message), enc, 'message'), String(input.signature)) };
  }
}

export default definePlugin({
  setup(ctx) {
    ctx.registerSkill({
      name: 'crypto',
      description:
        'Ethereum crypto: keccak256/sha256 of text or hex, function selectors, ABI encode/decode, EIP-55 checksummed addresses, and recovering the signer of a personal_sign (EIP-191) signature.',
      inputSchema: cryptoInputSchema,
      capabilities: ['crypto'],
      async call(input): Promise<SkillResult> {
        try {
          return { ok: true, output: runCrypto(input) };
        } catch (e) {
          if (e instanceof InputError || e instanceof AbiError) return { ok: false, output: null, error: e.message };
          return { ok: false, output: null, error: `crypto ${String(input.op)} failed: ${(e as Error).message}` };
        }
      },
    });
  },
});
