// Facts computed once per file and shared by every detector (Slither's lesson: call graph,
// inheritance and "state written after an external call" are computed once, not per rule).
// Everything here is syntactic over the parser AST, resolved by name within the file: imports
// are not followed, so a base contract from another file contributes nothing.
import semver from 'semver';
import {
  children,
  isHashCall,
  isMsgSender,
  isNode,
  isRequireLike,
  isTxOrigin,
  isTypeConversion,
  line,
  endLine,
  mappingValueType,
  rootName,
  some,
  text,
  typeText,
  unwrap,
  walk,
  type Node,
} from './ast.ts';
import { solidityPragma } from './parse.ts';
import { reentrancyPaths, transitive } from './flow.ts';
import { positionLookups } from './positions.ts';
import { computeSummaries, emptySummary, type FunctionSummary } from './summaries.ts';

export type CallKind = 'call' | 'delegatecall' | 'callcode' | 'staticcall' | 'send' | 'transfer' | 'external';

export interface ExternalCall {
  /** Outermost FunctionCall node (`a.call.value(v)(d)` is one call, not three). */
  node: Node;
  kind: CallKind;
  /** The address / contract expression being called. */
  target: Node;
  targetText: string;
  /** Ether sent: `.value(x)`, `{value: x}`, `send(x)`, `transfer(x)`. */
  value: Node;
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
  node: Node;
  pos: number;
  line: number;
}

export interface InternalCall {
  node: Node;
  name: string;
  callees: FunctionFacts[];
  pos: number;
}

/** A point where control leaves the contract, and the state written after it. */
export interface ReentrancyPath {
  /** Node to report: the call, the internal call leading to it, or the modifier invocation. */
  at: Node;
  via: 'direct' | 'internal' | 'modifier';
  call: ExternalCall;
  writes: StateWrite[];
}

export interface StateVarFacts {
  name: string;
  type: string;
  typeNode: Node;
  node: Node;
  contract: string;
  constant: boolean;
  immutable: boolean;
  visibility: string;
}

export interface FunctionFacts {
  key: string;
  name: string;
  contract: string;
  node: Node;
  kind: 'function' | 'constructor' | 'fallback' | 'receive' | 'modifier';
  visibility: string;
  /** Callable from outside: public, external, or default visibility. */
  isPublic: boolean;
  mutability: string | null;
  payable: boolean;
  isView: boolean;
  modifiers: Array<{ name: string; node: Node; def: FunctionFacts | null }>;
  params: string[];
  locals: Set<string>;
  /** Local storage pointers → the state variable they point into. */
  aliases: Map<string, string>;
  /** Locals computed from msg.sender / tx.origin (`uint idx = ownerIndex[msg.sender]`). */
  senderLocals: Set<string>;
  /** Locals computed from the caller (msg.sender or a sender local): keys of the caller's records. */
  senderKeys: Set<string>;
  reads: Set<string>;
  writes: StateWrite[];
  externalCalls: ExternalCall[];
  internalCalls: InternalCall[];
  /** Calls to functions of a base contract defined in another file (imports are not followed):
   *  code the static layer cannot see, so what they read, write or check is unknown. */
  unresolvedCalls: Array<{ node: Node; name: string; pos: number }>;
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
  loops: Node[];
  /** What this function and everything it reaches internally reads, writes, checks and consumes,
   *  and what its return carries (lib/analysis/static/summaries.ts). */
  summary: FunctionSummary;
}

export interface ContractFacts {
  name: string;
  kind: string;
  node: Node;
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
  hasConstructor: boolean;
  /** Some contract in the linearization inherits from a contract not defined in this file. */
  unresolvedBase: boolean;
}

export interface VersionFacts {
  pragma: string | null;
  /** Lowest compiler version the pragma admits. */
  min: string | null;
  /** Arithmetic reverts on overflow (>= 0.8.0). */
  checkedArithmetic: boolean;
  /** Constructors are functions named like the contract (< 0.4.22 admitted). */
  legacyConstructors: boolean;
  floating: boolean;
}

