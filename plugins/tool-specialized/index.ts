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
// AST-level and fast, so it also runs in quick mode; it runs in the kernel pool under the deadline.
import { definePlugin } from '../../kernel/index.ts';
import { createSpecializedTool } from './tool.ts';

export default definePlugin({
  setup(ctx) {
    ctx.registerTool(createSpecializedTool({ pool: ctx.services.pool }));
  },
});
