// The body pass of computeFacts: for every function and modifier, in its declaring contract's
// scope, the locals and storage pointers it declares, the state it reads and writes (directly or
// through a pointer, arithmetically or not), its loops, its external calls (calls.ts), its calls
// to functions of the file and its calls to code the file does not contain (an imported base).
import {
  children,
  declaredVariables,
  isAssignmentOperator,
  isNode,
  isRequireLike,
  line,
  rootName,
  some,
  tupleComponents,
  walk,
  type Node,
} from './ast.ts';
import { classifyCall, isChecked } from './calls.ts';
import type { FileScope } from './declarations.ts';
import type { ContractFacts, FunctionFacts, LoopNode } from './facts.ts';
import type { Typing } from './typing.ts';

const BUILTINS = new Set([
  'require',
  'assert',
  'revert',
  'keccak256',
  'sha3',
  'sha256',
  'ripemd160',
  'ecrecover',
  'addmod',
  'mulmod',
  'blockhash',
  'blobhash',
  'gasleft',
  'selfdestruct',
  'suicide',
  'type',
  'payable',
  'address',
  'this',
  'super',
]);

/** `name` is a state variable of the contract and not shadowed by a local of `f`. */
export function isStateName(name: string | null, f: FunctionFacts, cf: ContractFacts): name is string {
  return !!name && !f.locals.has(name) && cf.stateVars.has(name);
}

/** State variable written through `lhs`, directly or through a storage pointer. */
function writtenVar(lhs: Node, f: FunctionFacts, cf: ContractFacts): string | null {
  const r = rootName(lhs);
  if (!r) return null;
  const alias = f.aliases.get(r);
  if (alias !== undefined && lhs.type !== 'Identifier') return alias;
  return isStateName(r, f, cf) ? r : null;
}

