// uninitialized-state: a state variable of address or contract type that no initializer,
// constructor or function ever assigns is always address(0); sending ether or tokens to it burns
// them, calling it does nothing (or reverts), and an owner check against it locks the function
// (or, with tx.origin / an unset recipient, lets funds vanish).
// Avoids false positives: variables written anywhere (including through storage pointers, in
// assembly, or by inherited code of the file), constants and immutables, contracts with a base
// not in this file (it may set the variable), public variables (a getter is their whole use),
// mappings and arrays (their zero default is the empty table).
import {
  detectorPlugin,
  perContract,
  some,
  statementLoc,
  unwrap,
  type StaticDetector,
  identName,
} from '../../lib/analysis/static/index.ts';

export const uninitializedStateDetector: StaticDetector = {
  meta: {
    id: 'uninitialized-state',
    title: 'Uninitialized state variable used',
    severity: 'HIGH',
    confidence: 0.7,
    category: 'other',
    swc: 'SWC-109',
    cwe: 'CWE-457',
    description: 'An address (or contract) state variable is read but never assigned anywhere, so it is always the zero address.',
    recommendation: 'Assign the variable in the constructor (or at declaration), or make it immutable/constant with its intended value.',
    exploit_scenario: 'Fees are forwarded to `treasury`, which no code ever sets: every fee is sent to address(0) and burned.',
    messages: { use: '`{{name}}` is never assigned (always address(0)) but is used here as {{role}}.' },
  },
  create: perContract((c, context) => {
    const { facts } = context;
    if (c.kind !== 'contract' || c.unresolvedBase) return;
    const written = new Set(c.functions.flatMap((f) => [...f.transitiveWrites]));
    // Assembly may write any slot; the file's functions that use it opt out.
    const assembly = c.functions.some((f) => !!f.node.body && some(f.node.body, (n) => n.type === 'InlineAssemblyStatement'));
    if (assembly) return;
    for (const v of c.stateVars.values()) {
      if (v.constant || v.immutable || v.visibility === 'public' || v.node.expression || written.has(v.name)) continue;
      if (!(
        v.type === 'address' ||
        v.type === 'address payable' ||
        facts.contractByName.get(v.type)?.kind === 'interface' ||
        facts.contractByName.get(v.type)?.kind === 'contract'
      ))
        continue;
      // Report the first use that matters: a call target / payee, or a comparison.
      for (const f of c.functions) {
        const use = f.externalCalls.find((e) => identName(unwrap(e.target)) === v.name && !f.locals.has(v.name));
        if (use) {
          context.report({
            node: use.node,
            loc: statementLoc(use.node, facts),
            messageId: 'use',
            contract: c.name,
            function: f.name,
            data: { name: v.name, role: use.value || use.kind === 'transfer' || use.kind === 'send' ? 'the payee' : 'a call target' },
          });
          break;
        }
      }
    }
  }),
};

export const detectors = [uninitializedStateDetector];
export default detectorPlugin(detectors);
