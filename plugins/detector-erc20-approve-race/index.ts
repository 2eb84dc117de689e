// erc20-approve-race: ERC20 approve(spender, value) that overwrites an allowance directly lets
// the spender front-run a change from N to M and spend N + M (SWC-114, the approve race).
// Recognised by the standard's signature approve(address,uint) and a write of the value into a
// caller-indexed table. Avoids false positives: approve() that requires the current allowance
// or the new value to be zero, functions with other signatures, and an approve whose uint only
// selects a slot in the helper it calls (ERC721's approve(to, tokenId)).
import {
  detectorPlugin,
  conditions,
  headerLoc,
  isCallerValue,
  norm,
  type StaticDetector,
  elementaryName,
  argumentFlow,
} from '../../lib/analysis/static/index.ts';

export const erc20ApproveRaceDetector: StaticDetector = {
  meta: {
    id: 'erc20-approve-race',
    title: 'ERC20 approve race condition',
    severity: 'LOW',
    confidence: 0.6,
    category: 'front_running',
    swc: 'SWC-114',
    cwe: 'CWE-362',
    description:
      'Changing an allowance with approve() can be front-run: the spender uses the old allowance before the new one lands, then the new one too.',
    recommendation: 'Require the allowance to be set to 0 first, or offer increaseAllowance/decreaseAllowance.',
    exploit_scenario:
      'Alice lowers Bob’s allowance from 100 to 50; Bob sees the pending transaction, spends 100 first, then 50 more after it is mined.',
    messages: { race: 'approve() overwrites the allowance without a zero check.' },
  },
  create(context) {
    const { facts, source } = context;
    return {
      FunctionDefinition(n) {
        if (n.name !== 'approve' || (n.parameters ?? []).length !== 2 || !n.body) return;
        const [spender, value] = n.parameters;
        if (elementaryName(spender.typeName) !== 'address' || !/^uint/.test(elementaryName(value.typeName) ?? '')) return;
        const fn = facts.enclosing(n).fn;
        if (!fn || !fn.isPublic) return;
        const writesValue = fn.writes.some(
          (w) =>
            w.node.type === 'BinaryOperation' &&
            w.node.operator === '=' &&
            norm(source, w.node.right) === value.name &&
            /\[/.test(norm(source, w.node.left)),
        );
        // Through a helper (`_approve(msg.sender, spender, value)`): the value must land in a
        // table as the stored amount. ERC721's approve(to, tokenId) passes a uint that only
        // selects the slot (`_tokenApprovals[tokenId] = to`): nothing accumulates, no race.
        // A helper the file does not define is taken as storing it.
        const flow = value.name ? argumentFlow(fn, value.name) : null;
        const stored =
          !!flow &&
          (flow.unresolved ||
            flow.sites.some(({ fn: g, name }) =>
              g.writes.some(
                (w) =>
                  w.node.type === 'BinaryOperation' &&
                  w.node.operator === '=' &&
                  norm(source, w.node.right) === name &&
                  /\[/.test(norm(source, w.node.left)),
              ),
            ));
        const viaHelper =
          !fn.writes.length &&
          stored &&
          fn.internalCalls.some(
            (ic) =>
              (ic.node.arguments ?? []).some((a) => a.type === 'Identifier' && a.name === value.name) &&
              (ic.node.arguments ?? []).some((a) => isCallerValue(a, fn)),
          );
        if (!writesValue && !viaHelper) return;
        const zeroCheck = conditions(n.body).some((c) => /==0|0==/.test(norm(source, c)));
        if (zeroCheck) return;
        context.report({ node: n, loc: headerLoc(n), messageId: 'race' });
      },
    };
  },
};

export const detectors = [erc20ApproveRaceDetector];
export default detectorPlugin(detectors);
