// Reentrancy -> checks-effects-interactions. State writes that follow the external call in the
// same block are moved in front of it when that cannot change what the code computes: the moved
// statements make no calls, do not read anything the call or the statements they jump over
// declare or assign, and the call and those statements do not read the state they write (a call
// that sends balances[x] while a later line zeroes balances[x] would send 0 after a naive move).
// When that is not provable (write inside an if on the call's result, amount read from the state
// being cleared, writes in an outer block), the function gets a minimal nonReentrant guard.
import {
  asNodes,
  findAllWithParents,
  sameUnitLineage,
  some,
  stateVariableTypes,
  text,
  type AST,
  type Node,
} from '../../../lib/analysis/static/ast.ts';
import { freshName, indentAt, lineStart, span, type Edit, type Move } from '../source.ts';
import {
  declaredNames,
  hasModifierDefinition,
  isExternalCall,
  modifierNames,
  referencedNames,
  statementInBlock,
  typeResolver,
  type Ty,
  writtenNames,
} from '../solidity.ts';
import { addMemberEdit, addModifierEdit } from './modifiers.ts';
import { onFlaggedLines, requireCall, type FixContext, type FixResult } from './types.ts';

export function fixReentrancy(ctx: FixContext): FixResult {
  const { fn, contract } = ctx;
  if (!fn || !contract || fn.type !== 'FunctionDefinition' || !fn.body) {
    return { strategy: 'checks_effects_interactions', reason: 'the finding is not inside a function body' };
  }
  const types = typeResolver(ctx.ast, contract, fn);
  const calls = findAllWithParents(fn.body, (n, p) => isExternalCall(n, p, types));
  if (!calls.length) return { strategy: 'checks_effects_interactions', reason: 'no external call left in this function', missing: true };
  const state = stateVariableTypes(ctx.ast, contract);
  const isStateWrite = (s: Node) => [...writtenNames(s)].some((n) => state.has(n));
  // The flagged call: on the finding's lines, else the first call followed by a state write.
  const onLines = calls.filter(({ node }) => onFlaggedLines(ctx, node));
  const ordered = [...onLines, ...calls.filter((c) => !onLines.includes(c))];
  const reasons: string[] = [];
  for (const { node: call, parents } of ordered) {
    const where = statementInBlock(parents, call);
    if (!where) continue;
    const plan = tryReorder(ctx, where, call, state, isStateWrite);
    if ('edits' in plan) return plan;
    if (plan.reason) reasons.push(plan.reason);
  }
  const anyWriteAfter = reasons.length > 0;
  return guard(
    ctx,
    fn,
    contract,
    anyWriteAfter ? reasons[0] : 'no state write follows the call in the same block, so there is nothing to reorder',
  );
}

function tryReorder(
  ctx: FixContext,
  where: { stmt: Node; block: AST.Block; index: number },
  call: Node,
  state: Map<string, Ty | null>,
  isStateWrite: (s: Node) => boolean,
): { strategy: string; description: string; edits: Edit[]; moves: Move[] } | { reason: string | null } {
  const stmts = asNodes(where.block.statements);
  const callStmt = where.stmt;
  const after = stmts.slice(where.index + 1);
  const writes = after.filter(isStateWrite);
  if (!writes.length) return { reason: null };
  const lastWrite = after.indexOf(writes[writes.length - 1]);
  const between = after.slice(0, lastWrite + 1);
  // What the call statement and the statements that stay in place declare, assign and read.
  const stay = [callStmt, ...between.filter((s) => !writes.includes(s))];
  const stayDeclares = new Set<string>();
  const stayAssigns = new Set<string>();
  const stayReads = new Set<string>();
  for (const s of stay) {
    declaredNames(s).forEach((n) => stayDeclares.add(n));
    writtenNames(s).forEach((n) => stayAssigns.add(n));
    referencedNames(s).forEach((n) => stayReads.add(n));
  }
  for (const w of writes) {
    const label = text(ctx.source, w).replace(/\s+/g, ' ');
    if (w.type !== 'ExpressionStatement')
      return { reason: `"${label}" is not a simple assignment, so moving it before the call is not provably safe` };
    if (findAllWithParents(w, (n) => n.type === 'FunctionCall').length)
      return { reason: `"${label}" makes a call of its own, so moving it could change behaviour` };
    const reads = referencedNames(w);
    for (const n of reads) {
      if (stayDeclares.has(n) || (stayAssigns.has(n) && !state.has(n)))
        return { reason: `"${label}" uses ${n}, which is set by the call or after it` };
    }
    for (const n of writtenNames(w)) {
      if (!state.has(n)) return { reason: `"${label}" also writes the local ${n}` };
      if (stayReads.has(n))
        return {
          reason: `the external call (or a statement after it) reads ${n}, which "${label}" changes; moving the write would change the value used`,
        };
    }
  }
  const [cs] = span(callStmt);
  const ind = indentAt(ctx.source, cs);
  let inserted = '';
  const edits: Edit[] = [];
  const moves: Move[] = [];
  for (const w of writes) {
    const [ws, we] = span(w);
    moves.push({ from: ws, to: we, insertAt: cs, offset: inserted.length });
    inserted += `${text(ctx.source, w)}\n${ind}`;
    // Remove the statement with its own line when it stands alone on it.
    const ls = lineStart(ctx.source, ws);
    const onlyWs = /^[ \t]*$/.test(ctx.source.slice(ls, ws));
    const nl = ctx.source.indexOf('\n', we);
    const restBlank = nl >= 0 && /^[ \t]*$/.test(ctx.source.slice(we, nl));
    edits.push(onlyWs && restBlank ? { start: ls, end: nl + 1, text: '' } : { start: ws, end: we, text: '' });
  }
  edits.unshift({ start: cs, end: cs, text: inserted });
  const names = [...new Set(writes.flatMap((w) => [...writtenNames(w)]))].join(', ');
  return {
    strategy: 'checks_effects_interactions',
    description: `Moved ${writes.length} state update${writes.length > 1 ? 's' : ''} (${names}) before the external call (checks-effects-interactions), so a re-entrant call sees the updated state.`,
    edits,
    moves,
  };
}

