// erc20-interface: a token that implements ERC20's functions with other return types than the
// standard's (`transfer`/`transferFrom`/`approve` returning nothing instead of `bool`,
// `balanceOf`/`totalSupply`/`allowance` not returning `uint256`). Callers compiled against
// IERC20 since 0.4.22 check the size of the returned data and revert, so the token cannot be used
// by DEXes, vaults or any contract using the standard interface (the USDT problem).
// A contract counts as an ERC20 token when it implements `transfer(address,uint256)` and at least
// one of balanceOf/totalSupply/transferFrom/approve/allowance (a public state variable's getter
// counts). Avoids false positives: interfaces and abstract declarations (declaring a
// non-standard token's real ABI, USDT-style, is how to call it correctly), ERC721-style
// contracts (`ownerOf`, or a `tokenId` parameter), and a function with the right name but another
// parameter list. One finding per declaring contract, listing every wrong function.
import { detectorPlugin, implemented, perContract, reportWrongReturns, type StaticDetector } from '../../lib/analysis/static/index.ts';

/** Expected parameter types and return type of each ERC20 function. */
const ERC20: Record<string, { params: string[]; returns: string }> = {
  transfer: { params: ['address', 'uint256'], returns: 'bool' },
  transferFrom: { params: ['address', 'address', 'uint256'], returns: 'bool' },
  approve: { params: ['address', 'uint256'], returns: 'bool' },
  balanceOf: { params: ['address'], returns: 'uint256' },
  totalSupply: { params: [], returns: 'uint256' },
  allowance: { params: ['address', 'address'], returns: 'uint256' },
};

export const erc20InterfaceDetector: StaticDetector = {
  meta: {
    id: 'erc20-interface',
    title: 'ERC20 function with a non-standard return type',
    severity: 'MEDIUM',
    confidence: 0.8,
    category: 'other',
    swc: null,
    cwe: 'CWE-573',
    description:
      'The token implements ERC20 functions but returns nothing (or another type) where the standard returns bool/uint256; callers using IERC20 revert on the missing return data.',
    recommendation: 'Return the standard types (`returns (bool)` and `return true;` for transfer, transferFrom and approve).',
    exploit_scenario:
      'A DEX pool calls `IERC20(token).transfer(to, amount)`; the token returns no data, the ABI decoder reverts, and the token cannot be withdrawn from the pool.',
    messages: { wrong: '`{{contract}}` implements ERC20 but {{list}}.' },
  },
  create: perContract((c, context) => {
    if (c.kind !== 'contract') return;
    const by = (name: string) => implemented(c, name, [ERC20[name].params]);
    const transfer = by('transfer');
    if (!transfer.length) return;
    // ERC721-style tokens share transfer(address,uint256): the uint is a token id there.
    if (c.functions.some((f) => f.kind === 'function' && f.node.body && f.isPublic && f.name === 'ownerOf')) return;
    const p = transfer[0].node.type === 'FunctionDefinition' ? transfer[0].node.parameters[1]?.name : null;
    if (p && /id$/i.test(p)) return;
    const others = ['balanceOf', 'totalSupply', 'transferFrom', 'approve', 'allowance'];
    if (!others.some((n) => by(n).length || c.stateVars.get(n)?.visibility === 'public')) return;
    reportWrongReturns(c, context, ERC20);
  }),
};

export const detectors = [erc20InterfaceDetector];
export default detectorPlugin(detectors);
