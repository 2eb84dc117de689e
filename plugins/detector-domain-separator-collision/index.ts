// domain-separator-collision: EIP-2612 permit integrations call `DOMAIN_SEPARATOR()` (selector
// 0x3644e515) and hash what it returns into the digest they ask the holder to sign. A token whose
// function or public variable answers that selector with anything but a bytes32 — another
// function whose signature hashes to the same four bytes, or a DOMAIN_SEPARATOR of another type —
// makes integrators build digests the token's permit never accepts, or accept digests it never
// meant (Slither's domain-separator-collision class).
// Avoids false positives: `DOMAIN_SEPARATOR()` declared returning bytes32 (the standard), internal
// and private functions (no selector), overloads taking parameters of another selector.
import {
  canonicalType,
  detectorPlugin,
  selectorOf,
  signatureOf,
  perContract,
  type StaticDetector,
  returnParameters,
  line,
  type FunctionNode,
} from '../../lib/analysis/static/index.ts';

export const DOMAIN_SEPARATOR_SELECTOR = '3644e515';

/** What a function returns, as source types (`bytes32`, `uint256`...); null when unknown. */
function returnTypes(fn: FunctionNode): string[] | null {
  const out: string[] = [];
  for (const p of returnParameters(fn)) {
    const c = canonicalType(p.typeName);
    if (!c) return null;
    out.push(c);
  }
  return out;
}

export const domainSeparatorCollisionDetector: StaticDetector = {
  meta: {
    id: 'domain-separator-collision',
    title: 'DOMAIN_SEPARATOR() selector answered with something other than a bytes32',
    severity: 'MEDIUM',
    confidence: 0.8,
    category: 'other',
    swc: null,
    cwe: 'CWE-694',
    description:
      'EIP-2612 integrations read the domain separator through the DOMAIN_SEPARATOR() selector (0x3644e515); here that selector returns something else, so permit digests built from it do not match what the token verifies.',
    recommendation:
      'Declare `function DOMAIN_SEPARATOR() external view returns (bytes32)` returning the separator the permit check uses, and rename any function whose selector collides with it.',
    exploit_scenario:
      'A router reads DOMAIN_SEPARATOR() to build a permit digest; the token answers with a colliding function, the router signs and submits garbage, and every permit through it fails or, worse, the colliding function runs with state effects.',
    messages: {
      collision: '`{{signature}}` has the selector of DOMAIN_SEPARATOR() (0x3644e515).',
      type: '`{{name}}` answers DOMAIN_SEPARATOR() with `{{returns}}`, not bytes32.',
    },
  },
  create: perContract((c, context) => {
    if (c.kind === 'library') return;
    for (const fn of c.ownFunctions) {
      if (fn.kind !== 'function' || !fn.isPublic) continue;
      const signature = signatureOf(fn);
      if (!signature || selectorOf(signature) !== DOMAIN_SEPARATOR_SELECTOR) continue;
      const returns = returnTypes(fn.node);
      if (fn.name === 'DOMAIN_SEPARATOR' && returns?.length === 1 && returns[0] === 'bytes32') continue;
      context.report({
        node: fn.node,
        loc: { line: line(fn.node), end_line: line(fn.node) },
        messageId: fn.name === 'DOMAIN_SEPARATOR' ? 'type' : 'collision',
        data: { signature, name: fn.name, returns: (returns ?? ['?']).join(', ') },
        contract: c.name,
        function: fn.name,
      });
    }
    // A public state variable's getter: `uint256 public DOMAIN_SEPARATOR`.
    for (const v of c.stateVars.values()) {
      if (v.name !== 'DOMAIN_SEPARATOR' || v.visibility !== 'public' || v.contract !== c.name) continue;
      const t = canonicalType(v.typeNode);
      if (!t || t === 'bytes32') continue;
      context.report({
        node: v.node,
        loc: { line: line(v.node), end_line: line(v.node) },
        messageId: 'type',
        data: { name: v.name, returns: t },
        contract: c.name,
        function: null,
      });
    }
  }),
};

export const detectors = [domainSeparatorCollisionDetector];
export default detectorPlugin(detectors);
