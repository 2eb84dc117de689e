// erc721-interface: an NFT contract that implements ERC721's queries with other return types than
// the standard's: `ownerOf`/`getApproved` not returning `address`, `balanceOf` not `uint256`,
// `isApprovedForAll`/`supportsInterface` not `bool`, or returning nothing. Marketplaces, wallets
// and vaults call them through IERC721: a missing return makes the caller's decoder revert, a
// value of another type is decoded as something else (a `bool` read as an owner), so the token
// cannot be listed, escrowed or checked for approval.
// A contract counts as an ERC721 token when it implements `ownerOf(uint256)` and at least one of
// balanceOf/transferFrom/safeTransferFrom/approve/getApproved/setApprovalForAll/isApprovedForAll
// (a public state variable's getter counts). Avoids false positives: interfaces and abstract
// declarations (describing an existing token's real ABI), functions with the right name and another
// parameter list, and the transfer/approve functions that the standard declares without a return
// value: an extra return value is ignored by callers, harmless. One finding per declaring
// contract, listing every wrong function.
import { detectorPlugin, implemented, perContract, reportWrongReturns, type StaticDetector } from '../../lib/analysis/static/index.ts';

/** Parameter types and return type of each ERC721 function whose return callers decode. */
const QUERIES: Record<string, { params: string[]; returns: string }> = {
  ownerOf: { params: ['uint256'], returns: 'address' },
  balanceOf: { params: ['address'], returns: 'uint256' },
  getApproved: { params: ['uint256'], returns: 'address' },
  isApprovedForAll: { params: ['address', 'address'], returns: 'bool' },
  supportsInterface: { params: ['bytes4'], returns: 'bool' },
};
/** Functions (besides the queries) that mark the ERC721 surface. */
const ACTIONS: Record<string, string[][]> = {
  transferFrom: [['address', 'address', 'uint256']],
  safeTransferFrom: [
    ['address', 'address', 'uint256'],
    ['address', 'address', 'uint256', 'bytes'],
  ],
  approve: [['address', 'uint256']],
  setApprovalForAll: [['address', 'bool']],
};

export const erc721InterfaceDetector: StaticDetector = {
  meta: {
    id: 'erc721-interface',
    title: 'ERC721 function with a non-standard return type',
    severity: 'MEDIUM',
    confidence: 0.8,
    category: 'other',
    swc: null,
    cwe: 'CWE-573',
    description:
      'The token implements ERC721 but a query callers decode (ownerOf, balanceOf, getApproved, isApprovedForAll, supportsInterface) returns nothing or another type than the standard; callers using IERC721 revert or misread the answer.',
    recommendation:
      'Return the standard types: `ownerOf`/`getApproved` → `address`, `balanceOf` → `uint256`, `isApprovedForAll`/`supportsInterface` → `bool`.',
    exploit_scenario:
      'A marketplace calls `IERC721(nft).ownerOf(id)` before a sale; the token returns no data, the call reverts, and the NFT can never be listed or escrowed.',
    messages: { wrong: '`{{contract}}` implements ERC721 but {{list}}.' },
  },
  create: perContract((c, context) => {
    if (c.kind !== 'contract') return;
    const by = (name: string) => implemented(c, name, [QUERIES[name].params]);
    if (!by('ownerOf').length) return;
    const surface =
      Object.entries(ACTIONS).some(([n, ps]) => implemented(c, n, ps).length) ||
      ['balanceOf', 'getApproved', 'isApprovedForAll'].some((n) => by(n).length || c.stateVars.get(n)?.visibility === 'public');
    if (!surface) return;
    reportWrongReturns(c, context, QUERIES);
  }),
};

export const detectors = [erc721InterfaceDetector];
export default detectorPlugin(detectors);
