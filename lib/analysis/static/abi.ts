// ABI names of declarations, for rules about selectors (domain-separator-collision,
// function-selector-collision): canonical parameter types, signatures and their 4-byte selectors.
import { keccak_256 } from '@noble/hashes/sha3';
import type { MaybeNode } from './ast.ts';
import type { FunctionFacts } from './facts.ts';

/** The first four bytes of keccak256 of a canonical signature, as hex. */
export function selectorOf(signature: string): string {
  return Buffer.from(keccak_256(new TextEncoder().encode(signature)))
    .subarray(0, 4)
    .toString('hex');
}

/** Canonical ABI type of a parameter's type name; null when it cannot be told from the AST
 *  (structs, user types and contracts need their definitions; those are left out). */
export function canonicalType(t: MaybeNode): string | null {
  if (!t) return null;
  if (t.type === 'ElementaryTypeName') {
    const n: string = t.name;
    if (n === 'uint' || n === 'int') return `${n}256`;
    if (n === 'byte') return 'bytes1';
    if (n === 'fixed' || n === 'ufixed') return `${n}128x18`;
    if (n === 'address payable') return 'address';
    return n;
  }
  if (t.type === 'ArrayTypeName') {
    const base = canonicalType(t.baseTypeName);
    if (!base) return null;
    const len = t.length?.type === 'NumberLiteral' ? String(t.length.number) : t.length ? null : '';
    return len === null ? null : `${base}[${len}]`;
  }
  return null;
}

/** `name(type,…)` of a function, or null when a parameter's ABI type needs definitions. */
export function signatureOf(fn: FunctionFacts): string | null {
  const types: string[] = [];
  for (const p of fn.node.parameters ?? []) {
    const t = canonicalType(p.typeName);
    if (!t) return null;
    types.push(t);
  }
  return `${fn.name}(${types.join(',')})`;
}
