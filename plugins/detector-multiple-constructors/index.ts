// multiple-constructors: from 0.4.22 to the end of 0.4.x the compiler accepts both a `constructor()`
// and the legacy constructor (a function named exactly like the contract) in one contract. Only the
// new-style one runs at deployment; the other becomes an ordinary public function that anyone can
// call later to re-run the initialisation (owner, supply).
// Avoids false positives: a function named like another contract (a base's legacy constructor
// inherited into a derived contract is not this contract's), and contracts with one constructor.
import { detectorPlugin, headerLoc, perContract, type StaticDetector } from '../../lib/analysis/static/index.ts';

export const multipleConstructorsDetector: StaticDetector = {
  meta: {
    id: 'multiple-constructors',
    title: 'Two constructors in one contract',
    severity: 'HIGH',
    confidence: 0.9,
    category: 'access_control',
    swc: 'SWC-118',
    cwe: 'CWE-665',
    description:
      'The contract declares `constructor()` and also a function with its own name. Only `constructor()` runs at deployment; the legacy one is a public function.',
    recommendation: 'Keep one constructor: move its code into `constructor()` and delete the function named like the contract.',
    exploit_scenario:
      'The initialisation that sets the owner lives in `function Wallet()`; after deployment anyone calls `Wallet()` and becomes the owner.',
    messages: { both: '`{{contract}}` has `constructor()` and `function {{contract}}()`: the second is an ordinary public function.' },
  },
  create: perContract((c, context) => {
    const ctor = c.ownFunctions.find((f) => f.kind === 'constructor' && f.node.type === 'FunctionDefinition' && f.node.name !== c.name);
    const legacy = c.ownFunctions.find((f) => f.node.type === 'FunctionDefinition' && f.node.name === c.name);
    if (!ctor || !legacy || legacy === ctor) return;
    context.report({ node: legacy.node, loc: headerLoc(legacy.node), messageId: 'both', data: { contract: c.name } });
  }),
};

export const detectors = [multipleConstructorsDetector];
export default detectorPlugin(detectors);