export interface StaticFacts {
  source: string;
  file: string;
  ast: Node;
  version: VersionFacts;
  contracts: ContractFacts[];
  contractByName: Map<string, ContractFacts>;
  structs: Set<string>;
  enums: Set<string>;
  /** Outermost call node → its external call. */
  externalCallByNode: Map<Node, ExternalCall>;
  /** Inner pieces of chained calls (`a.call.value(v)` inside `a.call.value(v)()`). */
  innerCallNodes: Set<Node>;
  parent(node: Node): Node;
  /** Enclosing contract and function (or modifier) of a node. */
  enclosing(node: Node): { contract: ContractFacts | null; fn: FunctionFacts | null };
  inLoop(node: Node): boolean;
  inUnchecked(node: Node): boolean;
  /** Inside code no transaction can reach (an early exit that constant-valued state always takes). */
  unreachable(node: Node): boolean;
  /** The declared type of a name as seen from a function (local first, then state). */
  typeOf(name: string, fn: FunctionFacts | null, contract: ContractFacts | null): string | null;
  /** Best-effort type of `a`, `a[i]`, `a.b`. */
  typeOfExpr(e: Node, fn: FunctionFacts | null, contract: ContractFacts | null): string | null;
  functionsByKey: Map<string, FunctionFacts>;
}

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
/** Modifier names that announce a check other than the caller's identity. */
const NOT_CALLER_CHECKS = /reentr|nonReentrant|lock|[pP]aused|initializ|valid|deadline|expire|gas|payable|nonZero/i;
const LOW_LEVEL = new Set(['call', 'delegatecall', 'callcode', 'staticcall', 'send', 'transfer']);

function versionFacts(ast: Node, source: string): VersionFacts {
  const pragma = solidityPragma(ast);
  let min: string | null = null;
  if (pragma) {
    try {
      const cleaned = pragma
        .replace(/\s+/g, ' ')
        .replace(/([<>=^~]+) /g, '$1')
        .trim();
      min = semver.minVersion(cleaned)?.version ?? null;
    } catch {
      min = null;
    }
  }
  // Without a pragma, old-only syntax tells us the code predates 0.5.
  const legacySyntax = /\b(throw|suicide|sha3|callcode)\b|\bvar\s+\w|\.call\.value\(|\bconstant\s+returns|\)\s*constant\b/.test(source);
  const checkedArithmetic = min ? semver.gte(min, '0.8.0') : !legacySyntax;
  const legacyConstructors = min ? semver.lt(min, '0.4.22') : legacySyntax;
  const floating = !!pragma && /[\^~><]/.test(pragma) && !/<\s*=?\s*\d/.test(pragma.replace(/^.*?>=?[^<]*$/, ''));
  return { pragma, min, checkedArithmetic, legacyConstructors, floating };
}

/** C3 linearization of `name` over the file's contracts; falls back to DFS order on conflicts. */
function linearize(name: string, basesOf: Map<string, string[]>, seen = new Set<string>()): string[] {
  if (seen.has(name)) return [name];
  seen.add(name);
  const bases = (basesOf.get(name) ?? []).filter((b) => basesOf.has(b));
  // Solidity lists bases from most base to most derived; C3 merges in reverse.
  const seqs = bases
    .slice()
    .reverse()
    .map((b) => linearize(b, basesOf, new Set(seen)));
  seqs.push(bases.slice().reverse());
  const out = [name];
  const lists = seqs.map((s) => s.slice()).filter((s) => s.length);
  while (lists.length) {
    let picked: string | null = null;
    for (const l of lists) {
      const h = l[0];
      if (!lists.some((o) => o.indexOf(h) > 0)) {
        picked = h;
        break;
      }
    }
    if (!picked) {
      for (const l of lists) for (const x of l) if (!out.includes(x)) out.push(x);
      return out;
    }
    out.push(picked);
    for (const l of lists) if (l[0] === picked) l.shift();
    for (let i = lists.length - 1; i >= 0; i--) if (!lists[i].length) lists.splice(i, 1);
  }
  return out;
}

