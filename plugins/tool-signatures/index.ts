// vigil-signatures (layer 8, cross-chain and signatures): AST rules over the shared static facts.
//   signature-replay             ecrecover/ECDSA auth whose digest lacks a nonce (or a used-mark),
//                                a nonce that is read but never incremented, or chain id / address(this)
//   ecrecover-malleability       raw ecrecover without the EIP-2 `s` bound (MEDIUM when "used" is keyed by the signature)
//   ecrecover-zero-address       recovered signer compared with a caller-supplied address but never with address(0)
//   permit-deadline              a signed deadline never compared with block.timestamp
//   bridge-message-verification  cross-chain receive handlers that do not check msg.sender (the endpoint),
//                                the source chain/sender, or record processed message ids
// False positives avoided: OpenZeppelin ECDSA.recover (rejects malleable s and address(0)) and
// EIP712 helpers (_hashTypedDataV4 binds chain and contract) count as protection; digests are
// followed through locals, internal helpers and domain-separator state set in the constructor;
// a used-hash table that is checked and written counts as a nonce; handlers are recognised by
// the messaging interfaces' entry points and must take a payload.
// The rules are detectors (layer 8): the static analyzer runs them in its one traversal, in the
// kernel pool under the deadline, and this plugin's tool reports their findings; fast enough for quick mode.
import { definePlugin } from '../../kernel/index.ts';
import { ruleToolSetup } from '../../lib/analysis/static/rule-tool.ts';
import { SIGNATURE_RULES } from './rules.ts';
import { createSignaturesTool } from './tool.ts';

/** The rules as detector modules: the static worker imports this module for them. */
export const detectors = SIGNATURE_RULES;

export default definePlugin({ setup: ruleToolSetup(detectors, createSignaturesTool) });
