// Facts computed once per file and shared by every detector (Slither's lesson: call graph,
// inheritance and "state written after an external call" are computed once, not per rule).
// Everything here is syntactic over the parser AST, resolved by name within the file: imports
// are not followed, so a base contract from another file contributes nothing.
// This module holds the shapes and the orchestrator; each pass lives in its own module:
// declarations (contracts, inheritance, state variables, function shells), bodies (locals,
// reads, writes, loops, calls), calls (external-call classification, internal-call resolution),
// flow (transitive effects, reentrancy paths), guards (caller checks, auth variables),
// summaries (inter-procedural effects) and positions (enclosing/loop/unchecked/reachability).
import type { AST, Located, MaybeNode, Node } from './ast.ts';
import { analyzeBodies } from './bodies.ts';
import { resolveCalls } from './calls.ts';
import { contextSenders } from './context-sender.ts';
import { declarations } from './declarations.ts';
import { reentrancyPaths, transitive } from './flow.ts';
import { guardFacts } from './guards.ts';
import { positionLookups } from './positions.ts';
import { computeSummaries, type FunctionSummary } from './summaries.ts';
import { typing } from './typing.ts';

/** What a FunctionFacts describes: a function (constructor, fallback, receive) or a modifier. */
export type FunctionNode = AST.FunctionDefinition | AST.ModifierDefinition;
export type LoopNode = AST.ForStatement | AST.WhileStatement | AST.DoWhileStatement;

export type CallKind = 'call' | 'delegatecall' | 'callcode' | 'staticcall' | 'send' | 'transfer' | 'external';

export interface ExternalCall {
  /** Outermost FunctionCall node (`a.call.value(v)(d)` is one call, not three). */
  node: AST.FunctionCall;
  kind: CallKind;
  /** The address / contract expression being called. */
  target: AST.Expression;
  targetText: string;
  /** Ether sent: `.value(x)`, `{value: x}`, `send(x)`, `transfer(x)`. */
  value: AST.Expression | null;
  /** Called member name for high-level calls (`token.transfer` → "transfer"). */
  member: string | null;
  /** The return value is inspected (require/if/assigned and later used). */
  checked: boolean;
  /** `a.call.value(v);` — the call is configured but never invoked. */
  notInvoked?: boolean;
  inLoop: boolean;
  line: number;
  endLine: number;
  contract: string | null;
  function: string | null;
}

export interface StateWrite {
  variable: string;
  /** The assignment or update (`a = …`, `a += …`, `a++`, `delete a`), the `push`/`pop` call, or
   *  the internal call whose callee writes it. */
  node: AST.BinaryOperation | AST.UnaryOperation | AST.FunctionCall;
  pos: number;
  line: number;
}

export interface InternalCall {
  node: AST.FunctionCall;
  name: string;
  callees: FunctionFacts[];
  pos: number;
}

/** A point where control leaves the contract, and the state written after it. */
export interface ReentrancyPath {
  /** Node to report: the call, the internal call leading to it, or the modifier invocation. */
  at: AST.FunctionCall | AST.ModifierInvocation;
  via: 'direct' | 'internal' | 'modifier';
  call: ExternalCall;
  writes: StateWrite[];
}

export interface StateVarFacts {
  name: string;
  type: string;
  typeNode: AST.TypeName | null;
  node: AST.StateVariableDeclarationVariable;
  contract: string;
  constant: boolean;
  immutable: boolean;
  visibility: string;
}

export interface FunctionFacts {
  key: string;
  name: string;
  contract: string;
  node: FunctionNode;
  kind: 'function' | 'constructor' | 'fallback' | 'receive' | 'modifier';
  visibility: string;
  /** Callable from outside: public, external, or default visibility. */
  isPublic: boolean;
  mutability: string | null;
  payable: boolean;
  isView: boolean;
  modifiers: Array<{ name: string; node: AST.ModifierInvocation; def: FunctionFacts | null }>;
  params: string[];
  locals: Set<string>;
  /** Local storage pointers → the state variable they point into. */
  aliases: Map<string, string>;
  /** Locals computed from msg.sender / tx.origin (`uint idx = ownerIndex[msg.sender]`). */
  senderLocals: Set<string>;
  /** Locals computed from the caller (msg.sender or a sender local): keys of the caller's records. */
  senderKeys: Set<string>;
  /** Returns the caller (`return msg.sender;`, an ERC-2771 relayed sender, or another such
   *  helper): calls to it are `msg.sender` for every rule (context-sender pass, `isMsgSender`). */
  returnsCaller: boolean;
  reads: Set<string>;
  writes: StateWrite[];
  externalCalls: ExternalCall[];
  internalCalls: InternalCall[];
  /** Calls to functions of a base contract defined in another file (imports are not followed):
   *  code the static layer cannot see, so what they read, write or check is unknown. */
  unresolvedCalls: Array<{ node: AST.FunctionCall; name: string; pos: number }>;
  /** This function or an internal callee (transitively) calls unresolved code. */
  transitiveUnresolved: boolean;
  /** State variables updated arithmetically here (`+=`, `-=`, `++`, `x = x + y`): balances, counters. */
  arithmeticWrites: Set<string>;
  /** Checks msg.sender / tx.origin itself, in a modifier or in a helper it calls, or may do so
   *  in code the file does not contain (`opaqueGuard`). */
  senderGuard: boolean;
  /** A modifier defined in an imported base, or a modifier or check that hands the caller (or
   *  nothing) to imported code (`_checkRole(role, _msgSender())`, `_checkOwner()`): the guard is
   *  out of sight, so rules do not claim that anyone can call the function. */
  opaqueGuard: boolean;
  /** Called from another function or modifier of the file. */
  calledInternally: boolean;
  transitiveWrites: Set<string>;
  transitiveReads: Set<string>;
  /** Makes an external call itself or through internal calls. */
  transitiveExternal: ExternalCall[];
  reentrancy: ReentrancyPath[];
  loops: LoopNode[];
  /** What this function and everything it reaches internally reads, writes, checks and consumes,
   *  and what its return carries (lib/analysis/static/summaries.ts). */
  summary: FunctionSummary;
}

