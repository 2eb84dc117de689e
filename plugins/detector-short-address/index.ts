// short-address: before Solidity 0.5 the ABI decoder accepted calldata shorter than the
// parameters; a client that does not validate addresses sends `transfer(addr, amount)` with a
// truncated address and the missing bytes shift the amount left, multiplying it by 256^n.
// Flags public token-transfer-shaped functions (an address and an amount; credits the address
// and debits the caller) without a msg.data.length check, in code that admits < 0.5 compilers.
// Avoids false positives: >= 0.5 code, functions with a payload-size check (inline or in a
// modifier), functions that do not move balances between the caller and the address.
import {
  isCallerValue,
  detectorPlugin,
  headerLoc,
  some,
  walk,
  type Node,
  type StaticDetector,
  elementaryName,
} from '../../lib/analysis/static/index.ts';
import type { Visitor } from '../../kernel/index.ts';
import semver from 'semver';

export const shortAddressDetector: StaticDetector = {
  meta: {
    id: 'short-address',
    title: 'Short address attack',
    severity: 'LOW',
    confidence: 0.35,
    category: 'short_addresses',
    swc: null,
    cwe: 'CWE-20',
    description: 'Token transfer functions compiled before 0.5 accept short calldata; a truncated address shifts the amount argument.',
    recommendation:
      'Compile with Solidity >= 0.5 or check msg.data.length (onlyPayloadSize) in transfer functions; validate addresses in clients.',
    exploit_scenario:
      'An exchange lets a user withdraw to an address missing its last byte; the amount is shifted by 8 bits and the user receives 256 times the tokens.',
    messages: { transfer: '`{{fn}}(address,uint)` moves balances without a payload-size check.' },
  },
  create(context) {
    const { facts } = context;
    const min = facts.version.min;
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- needed: without it create()'s inferred return type no longer fits Visitor (tsc)
    if (min && semver.gte(min, '0.5.0')) return {} as Visitor;
    const checksPayload = (n: Node) =>
      some(
        n,
        (x) =>
          x.type === 'MemberAccess' &&
          x.memberName === 'length' &&
          x.expression?.type === 'MemberAccess' &&
          x.expression.memberName === 'data',
      );
    return {
      'SourceUnit:exit'() {
        for (const c of facts.contracts)
          for (const fn of c.ownFunctions) {
            if (!fn.isPublic || fn.kind !== 'function' || !fn.node.body) continue;
            const ps = fn.node.parameters ?? [];
            if (ps.length !== 2 || elementaryName(ps[0].typeName) !== 'address' || !/^uint/.test(elementaryName(ps[1].typeName) ?? ''))
              continue;
            const [to, amount] = [ps[0].name, ps[1].name];
            let credits = false;
            let debits = false;
            walk(fn.node.body, (x) => {
              if (x.type !== 'BinaryOperation' || x.left?.type !== 'IndexAccess') return;
              const idx = x.left.index;
              const usesAmount = some(x.right, (y) => y.type === 'Identifier' && y.name === amount);
              if (!usesAmount && !(x.operator === '=' && some(x.right, (y) => y.type === 'Identifier' && y.name === amount))) return;
              if (idx?.type === 'Identifier' && idx.name === to && (x.operator === '+=' || x.operator === '=')) credits = true;
              if (isCallerValue(idx, fn) && (x.operator === '-=' || x.operator === '=')) debits = true;
            });
            if (!credits || !debits) continue;
            if (checksPayload(fn.node.body) || fn.modifiers.some((m) => m.def && checksPayload(m.def.node))) continue;
            context.report({
              node: fn.node,
              loc: headerLoc(fn.node),
              messageId: 'transfer',
              contract: c.name,
              function: fn.name,
              data: { fn: fn.name },
            });
          }
      },
    };
  },
};

export const detectors = [shortAddressDetector];
export default detectorPlugin(detectors);
