// Call-graph passes of computeFacts, run after internal calls and modifiers are resolved: the
// transitive closure of writes, reads and external calls over internal callees and modifiers, and
// the reentrancy paths (an external call, directly, through a callee or in a modifier before `_`,
// followed by state writes).
import { line, walk } from './ast.ts';
import type { FunctionFacts, FunctionNode, ReentrancyPath, StateWrite } from './facts.ts';

/** Fills transitiveWrites/Reads/External/Unresolved of `f` and everything it reaches. */
export function transitive(f: FunctionFacts, stack: Set<FunctionFacts>, done: WeakSet<FunctionFacts>) {
  if (done.has(f)) return;
  if (stack.has(f)) return;
  stack.add(f);
  for (const w of f.writes) f.transitiveWrites.add(w.variable);
  for (const r of f.reads) f.transitiveReads.add(r);
  f.transitiveExternal.push(...f.externalCalls);
  if (f.unresolvedCalls.length) f.transitiveUnresolved = true;
  const subs = [...f.internalCalls.flatMap((c) => c.callees), ...f.modifiers.map((m) => m.def).filter((d): d is FunctionFacts => !!d)];
  for (const g of subs) {
    transitive(g, stack, done);
    for (const w of g.transitiveWrites) f.transitiveWrites.add(w);
    for (const r of g.transitiveReads) f.transitiveReads.add(r);
    for (const e of g.transitiveExternal) if (!f.transitiveExternal.includes(e)) f.transitiveExternal.push(e);
    if (g.transitiveUnresolved) f.transitiveUnresolved = true;
  }
  stack.delete(f);
  done.add(f);
}

/** Where control leaves the contract in `f`, and the state written after it. */
export function reentrancyPaths(f: FunctionFacts): ReentrancyPath[] {
  const out: ReentrancyPath[] = [];
  const laterWrites = (pos: number): StateWrite[] => {
    const ws = f.writes.filter((w) => w.pos > pos);
    for (const ic of f.internalCalls) {
      if (ic.pos <= pos) continue;
      for (const g of ic.callees)
        for (const v of g.transitiveWrites) ws.push({ variable: v, node: ic.node, pos: ic.pos, line: line(ic.node) });
    }
    return ws;
  };
  for (const c of f.externalCalls) {
    const ws = laterWrites(c.node.range?.[1] ?? 0);
    if (ws.length) out.push({ at: c.node, via: 'direct', call: c, writes: ws });
  }
  for (const ic of f.internalCalls) {
    const reach = ic.callees.flatMap((g) => g.transitiveExternal);
    if (!reach.length) continue;
    const ws = laterWrites(ic.node.range?.[1] ?? 0);
    if (ws.length) out.push({ at: ic.node, via: 'internal', call: reach[0], writes: ws });
  }
  // A modifier that calls out before `_` runs before every write of the body.
  for (const m of f.modifiers) {
    if (!m.def) continue;
    const underscore = findUnderscore(m.def.node);
    const pre = m.def.externalCalls.filter((c) => underscore === null || (c.node.range?.[0] ?? 0) < underscore);
    if (pre.length && f.writes.length) out.push({ at: m.node, via: 'modifier', call: pre[0], writes: f.writes });
  }
  return out;
}

function findUnderscore(mod: FunctionNode): number | null {
  let pos: number | null = null;
  walk(mod.body ?? {}, (n) => {
    if (pos !== null) return false;
    if (n.type === 'ExpressionStatement' && n.expression?.type === 'Identifier' && n.expression.name === '_') pos = n.range?.[0] ?? null;
  });
  return pos;
}
