// vigil-specialized (layer 7: DeFi, upgradeability, gas): AST rules over the shared static facts.
//   spot-price-oracle        getReserves() (or pair balances) used in price math
//   flash-loan-share-price   share math with balanceOf(address(this)) / address(this).balance and a supply counter
//   unprotected-initializer  public initialize() with no initializer modifier, caller check or run-once flag
//   proxy-storage-collision  a delegatecalling contract and another contract of the file using one slot differently
//   missing-event            access-controlled setters that change state from arguments without emitting
//   unbounded-loop           external loops over a storage array callers can grow
// False positives avoided: TWAP / Chainlink reads count as the fix; share math must pair the live
// balance with a counter the contract maintains; initializers with a flag checked and set, or a
// caller check, pass; collisions need the implementation to write the colliding variable and
// stop at the first struct/fixed array (sizes the compiler knows better); setters that emit
// through helpers pass; loops with a second constant bound pass, admin-grown arrays are LOW.
// The rules are detectors (layer 7): the static analyzer runs them in its one traversal, in the
// kernel pool under the deadline, and this plugin's tool reports their findings; fast enough for quick mode.
import { definePlugin } from '../../kernel/index.ts';
import { ruleToolSetup } from '../../lib/analysis/static/rule-tool.ts';
import { SPECIALIZED_RULES } from './rules.ts';
import { createSpecializedTool } from './tool.ts';

/** The rules as detector modules: the static worker imports this module for them. */
export const detectors = SPECIALIZED_RULES;

export default definePlugin({ setup: ruleToolSetup(detectors, createSpecializedTool) });