function guard(ctx: FixContext, fn: AST.FunctionDefinition, contract: AST.ContractDefinition, why: string): FixResult {
  const strategy = 'nonreentrant_guard';
  if (contract.kind === 'library' || contract.kind === 'interface')
    return { strategy, reason: `a ${contract.kind} cannot hold a reentrancy lock` };
  if (fn.isConstructor) return { strategy, reason: 'constructors cannot be re-entered' };
  const mods = modifierNames(fn);
  const lin = sameUnitLineage(ctx.ast, contract);
  const existing = ['nonReentrant', 'noReentrancy'].find((m) =>
    lin.some((c) => asNodes(c.subNodes).some((s) => s.type === 'ModifierDefinition' && s.name === m)),
  );
  if (existing && mods.includes(existing)) return { strategy, reason: `the function already has the ${existing} guard` };
  const edits: Edit[] = [];
  let name = existing ?? null;
  if (!name) {
    // A base imported from elsewhere (OpenZeppelin's ReentrancyGuard) already defines the guard.
    const imported =
      (contract.baseContracts ?? []).some((b) => /ReentrancyGuard/.test(b.baseName?.namePath ?? '')) &&
      !hasModifierDefinition(ctx.ast, 'nonReentrant');
    name = imported ? 'nonReentrant' : freshName('nonReentrant', ctx.used);
    if (!imported) {
      const lock = freshName('reentrancyLock', ctx.used);
      const member = addMemberEdit(
        ctx.source,
        contract,
        ctx.unit,
        (i, u) =>
          `${i}bool private ${lock};\n\n` +
          `${i}modifier ${name}() {\n${i}${u}${requireCall(ctx.versions, `!${lock}`, 'reentrant call')};\n${i}${u}${lock} = true;\n${i}${u}_;\n${i}${u}${lock} = false;\n${i}}`,
      );
      if (!member) return { strategy, reason: 'could not find the contract body' };
      edits.push(member);
    }
  }
  // Two guarded functions where one calls the other would make every such call revert.
  const guardedCallers = asNodes(contract.subNodes).filter(
    (f): f is AST.FunctionDefinition =>
      f.type === 'FunctionDefinition' &&
      f !== fn &&
      modifierNames(f).includes(name) &&
      some(f.body, (n) => n.type === 'FunctionCall' && n.expression?.type === 'Identifier' && n.expression.name === fn.name),
  );
  if (guardedCallers.length)
    return {
      strategy,
      reason: `${guardedCallers[0].name} is already guarded and calls ${fn.name}; guarding both would make that call revert`,
    };
  const ins = addModifierEdit(ctx.source, fn, name);
  if (!ins) return { strategy, reason: 'could not find where the function header ends' };
  edits.push(ins);
  return {
    strategy,
    description: `Added a ${name} guard to ${fn.name ?? 'the function'}: a re-entrant call now reverts. (Reordering was not used: ${why}.)`,
    edits,
  };
}