export function computeFacts(ast: Node, source: string, file: string): StaticFacts {
  const parents = new Map<Node, Node>();
  walk(ast, (n, p) => {
    parents.set(n, p);
  });
  const parent = (n: Node) => parents.get(n) ?? null;

  const structs = new Set<string>();
  const structDefs = new Map<string, Node>();
  const enums = new Set<string>();
  const contractNodes: Node[] = [];
  walk(ast, (n) => {
    if (n.type === 'ContractDefinition') contractNodes.push(n);
    if (n.type === 'StructDefinition') {
      structs.add(n.name);
      if (!structDefs.has(n.name)) structDefs.set(n.name, n);
    }
    if (n.type === 'EnumDefinition') enums.add(n.name);
  });
  // Names declared in the file outside contracts' functions: events, errors, free functions.
  const fileDeclared = new Set<string>();
  walk(ast, (n) => {
    if ((n.type === 'EventDefinition' || n.type === 'CustomErrorDefinition' || (n.type === 'FunctionDefinition' && n.name)) && n.name)
      fileDeclared.add(n.name);
  });
  const basesOf = new Map<string, string[]>();
  for (const c of contractNodes) basesOf.set(c.name, (c.baseContracts ?? []).map((b: Node) => b.baseName?.namePath).filter(Boolean));
  const nodeByName = new Map<string, Node>(contractNodes.map((c) => [c.name, c]));

  const version = versionFacts(ast, source);
  const contracts: ContractFacts[] = [];
  const contractByName = new Map<string, ContractFacts>();
  const functionsByKey = new Map<string, FunctionFacts>();
  const fnByNode = new Map<Node, FunctionFacts>();
  const externalCallByNode = new Map<Node, ExternalCall>();
  const callableCache = new Map<ContractFacts, Set<string>>();
  const innerCallNodes = new Set<Node>();

  // Pass 1: contracts, state variables, function shells.
  for (const c of contractNodes) {
    const lin = linearize(c.name, basesOf);
    const cf: ContractFacts = {
      name: c.name,
      kind: c.kind,
      node: c,
      bases: basesOf.get(c.name) ?? [],
      linearization: lin,
      stateVars: new Map(),
      functions: [],
      ownFunctions: [],
      modifiers: new Map(),
      authVars: new Set(),
      authMembers: new Map(),
      hasConstructor: false,
      unresolvedBase: lin.some((n) => (basesOf.get(n) ?? []).some((b) => !basesOf.has(b))),
    };
    contracts.push(cf);
    contractByName.set(c.name, cf);
    for (const sub of c.subNodes ?? []) {
      if (sub.type === 'FunctionDefinition' || sub.type === 'ModifierDefinition') {
        const f = shell(sub, c.name, version);
        cf.ownFunctions.push(f);
        fnByNode.set(sub, f);
        functionsByKey.set(f.key + '@' + sub.range?.[0], f);
        if (f.kind === 'constructor') cf.hasConstructor = true;
      }
    }
  }
  // Inherited members, most-derived first.
  for (const cf of contracts) {
    const seenFn = new Set<string>();
    for (const name of cf.linearization) {
      const cn = nodeByName.get(name);
      const base = contractByName.get(name);
      if (!cn || !base) continue;
      for (const sub of cn.subNodes ?? []) {
        if (sub.type === 'StateVariableDeclaration') {
          for (const v of sub.variables ?? []) {
            if (!v?.name || cf.stateVars.has(v.name)) continue;
            cf.stateVars.set(v.name, {
              name: v.name,
              type: typeText(v.typeName),
              typeNode: v.typeName,
              node: v,
              contract: name,
              constant: !!v.isDeclaredConst,
              immutable: !!v.isImmutable,
              visibility: v.visibility ?? 'internal',
            });
          }
        }
      }
      for (const f of base.ownFunctions) {
        if (f.kind === 'modifier') {
          if (!cf.modifiers.has(f.name)) cf.modifiers.set(f.name, f);
          continue;
        }
        if (f.kind === 'constructor' && name !== cf.name) continue;
        const sig = `${f.name}/${f.params.length}`;
        if (seenFn.has(sig)) continue;
        seenFn.add(sig);
        cf.functions.push(f);
      }
    }
  }

  // Pass 2: bodies (reads, writes, calls) in the declaring contract's scope.
  for (const cf of contracts) {
    for (const f of cf.ownFunctions) analyzeBody(f, cf);
  }
  // Pass 3: resolve internal calls and modifier definitions.
  for (const cf of contracts) {
    for (const f of cf.ownFunctions) {
      for (const m of f.modifiers) m.def = cf.modifiers.get(m.name) ?? null;
      for (const ic of f.internalCalls) {
        ic.callees = cf.functions.filter((g) => g.name === ic.name && g.kind !== 'modifier');
        if (!ic.callees.length) ic.callees = cf.functions.filter((g) => g.name === ic.name);
        for (const g of ic.callees) g.calledInternally = true;
      }
    }
  }
  // Pass 4: transitive summaries, guards, reentrancy paths.
  const all = contracts.flatMap((c) => c.ownFunctions);
  const done = new WeakSet<FunctionFacts>();
  for (const f of all) transitive(f, new Set(), done);
  const arithmeticVars = new Set(all.flatMap((f) => [...f.arithmeticWrites]));
  for (const cf of contracts) for (const f of cf.ownFunctions) senderLocals(f, cf);
  for (const cf of contracts)
    for (const f of cf.ownFunctions) {
      f.opaqueGuard = opaqueGuard(f, cf);
      f.senderGuard = f.opaqueGuard || hasGuard(f, cf, 0);
    }
  for (const cf of contracts) collectAuthVars(cf);
  for (const f of all) f.reentrancy = reentrancyPaths(f);
  // Pass 5: inter-procedural summaries (reads, writes, checks, consumption, return flow).
  const sums = computeSummaries(all);
  for (const f of all) f.summary = sums.get(f) ?? f.summary;

  function shell(node: Node, contract: string, v: VersionFacts): FunctionFacts {
    const isModifier = node.type === 'ModifierDefinition';
    let kind: FunctionFacts['kind'] = 'function';
    if (isModifier) kind = 'modifier';
    else if (node.isConstructor) kind = 'constructor';
    else if (node.isReceiveEther) kind = 'receive';
    else if (node.isFallback || node.name === '' || node.name === null) kind = 'fallback';
    // Before 0.4.22 (and tolerated until 0.5) a function named like its contract is the constructor.
    if (kind === 'function' && node.name === contract && (v.legacyConstructors || !v.min || semver.lt(v.min, '0.5.0')))
      kind = 'constructor';
    const visibility = node.visibility && node.visibility !== 'default' ? node.visibility : 'public';
    const mut = node.stateMutability ?? null;
    const params = (node.parameters ?? []).map((p: Node) => p?.name).filter(Boolean);
    const name = isModifier ? node.name : node.name || (kind === 'receive' ? 'receive' : kind === 'fallback' ? 'fallback' : 'constructor');
    return {
      key: `${contract}.${name}`,
      name,
      contract,
      node,
      kind,
      visibility,
      isPublic: !isModifier && (visibility === 'public' || visibility === 'external'),
      mutability: mut,
      payable: mut === 'payable',
      isView: mut === 'view' || mut === 'pure' || mut === 'constant' || !!node.isDeclaredConst,
      modifiers: (node.modifiers ?? []).map((m: Node) => ({ name: m.name, node: m, def: null })),
      params,
      locals: new Set(params),
      aliases: new Map(),
      senderLocals: new Set(),
      senderKeys: new Set(),
      arithmeticWrites: new Set(),
      reads: new Set(),
      writes: [],
      externalCalls: [],
      internalCalls: [],
      unresolvedCalls: [],
      transitiveUnresolved: false,
      senderGuard: false,
      opaqueGuard: false,
      calledInternally: false,
      transitiveWrites: new Set(),
      transitiveReads: new Set(),
      transitiveExternal: [],
      reentrancy: [],
      summary: emptySummary(),
      loops: [],
    };
  }

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

  function isStateName(name: string | null, f: FunctionFacts, cf: ContractFacts): name is string {
    return !!name && !f.locals.has(name) && cf.stateVars.has(name);
  }

  /** State variable written through `lhs`, directly or through a storage pointer. */
  function writtenVar(lhs: Node, f: FunctionFacts, cf: ContractFacts): string | null {
    const r = rootName(lhs);
    if (!r) return null;
    if (f.aliases.has(r) && lhs.type !== 'Identifier') return f.aliases.get(r)!;
    return isStateName(r, f, cf) ? r : null;
  }

  function analyzeBody(f: FunctionFacts, cf: ContractFacts) {
    for (const r of f.node.returnParameters ?? []) if (r?.name) f.locals.add(r.name);
    if (!f.node.body) return;
    // Locals first (declarations anywhere in the body shadow state names everywhere: good enough).
    walk(f.node.body, (n) => {
      if (n.type === 'VariableDeclaration' && n.name && !n.isStateVar) {
        f.locals.add(n.name);
      }
    });
    walk(f.node.body, (n) => {
      if (n.type === 'VariableDeclarationStatement') {
        const init = n.initialValue;
        for (const v of n.variables ?? []) {
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
    const loopStack: Node[] = [];
    const visit = (n: Node, p: Node) => {
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
    const inspect = (n: Node, p: Node, inLoop: boolean) => {
      const pos = n.range?.[0] ?? 0;
      switch (n.type) {
        case 'Identifier':
          if (isStateName(n.name, f, cf) && !(p?.type === 'BinaryOperation' && p.operator === '=' && p.left === n)) f.reads.add(n.name);
          else if (f.aliases.has(n.name)) f.reads.add(f.aliases.get(n.name)!);
          break;
        case 'BinaryOperation':
          if (/^(=|\+=|-=|\*=|\/=|%=|\|=|&=|\^=|<<=|>>=)$/.test(n.operator)) {
            const lhs = n.left;
            const targets = lhs?.type === 'TupleExpression' ? (lhs.components ?? []).filter(Boolean) : [lhs];
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
          const ext = classifyCall(n, f, cf);
          if (ext) {
            ext.inLoop = inLoop;
            ext.checked = isChecked(n, f);
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
    visit(f.node.body, null);
  }

  /** Recognises low-level calls, ether transfers and calls into other contracts. */
  function classifyCall(n: Node, f: FunctionFacts, cf: ContractFacts): ExternalCall | null {
    const ex = n.expression;
    if (
      ex?.type === 'MemberAccess' &&
      (ex.memberName === 'value' || ex.memberName === 'gas') &&
      ex.expression?.type === 'MemberAccess' &&
      ['call', 'delegatecall', 'callcode'].includes(ex.expression.memberName)
    ) {
      const p = parent(n);
      if (!(p?.type === 'FunctionCall' && p.expression === n)) {
        const target = ex.expression.expression;
        return {
          node: n,
          kind: ex.expression.memberName,
          target,
          targetText: text(source, target),
          value: ex.memberName === 'value' ? (n.arguments?.[0] ?? null) : null,
          member: null,
          checked: false,
          notInvoked: true,
          inLoop: false,
          line: line(n),
          endLine: endLine(n),
          contract: cf.name,
          function: f.name,
        };
      }
    }
    let callee = n.expression;
    let value: Node = null;
    // Peel `.value(x)` / `.gas(x)` chains and `{value: x, gas: y}` options.
    const chain: Node[] = [];
    for (;;) {
      if (callee?.type === 'NameValueExpression') {
        const names: string[] = callee.arguments?.names ?? [];
        const args: Node[] = callee.arguments?.arguments ?? [];
        const vi = names.indexOf('value');
        if (vi >= 0) value = args[vi];
        callee = callee.expression;
        continue;
      }
      if (
        callee?.type === 'FunctionCall' &&
        callee.expression?.type === 'MemberAccess' &&
        (callee.expression.memberName === 'value' || callee.expression.memberName === 'gas')
      ) {
        if (callee.expression.memberName === 'value') value = callee.arguments?.[0] ?? null;
        chain.push(callee);
        callee = callee.expression.expression;
        continue;
      }
      break;
    }
    if (callee?.type !== 'MemberAccess') return null;
    const member: string = callee.memberName;
    const target = callee.expression;
    const base = {
      node: n,
      target,
      targetText: text(source, target),
      checked: false,
      inLoop: false,
      line: line(n),
      endLine: endLine(n),
      contract: cf.name,
      function: f.kind === 'modifier' ? f.name : f.name,
    };
    if (LOW_LEVEL.has(member)) {
      if (member === 'transfer' || member === 'send') {
        // address.transfer(v) / send(v) take one argument; token.transfer(to, v) is a contract call.
        if ((n.arguments ?? []).length !== 1 || isContractTyped(target, f, cf)) {
          return { ...base, kind: 'external', value, member };
        }
        for (const c of chain) innerCallNodes.add(c);
        return { ...base, kind: member, value: n.arguments[0], member: null };
      }
      if (isContractTyped(target, f, cf)) return { ...base, kind: 'external', value, member };
      for (const c of chain) innerCallNodes.add(c);
      return { ...base, kind: member as CallKind, value, member: null };
    }
    if (isContractTyped(target, f, cf)) {
      for (const c of chain) innerCallNodes.add(c);
      return { ...base, kind: 'external', value, member };
    }
    return null;
  }

  /** The expression has a contract or interface type (so `x.f()` is a message call). */
  function isContractTyped(e: Node, f: FunctionFacts, cf: ContractFacts): boolean {
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

  function isContractTypeName(t: string): boolean {
    const k = contractByName.get(t);
    if (k) return k.kind !== 'library';
    if (structs.has(t) || enums.has(t)) return false;
    // A user-defined type not declared in this file is most likely an imported contract.
    return /^[A-Z_][A-Za-z0-9_]*$/.test(t) && !/^(u?int\d*|bytes\d*|address|bool|string|byte)$/.test(t);
  }

  /** Best-effort static type of `a`, `a[i]`, `a.b` (struct members and mapping values). */
  function exprType(e: Node, f: FunctionFacts, cf: ContractFacts): string | null {
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
        const sd = findStruct(sname);
        const m = sd?.members?.find((x: Node) => x.name === e.memberName);
        return m ? typeText(m.typeName) : null;
      }
    }
    return null;
  }

  function typeNodeOf(e: Node, f: FunctionFacts, cf: ContractFacts): Node {
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
      if (sname && structs.has(sname)) return findStruct(sname)?.members?.find((x: Node) => x.name === e.memberName)?.typeName ?? null;
    }
    return null;
  }

  function findStruct(name: string): Node {
    return structDefs.get(name) ?? null;
  }

  function declOf(name: string, f: FunctionFacts | null, cf: ContractFacts | null): Node {
    if (f) {
      for (const p of [...(f.node.parameters ?? []), ...(f.node.returnParameters ?? [])]) if (p?.name === name) return p;
      let hit: Node = null;
      if (f.node.body)
        walk(f.node.body, (n) => {
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

  /** Whether the result of a call is looked at. */
  function isChecked(n: Node, f: FunctionFacts): boolean {
    let cur = n;
    let p = parent(cur);
    // Climb through expressions that keep the boolean meaning.
    while (
      p &&
      (p.type === 'UnaryOperation' ||
        p.type === 'TupleExpression' ||
        (p.type === 'BinaryOperation' && (p.operator === '&&' || p.operator === '||' || p.operator === '==' || p.operator === '!=')))
    ) {
      cur = p;
      p = parent(cur);
    }
    if (!p) return false;
    if (p.type === 'ExpressionStatement') return false;
    if (p.type === 'FunctionCall') return isRequireLike(p) || p.arguments?.includes(cur);
    if (
      p.type === 'IfStatement' ||
      p.type === 'WhileStatement' ||
      p.type === 'ForStatement' ||
      p.type === 'DoWhileStatement' ||
      p.type === 'Conditional'
    )
      return true;
    if (p.type === 'ReturnStatement') return true;
    if (p.type === 'VariableDeclarationStatement' || (p.type === 'BinaryOperation' && p.operator === '=')) {
      // `bool ok = a.call()` / `(ok, ) = a.call()`: checked when the variable is used later.
      const names: string[] = [];
      if (p.type === 'VariableDeclarationStatement')
        for (const v of p.variables ?? [])
          if (v?.name) names.push(v.name);
          else {
            const l = p.left;
            const comps = l?.type === 'TupleExpression' ? (l.components ?? []) : [l];
            for (const c of comps) if (c?.type === 'Identifier') names.push(c.name);
          }
      if (!names.length) return false;
      const first = names[0];
      const after = p.range?.[1] ?? 0;
      let used = false;
      walk(f.node.body, (x) => {
        if (used) return false;
        if (x.type === 'Identifier' && x.name === first && (x.range?.[0] ?? 0) > after) used = true;
      });
      return used;
    }
    return true;
  }

  /** A table keyed by caller that is not a balance: membership (owners, admins, whitelists). */
  function isMembershipTable(base: Node, f: FunctionFacts, cf: ContractFacts): boolean {
    const r = rootName(base);
    return !!r && isStateName(r, f, cf) && !arithmeticVars.has(r);
  }

  function senderLocals(f: FunctionFacts, cf: ContractFacts) {
    if (!f.node.body) return;
    walk(f.node.body, (n) => {
      if (n.type !== 'VariableDeclarationStatement' || !n.initialValue) return;
      const init = unwrap(n.initialValue);
      const fromSender =
        isMsgSender(init) ||
        isTxOrigin(init) ||
        (init.type === 'IndexAccess' && (isMsgSender(init.index) || isTxOrigin(init.index)) && isMembershipTable(init.base, f, cf));
      if (fromSender) for (const v of n.variables ?? []) if (v?.name) f.senderLocals.add(v.name);
      const bySender = (x: Node) => isMsgSender(x) || isTxOrigin(x) || (x?.type === 'Identifier' && f.senderLocals.has(x.name));
      // The answer of an authorization query about the caller (`(bool ok, ) = _canCall(caller, ...)`,
      // `bool allowed = hasRole(role, msg.sender)`): a bool that a later condition checks.
      if (!fromSender && init.type === 'FunctionCall' && !isTypeConversion(init.expression) && (init.arguments ?? []).some(bySender))
        for (const v of n.variables ?? []) if (v?.name && typeText(v.typeName) === 'bool') f.senderLocals.add(v.name);
      // Values computed from the caller (`bytes32 id = hashOperation(caller, target, data)`): keys
      // of the caller's own records.
      if (some(init, bySender)) for (const v of n.variables ?? []) if (v?.name) f.senderKeys.add(v.name);
    });
  }

  function opaqueGuard(f: FunctionFacts, cf: ContractFacts): boolean {
    if (!cf.unresolvedBase) return false;
    const sender = (a: Node) => isMsgSender(a) || isTxOrigin(a);
    for (const m of f.modifiers) {
      if (!m.def) {
        // An unresolved name that is not a base constructor call of this file. Modifiers that
        // name a lock or a pause switch (nonReentrant, whenNotPaused) say what they check, and it
        // is not the caller.
        if (!contractByName.has(m.name) && f.kind !== 'constructor' && !NOT_CALLER_CHECKS.test(m.name)) return true;
        continue;
      }
      if (m.def.unresolvedCalls.some((c) => !(c.node.arguments ?? []).length || (c.node.arguments ?? []).some(sender))) return true;
    }
    return f.unresolvedCalls.some((c) => (c.node.arguments ?? []).some(sender));
  }

  function hasGuard(f: FunctionFacts, cf: ContractFacts, depth: number): boolean {
    if (depth > 4) return false;
    const body = f.node.body;
    let found = false;
    if (body)
      walk(body, (n) => {
        if (found) return false;
        if (isRequireLike(n) && n.arguments?.[0] && isGuardCondition(n.arguments[0], f, cf, depth)) found = true;
        else if ((n.type === 'IfStatement' || n.type === 'WhileStatement') && isGuardCondition(n.condition, f, cf, depth)) found = true;
      });
    if (found) return true;
    for (const m of f.modifiers) if (m.def && hasGuard(m.def, cf, depth + 1)) return true;
    for (const ic of f.internalCalls) if (ic.callees.some((g) => g !== f && hasGuard(g, cf, depth + 1))) return true;
    return false;
  }

  function isGuardCondition(c: Node, f: FunctionFacts, cf: ContractFacts, depth: number): boolean {
    if (!c) return false;
    const u = unwrap(c);
    if (u.type === 'UnaryOperation' && u.operator === '!') return isGuardCondition(u.subExpression, f, cf, depth);
    if (u.type === 'BinaryOperation') {
      if (u.operator === '&&' || u.operator === '||')
        return isGuardCondition(u.left, f, cf, depth) || isGuardCondition(u.right, f, cf, depth);
      if (u.operator === '==' || u.operator === '!=') {
        const sides = [unwrap(u.left), unwrap(u.right)];
        if (sides.some((s) => isMsgSender(s) || isTxOrigin(s) || (s.type === 'Identifier' && f.senderLocals.has(s.name)))) return true;
        // `owners[msg.sender] != 0`: membership in an owner table.
        const isZero = (s: Node) => s.type === 'NumberLiteral' && Number(s.number) === 0;
        if (
          sides.some(
            (s) => s.type === 'IndexAccess' && (isMsgSender(s.index) || isTxOrigin(s.index)) && isMembershipTable(s.base, f, cf),
          ) &&
          sides.some(isZero)
        )
          return true;
        return false;
      }
      return false;
    }
    if (u.type === 'IndexAccess' && (isMsgSender(u.index) || isTxOrigin(u.index)) && isMembershipTable(u.base, f, cf)) return true;
    if (u.type === 'Identifier' && f.senderLocals.has(u.name) && typeOfName(u.name, f, cf) === 'bool') return true;
    if (u.type === 'FunctionCall') {
      if (
        (u.arguments ?? []).some(
          (a: Node) => isMsgSender(a) || isTxOrigin(a) || (a?.type === 'Identifier' && f.senderLocals.has(a.name) && f.locals.has(a.name)),
        )
      )
        return true;
      if (u.expression?.type === 'Identifier') {
        const g = cf.functions.find((x) => x.name === u.expression.name);
        if (g && g !== f && depth < 4) {
          let ret = false;
          walk(g.node.body ?? {}, (n) => {
            if (ret) return false;
            if (n.type === 'ReturnStatement' && n.expression && isGuardCondition(n.expression, g, cf, depth + 1)) ret = true;
          });
          return ret;
        }
      }
    }
    return false;
  }

  function collectAuthVars(cf: ContractFacts) {
    const fns = [...cf.functions, ...cf.modifiers.values()];
    const addAuth = (name: string, member: string | null) => {
      cf.authVars.add(name);
      if (member === null) cf.authMembers.set(name, null);
      else if (!cf.authMembers.has(name)) cf.authMembers.set(name, new Set([member]));
      else cf.authMembers.get(name)?.add(member);
    };
    for (const f of fns) {
      if (!f.node.body) continue;
      walk(f.node.body, (n) => {
        if (n.type === 'BinaryOperation' && (n.operator === '==' || n.operator === '!=')) {
          const l = unwrap(n.left);
          const r = unwrap(n.right);
          for (const [a, b] of [
            [l, r],
            [r, l],
          ]) {
            if (isMsgSender(a) || isTxOrigin(a)) {
              const name = rootName(b);
              if (name && cf.stateVars.has(name) && !f.locals.has(name)) addAuth(name, memberPath(b).at(-1) ?? null);
            }
          }
        }
        if (isRequireLike(n) || n.type === 'IfStatement') {
          const cond = n.type === 'IfStatement' ? n.condition : n.arguments?.[0];
          walk(cond ?? {}, (x) => {
            if (
              x.type === 'FunctionCall' &&
              x.expression?.type === 'Identifier' &&
              (x.arguments ?? []).some((a: Node) => isMsgSender(a) || isTxOrigin(a))
            ) {
              for (const g of cf.functions)
                if (g.name === x.expression.name) for (const r of g.transitiveReads) if (!cf.stateVars.get(r)?.constant) addAuth(r, null);
            }
          });
        }
        if (n.type === 'IndexAccess' && (isMsgSender(n.index) || isTxOrigin(n.index))) {
          const name = rootName(n.base);
          const sv = name ? cf.stateVars.get(name) : null;
          if (sv && sv.typeNode?.type === 'Mapping' && typeText(mappingValueType(sv.typeNode)) === 'bool') {
            const p = parent(n);
            if (p && (isRequireLike(p) || p.type === 'IfStatement' || (p.type === 'UnaryOperation' && p.operator === '!')))
              addAuth(name!, memberPath(n.base).at(-1) ?? null);
          }
          const p = parent(n);
          if (name && sv && p?.type === 'BinaryOperation' && (p.operator === '==' || p.operator === '!=')) {
            const other = p.left === n ? p.right : p.left;
            if (other?.type === 'NumberLiteral' && Number(other.number) === 0) addAuth(name, memberPath(n.base).at(-1) ?? null);
          }
        }
      });
    }
  }

  const { enclosing, inLoop, inUnchecked, unreachable } = positionLookups(ast, contracts, fnByNode, parent);

  return {
    source,
    file,
    ast,
    version,
    contracts,
    contractByName,
    structs,
    enums,
    externalCallByNode,
    innerCallNodes,
    parent,
    enclosing,
    inLoop,
    inUnchecked,
    unreachable,
    typeOf: (name, fn, c) => typeOfName(name, fn, c),
    typeOfExpr: (e, fn, c) => (fn && c ? exprType(e, fn, c) : null),
    functionsByKey,
  };
}

export { isHashCall, isTypeConversion };

/** Struct members on the path of an lvalue/expression, outermost first (`a[i].b.c[0]` → [c, b]). */
export function memberPath(node: Node): string[] {
  const out: string[] = [];
  let n = node;
  while (n) {
    if (n.type === 'MemberAccess') {
      out.push(n.memberName);
      n = n.expression;
    } else if (n.type === 'IndexAccess' || n.type === 'IndexRangeAccess') n = n.base;
    else if (n.type === 'TupleExpression' && n.components?.length === 1) n = n.components[0];
    else break;
  }
  return out;
}