export interface ContractFacts {
  name: string;
  kind: string;
  node: AST.ContractDefinition;
  bases: string[];
  /** C3 linearization by name within the file, most derived first. */
  linearization: string[];
  stateVars: Map<string, StateVarFacts>;
  /** Functions visible in this contract, most-derived definition per name/arity. */
  functions: FunctionFacts[];
  ownFunctions: FunctionFacts[];
  modifiers: Map<string, FunctionFacts>;
  /** State variables compared with msg.sender/tx.origin in some access check (owner, admins). */
  authVars: Set<string>;
  /** For each auth var, the struct members its checks compare (`chans[id].parties[0] == msg.sender`
   *  → {parties}); null when the variable as a whole decides (`owner == msg.sender`). */
  authMembers: Map<string, Set<string> | null>;
  /** For the functions declared in each contract of the linearization, the auth var names that
   *  resolve there to a declaration an access check reads. Before 0.6 a derived contract may
   *  redeclare a base's variable: the base's `onlyOwner` reads the base's `owner`, a derived
   *  function's `owner = msg.sender` writes the derived copy, which decides nothing. */
  authVarsBy: Map<string, Set<string>>;
  /** Some access check compares the caller with an address literal: nobody can take that role. */
  constantAuth: boolean;
  hasConstructor: boolean;
  /** Some contract in the linearization inherits from a contract not defined in this file. */
  unresolvedBase: boolean;
}

export interface VersionFacts {
  pragma: string | null;
  /** Lowest compiler version the pragma admits. */
  min: string | null;
  /** The pragma as a semver range (`>=0.4.22 <0.6.0`); null without a usable pragma. */
  range: string | null;
  /** Arithmetic reverts on overflow (>= 0.8.0). */
  checkedArithmetic: boolean;
  /** Constructors are functions named like the contract (< 0.4.22 admitted). */
  legacyConstructors: boolean;
  floating: boolean;
}

export interface StaticFacts {
  source: string;
  file: string;
  ast: AST.SourceUnit;
  version: VersionFacts;
  contracts: ContractFacts[];
  contractByName: Map<string, ContractFacts>;
  structs: Set<string>;
  enums: Set<string>;
  /** Outermost call node → its external call. */
  externalCallByNode: Map<Node, ExternalCall>;
  /** Inner pieces of chained calls (`a.call.value(v)` inside `a.call.value(v)()`). */
  innerCallNodes: Set<Node>;
  parent(node: Node): Node | null;
  /** Enclosing contract and function (or modifier) of a node. */
  enclosing(node: Located): { contract: ContractFacts | null; fn: FunctionFacts | null };
  inLoop(node: Node): boolean;
  inUnchecked(node: Node): boolean;
  /** Inside code no transaction can reach (an early exit that constant-valued state always takes). */
  unreachable(node: Located): boolean;
  /** The declared type of a name as seen from a function (local first, then state). */
  typeOf(name: string, fn: FunctionFacts | null, contract: ContractFacts | null): string | null;
  /** Best-effort type of `a`, `a[i]`, `a.b`. */
  typeOfExpr(e: MaybeNode, fn: FunctionFacts | null, contract: ContractFacts | null): string | null;
  functionsByKey: Map<string, FunctionFacts>;
}

export function computeFacts(ast: AST.SourceUnit, source: string, file: string): StaticFacts {
  // Pass 1: contracts, inheritance, state variables, function and modifier shells.
  const scope = declarations(ast, source);
  // Pass 1b: context helpers that return the caller (`_msgSender()`), before anything asks.
  contextSenders(scope);
  const types = typing(scope);
  // Pass 2: bodies (reads, writes, loops, calls) in the declaring contract's scope.
  analyzeBodies(scope, types);
  // Pass 3: resolve internal calls and modifier definitions.
  resolveCalls(scope.contracts);
  // Pass 4: transitive effects, then caller guards and auth variables, then reentrancy paths.
  const all = scope.contracts.flatMap((c) => c.ownFunctions);
  const done = new WeakSet<FunctionFacts>();
  for (const f of all) transitive(f, new Set(), done);
  guardFacts(scope, types);
  for (const f of all) f.reentrancy = reentrancyPaths(f);
  // Pass 5: inter-procedural summaries (reads, writes, checks, consumption, return flow).
  const sums = computeSummaries(all);
  for (const f of all) f.summary = sums.get(f) ?? f.summary;
  // Pass 6: position questions, answered lazily.
  const { enclosing, inLoop, inUnchecked, unreachable } = positionLookups(ast, scope.contracts, scope.fnByNode, scope.parent);

  return {
    source,
    file,
    ast,
    version: scope.version,
    contracts: scope.contracts,
    contractByName: scope.contractByName,
    structs: scope.structs,
    enums: scope.enums,
    externalCallByNode: scope.externalCallByNode,
    innerCallNodes: scope.innerCallNodes,
    parent: scope.parent,
    enclosing,
    inLoop,
    inUnchecked,
    unreachable,
    typeOf: (name, fn, c) => types.typeOfName(name, fn, c),
    typeOfExpr: (e, fn, c) => (fn && c ? types.exprType(e, fn, c) : null),
    functionsByKey: scope.functionsByKey,
  };
}

export { isHashCall, isTypeConversion, memberPath } from './ast.ts';
