// What the token-interface rules (erc20-interface, erc721-interface) share: a contract's public
// functions matched by name and canonical parameter types, and the functions it declares whose
// return types differ from a standard's.
import type { DetectorContext } from '../../../kernel/contracts/detector.ts';
import { typeText } from './ast.ts';
import type { ContractFacts, FunctionFacts, StaticFacts } from './facts.ts';
import { headerLoc } from './rule-helpers.ts';

/** Source type with the ABI's spelling (`typeText` already says `uint256` for `uint`). */
const abiName = (t: string) => t.replace(/ payable$/, '');

export const paramTypes = (f: FunctionFacts): string[] =>
  (f.node.type === 'FunctionDefinition' ? f.node.parameters : []).map((p) => abiName(typeText(p.typeName)));
export const returnTypes = (f: FunctionFacts): string[] =>
  (f.node.type === 'FunctionDefinition' ? (f.node.returnParameters ?? []) : []).map((p) => abiName(typeText(p.typeName)));

/** The contract's implemented public functions (inherited ones included) named `name` whose
 *  parameters are one of `lists`. */
export function implemented(c: ContractFacts, name: string, lists: string[][]): FunctionFacts[] {
  return c.functions.filter(
    (f) =>
      f.kind === 'function' && !!f.node.body && f.isPublic && f.name === name && lists.some((p) => paramTypes(f).join(',') === p.join(',')),
  );
}

/** Functions the contract itself declares (reported once, where declared, not in every heir)
 *  whose return differs from the standard's single return type, each described for a message. */
export function wrongReturns(
  c: ContractFacts,
  standard: Record<string, { params: string[]; returns: string }>,
): { wrong: string[]; first: FunctionFacts | null } {
  const wrong: string[] = [];
  let first: FunctionFacts | null = null;
  for (const [name, spec] of Object.entries(standard))
    for (const f of implemented(c, name, [spec.params])) {
      const r = returnTypes(f);
      if ((r.length === 1 && r[0] === spec.returns) || !c.ownFunctions.includes(f)) continue;
      first ??= f;
      wrong.push(`\`${name}\` returns ${r.length ? `(${r.join(', ')})` : 'nothing'} instead of \`${spec.returns}\``);
    }
  return { wrong, first };
}

/** One finding (messageId `wrong`) on the first wrong function, listing every wrong one. */
export function reportWrongReturns(
  c: ContractFacts,
  context: DetectorContext<StaticFacts>,
  standard: Record<string, { params: string[]; returns: string }>,
): void {
  const { wrong, first } = wrongReturns(c, standard);
  if (!first) return;
  context.report({ node: first.node, loc: headerLoc(first.node), messageId: 'wrong', data: { contract: c.name, list: wrong.join(', ') } });
}
