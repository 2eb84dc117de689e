// What other tools' suppression comments mean in vigil's terms. A Slither detector or solhint rule
// name maps to the vigil detectors (and SWC ids) that report the same issue, so a
// `// slither-disable-next-line reentrancy-eth` a project already carries also silences vigil's
// reentrancy finding on that line, from whichever tool (static rule, fuzzer, symbolic engine).
// Names with no vigil counterpart still silence the adapter's own finding (`slither-<name>`,
// `solhint-<rule>`), and nothing else: a foreign comment never hides an unrelated vigil finding.
//
// Slither names: the ARGUMENT of each detector in crytic/slither (slither/detectors/**).
// solhint names: the rule ids under node_modules/solhint/lib/rules/security.

export const SLITHER_TO_VIGIL: Readonly<Record<string, readonly string[]>> = {
  'reentrancy-eth': ['reentrancy', 'SWC-107'],
  'reentrancy-no-eth': ['reentrancy', 'SWC-107'],
  'reentrancy-benign': ['reentrancy', 'SWC-107'],
  'reentrancy-events': ['reentrancy', 'SWC-107'],
  'reentrancy-unlimited-gas': ['reentrancy', 'SWC-107'],
  'reentrancy-balance': ['reentrancy', 'SWC-107'],
  suicidal: ['unprotected-selfdestruct', 'SWC-106'],
  'arbitrary-send-eth': ['unprotected-ether-withdrawal', 'SWC-105'],
  'arbitrary-send': ['unprotected-ether-withdrawal', 'SWC-105'], // the name before Slither 0.8.3
  'controlled-delegatecall': ['unprotected-delegatecall', 'SWC-112'],
  'delegatecall-loop': ['unprotected-delegatecall', 'SWC-112'],
  'tx-origin': ['tx-origin', 'solhint-avoid-tx-origin', 'SWC-115'],
  'unchecked-lowlevel': ['unchecked-call', 'solhint-no-unchecked-calls', 'SWC-104'],
  'unchecked-send': ['unchecked-call', 'solhint-check-send-result', 'SWC-104'],
  'low-level-calls': ['solhint-avoid-low-level-calls', 'solhint-avoid-call-value'],
  'weak-prng': ['bad-randomness', 'solhint-not-rely-on-block-hash', 'SWC-120'],
  timestamp: ['timestamp-dependence', 'solhint-not-rely-on-time', 'SWC-116'],
  pragma: ['floating-pragma', 'SWC-103'],
  'solc-version': ['floating-pragma', 'SWC-103'],
  'uninitialized-storage': ['uninitialized-storage', 'SWC-109'],
  'controlled-array-length': ['arbitrary-storage-write', 'SWC-124'],
  'deprecated-standards': ['deprecated-constructs', 'solhint-avoid-throw', 'solhint-avoid-sha3', 'solhint-avoid-suicide', 'SWC-111'],
  'calls-loop': ['dos-external-call', 'solhint-multiple-sends', 'SWC-113'],
  'costly-loop': ['dos-unbounded-array', 'unbounded-loop', 'SWC-128'],
  'unprotected-upgrade': ['unprotected-initializer'],
  'events-access': ['missing-event'],
  'events-maths': ['missing-event'],
  assembly: ['solhint-no-inline-assembly'],
};

export const SOLHINT_TO_VIGIL: Readonly<Record<string, readonly string[]>> = {
  'avoid-tx-origin': ['tx-origin', 'SWC-115'],
  reentrancy: ['reentrancy', 'SWC-107'],
  'check-send-result': ['unchecked-call', 'SWC-104'],
  'no-unchecked-calls': ['unchecked-call', 'SWC-104'],
  'not-rely-on-time': ['timestamp-dependence', 'SWC-116'],
  'not-rely-on-block-hash': ['bad-randomness', 'SWC-120'],
  'multiple-sends': ['dos-external-call', 'SWC-113'],
  'compiler-version': ['floating-pragma', 'SWC-103'],
  'avoid-throw': ['deprecated-constructs'],
  'avoid-sha3': ['deprecated-constructs'],
  'avoid-suicide': ['deprecated-constructs'],
  // Lint rules whose hit is a construct, not a flaw: only solhint's own finding.
  'avoid-call-value': [],
  'avoid-low-level-calls': [],
  'func-visibility': [],
  'state-visibility': [],
  'no-inline-assembly': [],
  'no-complex-fallback': [],
  'no-immutable-before-declaration': [],
};

export type ForeignTool = 'slither' | 'solhint';

const TABLES: Record<ForeignTool, Readonly<Record<string, readonly string[]>>> = { slither: SLITHER_TO_VIGIL, solhint: SOLHINT_TO_VIGIL };

/** The vigil match tokens a foreign rule name stands for: its adapter finding plus the mapped detectors. */
export function foreignTokens(tool: ForeignTool, name: string): string[] {
  const n = name.trim().toLowerCase();
  return [`${tool}-${n}`, ...(TABLES[tool][n] ?? [])];
}

/** Every token the foreign tool's "all rules" stands for (its own findings by prefix, plus every mapping). */
export function foreignAllTokens(tool: ForeignTool): string[] {
  return [`${tool}-*`, ...new Set(Object.values(TABLES[tool]).flat())];
}
