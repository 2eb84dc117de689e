// Name and type resolution within one file (used by the body and guard passes and exposed as
// `typeOf`/`typeOfExpr`): the declaration a name refers to as seen from a function (parameters,
// returns and locals first, then state), the best-effort type of `a`, `a[i]`, `a.b`, and whether
// an expression has a contract type (so `x.f()` is a message call).
import { walk, typeText, type AST, type MaybeNode, type Node } from './ast.ts';
import type { FileScope } from './declarations.ts';
import type { ContractFacts, FunctionFacts } from './facts.ts';

export interface Typing {
  declOf(name: string, f: FunctionFacts | null, cf: ContractFacts | null): AST.VariableDeclaration | null;
  typeOfName(name: string, f: FunctionFacts | null, cf: ContractFacts | null): string | null;
  /** Best-effort static type of `a`, `a[i]`, `a.b` (struct members and mapping values). */
  exprType(e: MaybeNode, f: FunctionFacts, cf: ContractFacts): string | null;
  /** The expression has a contract or interface type (so `x.f()` is a message call). */
  isContractTyped(e: MaybeNode, f: FunctionFacts, cf: ContractFacts): boolean;
}

export function typing(scope: FileScope): Typing {
  const { structs, enums, structDefs, contractByName } = scope;

  function isContractTypeName(t: string): boolean {
    const k = contractByName.get(t);
    if (k) return k.kind !== 'library';
    if (structs.has(t) || enums.has(t)) return false;
    // A user-defined type not declared in this file is most likely an imported contract.
    return /^[A-Z_][A-Za-z0-9_]*$/.test(t) && !/^(u?int\d*|bytes\d*|address|bool|string|byte)$/.test(t);
  }

  const structMember = (sname: string, member: string) => structDefs.get(sname)?.members?.find((x) => x.name === member);

  function typeNodeOf(e: MaybeNode, f: FunctionFacts, cf: ContractFacts): AST.TypeName | null {
    if (e?.type === 'Identifier') return declOf(e.name, f, cf)?.typeName ?? null;
    if (e?.type === 'IndexAccess') {
      const bt = typeNodeOf(e.base, f, cf);
      if (bt?.type === 'Mapping') return bt.valueType;
      if (bt?.type === 'ArrayTypeName') return bt.baseTypeName;
      return null;
    }
    if (e?.type === 'MemberAccess') {
      const tn = typeNodeOf(e.expression, f, cf);
      const sname = tn?.type === 'UserDefinedTypeName' ? tn.namePath : null;
      if (sname && structs.has(sname)) return structMember(sname, e.memberName)?.typeName ?? null;
    }
    return null;
  }

  function exprType(e: MaybeNode, f: FunctionFacts, cf: ContractFacts): string | null {
    if (e?.type === 'Identifier') return typeOfName(e.name, f, cf);
    if (e?.type === 'IndexAccess') {
      const bt = typeNodeOf(e.base, f, cf);
      if (!bt) return null;
      if (bt.type === 'Mapping') return typeText(bt.valueType);
      if (bt.type === 'ArrayTypeName') return typeText(bt.baseTypeName);
      return null;
    }
    if (e?.type === 'MemberAccess') {
      const tn = typeNodeOf(e.expression, f, cf);
      const sname = tn?.type === 'UserDefinedTypeName' ? tn.namePath : null;
      if (sname && structs.has(sname)) {
        const m = structMember(sname, e.memberName);
        return m ? typeText(m.typeName) : null;
      }
    }
    return null;
  }

  function declOf(name: string, f: FunctionFacts | null, cf: ContractFacts | null): AST.VariableDeclaration | null {
    if (f) {
      const returns = f.node.type === 'FunctionDefinition' ? (f.node.returnParameters ?? []) : [];
      for (const p of [...(f.node.parameters ?? []), ...returns]) if (p?.name === name) return p;
      let hit: AST.VariableDeclaration | null = null;
      if (f.node.body)
        walk(f.node.body, (n: Node) => {
          if (hit) return false;
          if (n.type === 'VariableDeclaration' && n.name === name) hit = n;
        });
      if (hit) return hit;
    }
    return cf?.stateVars.get(name)?.node ?? null;
  }

  function typeOfName(name: string, f: FunctionFacts | null, cf: ContractFacts | null): string | null {
    const d = declOf(name, f, cf);
    return d ? (d.typeName ? typeText(d.typeName) : 'var') : null;
  }

  function isContractTyped(e: MaybeNode, f: FunctionFacts, cf: ContractFacts): boolean {
    const u = e;
    if (u?.type === 'Identifier') {
      if (u.name === 'this' || u.name === 'super') return false;
      const t = typeOfName(u.name, f, cf);
      return !!t && isContractTypeName(t);
    }
    // `Token(addr).f()` casts an address to a contract type.
    if (u?.type === 'FunctionCall' && u.expression?.type === 'Identifier' && (u.arguments ?? []).length === 1) {
      const k = contractByName.get(u.expression.name);
      if (k) return k.kind !== 'library';
      return false;
    }
    if (u?.type === 'IndexAccess' || u?.type === 'MemberAccess') {
      const t = exprType(u, f, cf);
      return !!t && isContractTypeName(t);
    }
    return false;
  }

  return { declOf, typeOfName, exprType, isContractTyped };
}