export function analyzeBodies(scope: FileScope, types: Typing): void {
  const { contractByName, structs, enums, fileDeclared, externalCallByNode, innerCallNodes } = scope;
  const callableCache = new Map<ContractFacts, Set<string>>();

  function callableNames(cf: ContractFacts): Set<string> {
    let s = callableCache.get(cf);
    if (!s) {
      s = new Set();
      for (const name of cf.linearization) for (const f of contractByName.get(name)?.ownFunctions ?? []) s.add(f.name);
      callableCache.set(cf, s);
    }
    return s;
  }

  /** A called name the file does not define: not a builtin, type, local, state variable,
   *  function, event, error or free function of this file (so it lives in an imported base). */
  function isUnknownCallee(name: string, f: FunctionFacts, cf: ContractFacts): boolean {
    return (
      !BUILTINS.has(name) &&
      !f.locals.has(name) &&
      !cf.stateVars.has(name) &&
      !callableNames(cf).has(name) &&
      !contractByName.has(name) &&
      !structs.has(name) &&
      !enums.has(name) &&
      !fileDeclared.has(name)
    );
  }

  function analyzeBody(f: FunctionFacts, cf: ContractFacts) {
    const returns = f.node.type === 'FunctionDefinition' ? (f.node.returnParameters ?? []) : [];
    for (const r of returns) if (r?.name) f.locals.add(r.name);
    const body = f.node.body;
    if (!body) return;
    // Locals first (declarations anywhere in the body shadow state names everywhere: good enough).
    walk(body, (n) => {
      if (n.type === 'VariableDeclaration' && n.name && !n.isStateVar) {
        f.locals.add(n.name);
      }
    });
    walk(body, (n) => {
      if (n.type === 'VariableDeclarationStatement') {
        const init = n.initialValue;
        for (const v of declaredVariables(n)) {
          if (!v?.name || !init) continue;
          const r = rootName(init);
          const isPointer =
            v.storageLocation === 'storage' ||
            ((!v.typeName || (v.typeName.type === 'ElementaryTypeName' && v.typeName.name === 'var')) && init.type !== 'FunctionCall') ||
            (v.typeName?.type === 'UserDefinedTypeName' && structs.has(v.typeName.namePath) && v.storageLocation !== 'memory');
          if (isPointer && r && r !== v.name && (cf.stateVars.has(r) || f.aliases.has(r)) && !f.params.includes(r)) {
            f.aliases.set(v.name, f.aliases.get(r) ?? r);
          }
        }
      }
    });
    const loopStack: LoopNode[] = [];
    const visit = (n: Node, p: Node | null) => {
      if (!isNode(n)) return;
      const isLoop = n.type === 'ForStatement' || n.type === 'WhileStatement' || n.type === 'DoWhileStatement';
      if (isLoop) {
        f.loops.push(n);
        loopStack.push(n);
      }
      inspect(n, p, loopStack.length > 0);
      for (const c of children(n)) visit(c, n);
      if (isLoop) loopStack.pop();
    };
    const inspect = (n: Node, p: Node | null, inLoop: boolean) => {
      const pos = n.range?.[0] ?? 0;
      switch (n.type) {
        case 'Identifier': {
          const alias = f.aliases.get(n.name);
          if (isStateName(n.name, f, cf) && !(p?.type === 'BinaryOperation' && p.operator === '=' && p.left === n)) f.reads.add(n.name);
          else if (alias !== undefined) f.reads.add(alias);
          break;
        }
        case 'BinaryOperation':
          if (isAssignmentOperator(n.operator)) {
            const lhs = n.left;
            const targets = lhs?.type === 'TupleExpression' ? tupleComponents(lhs).filter((c): c is Node => !!c) : [lhs];
            for (const t of targets) {
              const v = writtenVar(t, f, cf);
              if (v) {
                f.writes.push({ variable: v, node: n, pos: n.range?.[1] ?? pos, line: line(n) });
                if (
                  n.operator !== '=' ||
                  (n.right?.type === 'BinaryOperation' &&
                    /^[-+]$/.test(n.right.operator) &&
                    some(n.right, (x) => x.type === 'Identifier' && (x.name === v || f.aliases.get(x.name) === v)))
                )
                  f.arithmeticWrites.add(v);
              }
            }
          }
          break;
        case 'UnaryOperation':
          if (n.operator === '++' || n.operator === '--' || n.operator === 'delete') {
            const v = writtenVar(n.subExpression, f, cf);
            if (v) {
              f.writes.push({ variable: v, node: n, pos, line: line(n) });
              if (n.operator !== 'delete') f.arithmeticWrites.add(v);
            }
          }
          break;
        case 'FunctionCall': {
          if (innerCallNodes.has(n)) break;
          const ext = classifyCall(scope, types, n, f, cf);
          if (ext) {
            ext.inLoop = inLoop;
            ext.checked = isChecked(scope, n, f);
            f.externalCalls.push(ext);
            externalCallByNode.set(n, ext);
            break;
          }
          const callee = n.expression;
          if (callee?.type === 'MemberAccess' && (callee.memberName === 'push' || callee.memberName === 'pop')) {
            const v =
              writtenVar(callee.expression, f, cf) ??
              (callee.expression.type === 'Identifier' && isStateName(callee.expression.name, f, cf) ? callee.expression.name : null);
            if (v) f.writes.push({ variable: v, node: n, pos, line: line(n) });
          }
          let name: string | null = null;
          if (callee?.type === 'Identifier') name = callee.name;
          else if (
            callee?.type === 'MemberAccess' &&
            callee.expression?.type === 'Identifier' &&
            (callee.expression.name === 'super' || contractByName.has(callee.expression.name)) &&
            cf.linearization.includes(callee.expression.name === 'super' ? (cf.linearization[1] ?? '') : callee.expression.name)
          )
            name = callee.memberName;
          if (name && !f.locals.has(name) && !cf.stateVars.has(name) && callableNames(cf).has(name)) {
            f.internalCalls.push({ node: n, name, callees: [], pos });
          } else if (
            cf.unresolvedBase &&
            callee?.type === 'Identifier' &&
            isUnknownCallee(callee.name, f, cf) &&
            p?.type !== 'EmitStatement' &&
            p?.type !== 'RevertStatement' &&
            !(isRequireLike(p) && p.arguments?.[0] !== n)
          ) {
            f.unresolvedCalls.push({ node: n, name: callee.name, pos });
          }
          break;
        }
      }
    };
    visit(body, null);
  }

  for (const cf of scope.contracts) for (const f of cf.ownFunctions) analyzeBody(f, cf);
}
