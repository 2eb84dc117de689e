// The declarations pass of computeFacts: parent links, the file's structs, enums and other
// declared names, each contract with its C3 linearization, the state variables and functions it
// sees (inherited ones included, most-derived first) and a fact shell for every function and
// modifier, filled in by the later passes. The result is the file scope they all share.
import semver from 'semver';
import { asNodes, walk, typeText, type AST, type Node } from './ast.ts';
import type { ContractFacts, ExternalCall, FunctionFacts, FunctionNode, StaticFacts, VersionFacts } from './facts.ts';
import { emptySummary } from './summaries.ts';
import { versionFacts } from './version.ts';

/** What the passes after declarations share about one file. */
export interface FileScope {
  ast: AST.SourceUnit;
  source: string;
  version: VersionFacts;
  parent: StaticFacts['parent'];
  structs: Set<string>;
  structDefs: Map<string, AST.StructDefinition>;
  enums: Set<string>;
  /** Names declared in the file outside contracts' functions: events, errors, free functions. */
  fileDeclared: Set<string>;
  contracts: ContractFacts[];
  contractByName: Map<string, ContractFacts>;
  functionsByKey: Map<string, FunctionFacts>;
  fnByNode: Map<Node, FunctionFacts>;
  externalCallByNode: Map<Node, ExternalCall>;
  innerCallNodes: Set<Node>;
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

/** A function or modifier's fact shell: its declaration; what its body does comes later. */
function shell(node: FunctionNode, contract: string, v: VersionFacts): FunctionFacts {
  const fn = node.type === 'FunctionDefinition' ? node : null;
  let kind: FunctionFacts['kind'] = 'function';
  if (!fn) kind = 'modifier';
  else if (fn.isConstructor) kind = 'constructor';
  else if (fn.isReceiveEther) kind = 'receive';
  else if (fn.isFallback || fn.name === '' || fn.name === null) kind = 'fallback';
  // Before 0.4.22 (and tolerated until 0.5) a function named like its contract is the constructor.
  if (kind === 'function' && node.name === contract && (v.legacyConstructors || !v.min || semver.lt(v.min, '0.5.0'))) kind = 'constructor';
  const visibility = fn?.visibility && fn.visibility !== 'default' ? fn.visibility : 'public';
  const mut = fn?.stateMutability ?? null;
  const params = (node.parameters ?? []).map((p) => p?.name).filter((n): n is string => !!n);
  const name =
    node.type === 'ModifierDefinition'
      ? node.name
      : node.name || (kind === 'receive' ? 'receive' : kind === 'fallback' ? 'fallback' : 'constructor');
  return {
    key: `${contract}.${name}`,
    name,
    contract,
    node,
    kind,
    visibility,
    isPublic: !!fn && (visibility === 'public' || visibility === 'external'),
    mutability: mut,
    payable: mut === 'payable',
    // `function f() constant` (before 0.5) parses as stateMutability 'constant'.
    isView: mut === 'view' || mut === 'pure' || mut === 'constant',
    modifiers: (fn?.modifiers ?? []).map((m) => ({ name: m.name, node: m, def: null })),
    params,
    locals: new Set(params),
    aliases: new Map(),
    senderLocals: new Set(),
    senderKeys: new Set(),
    returnsCaller: false,
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

export function declarations(ast: AST.SourceUnit, source: string): FileScope {
  const parents = new Map<Node, Node | null>();
  walk(ast, (n, p) => {
    parents.set(n, p);
  });
  const parent = (n: Node) => parents.get(n) ?? null;

  const structs = new Set<string>();
  const structDefs = new Map<string, AST.StructDefinition>();
  const enums = new Set<string>();
  const contractNodes: AST.ContractDefinition[] = [];
  walk(ast, (n) => {
    if (n.type === 'ContractDefinition') contractNodes.push(n);
    if (n.type === 'StructDefinition') {
      structs.add(n.name);
      if (!structDefs.has(n.name)) structDefs.set(n.name, n);
    }
    if (n.type === 'EnumDefinition') enums.add(n.name);
  });
  const fileDeclared = new Set<string>();
  walk(ast, (n) => {
    if ((n.type === 'EventDefinition' || n.type === 'CustomErrorDefinition' || (n.type === 'FunctionDefinition' && n.name)) && n.name)
      fileDeclared.add(n.name);
  });
  const basesOf = new Map<string, string[]>();
  for (const c of contractNodes)
    basesOf.set(
      c.name,
      (c.baseContracts ?? []).map((b) => b.baseName?.namePath).filter((n): n is string => !!n),
    );
  const nodeByName = new Map<string, AST.ContractDefinition>(contractNodes.map((c) => [c.name, c]));

  const version = versionFacts(ast, source);
  const contracts: ContractFacts[] = [];
  const contractByName = new Map<string, ContractFacts>();
  const functionsByKey = new Map<string, FunctionFacts>();
  const fnByNode = new Map<Node, FunctionFacts>();

  // Contracts and the shells of their own functions and modifiers.
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
      authVarsBy: new Map(),
      constantAuth: false,
      hasConstructor: false,
      unresolvedBase: lin.some((n) => (basesOf.get(n) ?? []).some((b) => !basesOf.has(b))),
    };
    contracts.push(cf);
    contractByName.set(c.name, cf);
    for (const sub of asNodes(c.subNodes)) {
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
      for (const sub of asNodes(cn.subNodes)) {
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

  return {
    ast,
    source,
    version,
    parent,
    structs,
    structDefs,
    enums,
    fileDeclared,
    contracts,
    contractByName,
    functionsByKey,
    fnByNode,
    externalCallByNode: new Map(),
    innerCallNodes: new Set(),
  };
}
