// Missing access control -> onlyOwner on the unprotected critical function. An existing
// onlyOwner modifier (in the contract or a base in the same file) is reused; when the contract
// has an owner variable but no modifier, a minimal one is added. Without an owner variable
// there is no one to restrict the function to, and inventing an owner is a design decision the
// engine leaves to a human.
import { asNodes, sameUnitLineage, stateVariableTypes } from '../../../lib/analysis/static/ast.ts';
import type { Edit } from '../source.ts';
import { modifierNames } from '../solidity.ts';
import { addMemberEdit, addModifierEdit } from './modifiers.ts';
import { requireCall, type FixContext, type FixResult } from './types.ts';

const STRATEGY = 'add_only_owner';
const OWNER_NAMES = /^_?(owner|admin|administrator|creator)$/i;

export function fixAccessControl(ctx: FixContext): FixResult {
  const { fn, contract } = ctx;
  if (!fn || !contract || fn.type !== 'FunctionDefinition') return { strategy: STRATEGY, reason: 'the finding is not inside a function' };
  if (fn.isConstructor) return { strategy: STRATEGY, reason: 'the function is a constructor, which only runs at deployment' };
  if (fn.visibility === 'private' || fn.visibility === 'internal')
    return { strategy: STRATEGY, reason: `${fn.name} is ${fn.visibility}; it cannot be called from outside` };
  const lin = sameUnitLineage(ctx.ast, contract);
  const ownerModifier = ['onlyOwner', 'onlyowner', 'onlyAdmin', 'ownerOnly'].find((m) =>
    lin.some((c) => asNodes(c.subNodes).some((s) => s.type === 'ModifierDefinition' && s.name === m)),
  );
  if (ownerModifier && modifierNames(fn).includes(ownerModifier))
    return { strategy: STRATEGY, reason: `${fn.name} already has ${ownerModifier}`, missing: true };
  const edits: Edit[] = [];
  let name = ownerModifier;
  let created = false;
  if (!name) {
    const state = stateVariableTypes(ctx.ast, contract);
    const owner = [...state.entries()].find(
      ([n, t]) => OWNER_NAMES.test(n) && t?.type === 'ElementaryTypeName' && String(t.name).startsWith('address'),
    );
    if (!owner)
      return {
        strategy: STRATEGY,
        reason:
          'the contract has no owner/admin address variable, so there is no one to restrict the function to; decide who may call it and add that check',
      };
    // A private owner in a base contract is not visible here.
    const declaredPrivate = lin.some((c) =>
      asNodes(c.subNodes).some(
        (s) =>
          s.type === 'StateVariableDeclaration' &&
          s.variables?.some((v) => v.name === owner[0] && v.visibility === 'private') &&
          c !== contract,
      ),
    );
    if (declaredPrivate) return { strategy: STRATEGY, reason: `${owner[0]} is private to a base contract; add the modifier there` };
    if (ctx.used.has('onlyOwner')) return { strategy: STRATEGY, reason: 'the name onlyOwner is already used for something else' };
    name = 'onlyOwner';
    ctx.used.add(name);
    const member = addMemberEdit(
      ctx.source,
      contract,
      ctx.unit,
      (i, u) =>
        `${i}modifier onlyOwner() {\n${i}${u}${requireCall(ctx.versions, `msg.sender == ${owner[0]}`, 'caller is not the owner')};\n${i}${u}_;\n${i}}`,
    );
    if (!member) return { strategy: STRATEGY, reason: 'could not find the contract body' };
    edits.push(member);
    created = true;
  }
  const ins = addModifierEdit(ctx.source, fn, name);
  if (!ins) return { strategy: STRATEGY, reason: 'could not find where the function header ends' };
  edits.push(ins);
  return {
    strategy: STRATEGY,
    description: `Restricted ${fn.name} to the owner with ${name}${created ? ' (modifier added, checking msg.sender against the existing owner variable)' : ''}.`,
    edits,
  };
}
