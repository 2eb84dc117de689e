// Position questions of computeFacts (its last pass): which contract and function enclose a node
// (binary search over ranges: contracts and functions never overlap), whether it sits in a loop
// or an unchecked block of its function, and whether any transaction can reach it.
import type { AST, Located, Node } from './ast.ts';
import type { ContractFacts, FunctionFacts } from './facts.ts';
import { deadRanges } from './reachability.ts';

export function positionLookups(
  ast: AST.SourceUnit,
  contracts: ContractFacts[],
  fnByNode: Map<Node, FunctionFacts>,
  parent: (n: Node) => Node | null,
) {
  // Enclosing lookup by range containment (contracts and functions never overlap).
  const fnRanges = [...fnByNode.entries()].map(([n, f]) => ({ s: n.range?.[0] ?? -1, e: n.range?.[1] ?? -1, f }));
  const cRanges = contracts.map((c) => ({ s: c.node.range?.[0] ?? -1, e: c.node.range?.[1] ?? -1, c }));
  fnRanges.sort((a, b) => a.s - b.s);
  cRanges.sort((a, b) => a.s - b.s);
  const lookup = <T extends { s: number; e: number }>(list: T[], at: number): T | null => {
    let lo = 0;
    let hi = list.length - 1;
    let best = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid].s <= at) {
        best = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return best >= 0 && at <= list[best].e ? list[best] : null;
  };
  const enclosing = (node: Located) => {
    const at = node?.range?.[0] ?? -1;
    return { contract: lookup(cRanges, at)?.c ?? null, fn: lookup(fnRanges, at)?.f ?? null };
  };
  const ancestorIs = (node: Node, pred: (n: Node) => boolean, stopAt: (n: Node) => boolean) => {
    let p = parent(node);
    while (p) {
      if (pred(p)) return true;
      if (stopAt(p)) return false;
      p = parent(p);
    }
    return false;
  };
  const isFnBoundary = (n: Node) => n.type === 'FunctionDefinition' || n.type === 'ModifierDefinition' || n.type === 'ContractDefinition';
  let dead: Array<[number, number]> | null = null;
  const unreachable = (node: Located) => {
    dead ??= contracts.flatMap((c) => deadRanges(ast, contracts, c));
    const r = node?.range;
    return !!r && dead.some(([s, e]) => r[0] >= s && r[1] <= e);
  };

  const inLoop = (n: Node) =>
    ancestorIs(n, (p) => p.type === 'ForStatement' || p.type === 'WhileStatement' || p.type === 'DoWhileStatement', isFnBoundary);
  // The parser gives `unchecked { … }` its own statement node (it never flags a Block).
  const inUnchecked = (n: Node) => ancestorIs(n, (p) => p.type === 'UncheckedStatement', isFnBoundary);
  return { enclosing, inLoop, inUnchecked, unreachable };
}
