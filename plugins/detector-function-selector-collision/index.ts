// function-selector-collision: the EVM dispatches on the first four bytes of keccak256 of a
// function's signature. Within one contract the compiler rejects two functions with one selector,
// but not across contracts: a proxy whose own function (`proxyOwner()`) shares a selector with a
// function of the implementation it forwards to (`clash550254402()`) answers every call meant for
// the implementation's function itself, and a caller compiled against one contract's ABI calling
// the other runs whatever function holds the selector there (`burn(uint256)` vs
// `collate_propagate_storage(bytes16)`). Colliding names do not happen by chance (one in 2^32 per
// pair); they are crafted to hide a backdoor behind an innocent-looking selector.
// Avoids false positives: the same signature declared in several contracts (an override, an
// interface and its implementation, a public variable and the function it implements),
// internal/private functions (no selector), parameters whose
// ABI type needs other files' definitions (structs, contracts), and libraries.
import {
  detectorPlugin,
  afterTraversal,
  line,
  selectorOf,
  signatureOf,
  type Node,
  type StaticDetector,
} from '../../lib/analysis/static/index.ts';

export const functionSelectorCollisionDetector: StaticDetector = {
  meta: {
    id: 'function-selector-collision',
    title: 'Two functions share a 4-byte selector',
    severity: 'HIGH',
    confidence: 0.8,
    category: 'other',
    swc: null,
    cwe: 'CWE-694',
    description:
      'Two public functions with different signatures hash to the same selector; a call meant for one is dispatched to the other (through a proxy, the proxy’s own function wins).',
    recommendation:
      'Rename one of the functions (check selectors of a proxy and its implementation together, e.g. with `forge selectors collision`).',
    exploit_scenario:
      'A proxy defines `proxyOwner()`; its implementation defines `clash550254402()` with the same selector 0x025313a2. Users calling the implementation’s function through the proxy run the proxy’s instead, a backdoor that code review of either contract alone does not show.',
    messages: { clash: '`{{sig}}` in `{{contract}}` has the selector 0x{{selector}} of `{{other}}` in `{{otherContract}}`.' },
  },
  create: afterTraversal((facts, context) => {
    const bySelector = new Map<string, Array<{ sig: string; node: Node; contract: string }>>();
    const add = (sig: string, node: Node, contract: string) => {
      const sel = selectorOf(sig);
      bySelector.set(sel, [...(bySelector.get(sel) ?? []), { sig, node, contract }]);
    };
    for (const c of facts.contracts) {
      if (c.kind === 'library') continue;
      for (const fn of c.ownFunctions) {
        if (fn.kind !== 'function' || !fn.isPublic) continue;
        const sig = signatureOf(fn);
        if (sig) add(sig, fn.node, c.name);
      }
      // A public state variable of a value type answers `name()`.
      for (const v of c.stateVars.values())
        if (v.contract === c.name && v.visibility === 'public' && v.typeNode?.type === 'ElementaryTypeName')
          add(`${v.name}()`, v.node, c.name);
    }
    for (const [selector, list] of bySelector) {
      const first = list[0];
      // Each later declaration with another signature is reported against the first one.
      for (const { sig, node, contract } of list.slice(1)) {
        if (sig === first.sig) continue;
        context.report({
          node,
          loc: { line: line(node), end_line: line(node) },
          messageId: 'clash',
          data: { sig, contract, selector, other: first.sig, otherContract: first.contract },
        });
      }
    }
  }),
};

export const detectors = [functionSelectorCollisionDetector];
export default detectorPlugin(detectors);
