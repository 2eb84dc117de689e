// locked-ether: a contract with payable functions (or a payable receive/fallback) and no code path
// that sends ether (transfer, send, a call with value, selfdestruct) keeps everything it receives
// forever: user funds, fees and mistaken payments are lost.
// Avoids false positives: abstract contracts, interfaces and libraries; contracts with a base not
// in this file (it may send); contracts that delegatecall or make arbitrary calls with a value
// (the callee may move ether); constructors that are payable only (deploy-time funding).
import { detectorPlugin, perContract, some, type Node, type StaticDetector, line } from '../../lib/analysis/static/index.ts';

const sendsEther = (n: Node) =>
  (n?.type === 'FunctionCall' &&
    n.expression?.type === 'Identifier' &&
    (n.expression.name === 'selfdestruct' || n.expression.name === 'suicide')) ||
  (n?.type === 'AssemblyCall' && ['call', 'callcode', 'delegatecall', 'create', 'create2', 'selfdestruct'].includes(n.functionName));

export const lockedEtherDetector: StaticDetector = {
  meta: {
    id: 'locked-ether',
    title: 'Contract locks ether',
    severity: 'MEDIUM',
    confidence: 0.7,
    category: 'other',
    swc: null,
    cwe: 'CWE-404',
    description: 'The contract can receive ether but has no function that sends ether out.',
    recommendation: 'Add a (guarded) withdrawal function, or remove `payable` from functions that should not receive ether.',
    exploit_scenario:
      'Users pay the mint price into the contract; with no withdrawal path the proceeds stay locked forever, including for the owner.',
    messages: { locked: '`{{contract}}` receives ether in `{{fns}}` but never sends any out.' },
  },
  create: perContract((c, context) => {
    // (An abstract contract has kind 'abstract'.)
    if (c.kind !== 'contract' || c.unresolvedBase) return;
    const payable = c.functions.filter((f) => f.payable && f.kind !== 'constructor' && f.kind !== 'modifier');
    if (!payable.length) return;
    const out = c.functions.some(
      (f) =>
        f.transitiveExternal.some(
          (e) => e.kind === 'delegatecall' || e.kind === 'callcode' || e.kind === 'transfer' || e.kind === 'send' || !!e.value,
        ) ||
        (!!f.node.body && some(f.node.body, sendsEther)),
    );
    if (out) return;
    context.report({
      node: c.node,
      loc: { line: line(c.node) },
      messageId: 'locked',
      contract: c.name,
      function: null,
      data: { contract: c.name, fns: payable.map((f) => f.name).join('`, `') },
    });
  }),
};

export const detectors = [lockedEtherDetector];
export default detectorPlugin(detectors);
