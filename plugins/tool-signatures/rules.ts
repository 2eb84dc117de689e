// Layer 8 rules (cross-chain and signatures), ESLint-shaped detectors run by this plugin's own
// tool over the shared static facts (they are not registered as layer-1 detectors).
import {
  argumentFlow,
  conditions,
  isRequireLike,
  line,
  reachableFunctions,
  some,
  walk,
  type FunctionFacts,
  type Node,
  type StaticDetector,
  type StaticFacts,
  identName,
  calleeName,
  declaredVariables,
  asNodes,
  firstDeclaredName,
  type MaybeNode,
  type Recognised,
  type AST,
  elementaryName,
  assignedExpr,
  afterTraversal,
} from '../../lib/analysis/static/index.ts';

/** secp256k1n / 2: the upper bound EIP-2 puts on `s`. */
const HALF_N = 0x7fffffffffffffffffffffffffffffff5d576e73_57a4501d_dfe92f46_681b20a0n;

const isEcrecover = (n: MaybeNode): n is Recognised<AST.FunctionCall> =>
  n?.type === 'FunctionCall' && n.expression?.type === 'Identifier' && n.expression.name === 'ecrecover';
/** OpenZeppelin ECDSA: `ECDSA.recover(h, sig)` or `h.recover(sig)` (rejects malleable s and address(0)). */
const isOzRecover = (n: MaybeNode): n is Recognised<AST.FunctionCall & { expression: AST.MemberAccess }> =>
  n?.type === 'FunctionCall' &&
  n.expression?.type === 'MemberAccess' &&
  (n.expression.memberName === 'recover' || n.expression.memberName === 'tryRecover');
const isChainId = (n: Node) =>
  (n?.type === 'MemberAccess' && n.memberName === 'chainid' && identName(n.expression) === 'block') ||
  (n?.type === 'AssemblyCall' && n.functionName === 'chainid');
const isThis = (n: Node) => n?.type === 'Identifier' && n.name === 'this';
/** OpenZeppelin EIP712 helpers fold chain id and this contract into the digest. */
const isEip712Helper = (n: Node) =>
  n?.type === 'FunctionCall' &&
  ((n.expression?.type === 'Identifier' && /^_(hashTypedDataV4|domainSeparatorV4)$/.test(n.expression.name)) ||
    (n.expression?.type === 'MemberAccess' && n.expression.memberName === 'toTypedDataHash'));
const isBlockTime = (n: Node) =>
  (n?.type === 'MemberAccess' && n.memberName === 'timestamp' && identName(n.expression) === 'block') ||
  (n?.type === 'Identifier' && n.name === 'now');

const isBlockNumber = (n: Node) => n?.type === 'MemberAccess' && n.memberName === 'number' && identName(n.expression) === 'block';
/** A call that reads the clock through a helper or library (`Time.timestamp()`, `clock()`). */
const isClockCall = (n: Node) =>
  n?.type === 'FunctionCall' &&
  /^(_?(block)?timestamp|_?blockNumber|clock|_?now|_?currentTime|_?getBlockTimestamp)$/i.test(calleeName(n.expression) ?? '');

/** Whether `body` compares `name` (ordering comparison) with the current time or block. */
function comparesWithTime(body: Node, name: string, fn: FunctionFacts): boolean {
  const clockLocals = new Set<string>();
  walk(body, (n) => {
    if (
      n.type === 'VariableDeclarationStatement' &&
      n.initialValue &&
      some(n.initialValue, (m) => isBlockTime(m) || isBlockNumber(m) || isClockCall(m))
    )
      for (const v of declaredVariables(n)) if (v?.name) clockLocals.add(v.name);
  });
  const isClock = (m: Node) =>
    isBlockTime(m) || isBlockNumber(m) || isClockCall(m) || (m.type === 'Identifier' && clockLocals.has(m.name) && fn.locals.has(m.name));
  let hit = false;
  walk(body, (n) => {
    if (hit) return false;
    if (
      n.type === 'BinaryOperation' &&
      ['<', '<=', '>', '>='].includes(n.operator) &&
      some(n, isClock) &&
      some(n, (m) => m.type === 'Identifier' && m.name === name)
    )
      hit = true;
  });
  return hit;
}

function numberValue(n: Node): bigint | null {
  if (n?.type !== 'NumberLiteral') return null;
  try {
    return BigInt(String(n.number).replace(/_/g, ''));
  } catch {
    return null;
  }
}

/** Expressions that make up the signed digest: the hash argument plus, transitively, the
 *  initializers/assignments of locals it names and of state variables (domain separators). */
function digestMaterial(arg: Node, fn: FunctionFacts, facts: StaticFacts): Node[] {
  const out: Node[] = [];
  const seen = new Set<string>();
  const { contract } = facts.enclosing(fn.node);
  // Each expression is read in the scope of the function it comes from: a domain separator
  // assigned in the constructor from a constructor local (`chainId := chainid()`) is followed there.
  const queue: Array<{ e: Node; in: FunctionFacts }> = [{ e: arg, in: fn }];
  while (queue.length && out.length < 64) {
    const { e, in: scope } = queue.shift()!;
    out.push(e);
    walk(e, (n) => {
      if (n.type !== 'Identifier') return;
      const key = `${scope.key}@${scope.node.range?.[0]}:${n.name}`;
      if (seen.has(key)) return;
      seen.add(key);
      // Locals: declaration initializers and later assignments (also in inline assembly).
      if (scope.locals.has(n.name) && scope.node.body)
        walk(scope.node.body, (m) => {
          if (m.type === 'VariableDeclarationStatement' && m.initialValue && declaredVariables(m).some((v) => v?.name === n.name))
            queue.push({ e: m.initialValue, in: scope });
          if (m.type === 'BinaryOperation' && m.operator === '=' && m.left?.type === 'Identifier' && m.left.name === n.name)
            queue.push({ e: m.right, in: scope });
          if (m.type === 'AssemblyAssignment' && asNodes(m.names).some((x) => identName(x) === n.name) && m.expression)
            queue.push({ e: m.expression, in: scope });
        });
      // State variables: initializer and assignments anywhere in the contract (constructor).
      const sv = contract?.stateVars.get(n.name);
      if (sv && !scope.locals.has(n.name)) {
        if (sv.node.expression) queue.push({ e: sv.node.expression, in: scope });
        for (const g of contract!.functions) {
          if (!g.node.body) continue;
          walk(g.node.body, (m) => {
            if (m.type === 'BinaryOperation' && m.operator === '=' && m.left?.type === 'Identifier' && m.left.name === n.name)
              queue.push({ e: m.right, in: g });
          });
        }
      }
      // Internal helpers that build the digest (getDigest(...), domainSeparator()).
      const callee = contract?.functions.find((g) => g.name === n.name && g.kind === 'function');
      if (callee?.node.body)
        walk(callee.node.body, (m) =>
          m.type === 'ReturnStatement' && m.expression ? (queue.push({ e: m.expression, in: callee }), false) : undefined,
        );
    });
  }
  return out;
}

interface SigSite {
  call: Node;
  fn: FunctionFacts;
  oz: boolean;
  material: Node[];
  /** The local the recovered address is stored in, if any. */
  signer: string | null;
  /** A helper that recovers whatever digest it is handed: judged at its call sites. */
  helper: boolean;
}

const cache = new WeakMap<StaticFacts, SigSite[]>();

function sigSites(facts: StaticFacts): SigSite[] {
  const hit = cache.get(facts);
  if (hit) return hit;
  const out: SigSite[] = [];
  const helpers: Array<{ fn: FunctionFacts; index: number }> = [];
  const site = (n: Node, fn: FunctionFacts, hashArg: Node, oz: boolean, helper: boolean) => {
    const p = facts.parent(n);
    let signer: string | null = null;
    if (p?.type === 'VariableDeclarationStatement') signer = firstDeclaredName(p);
    else if (p?.type === 'BinaryOperation' && p.operator === '=' && p.left?.type === 'Identifier') signer = p.left.name;
    out.push({ call: n, fn, oz, material: digestMaterial(hashArg, fn, facts), signer, helper });
  };
  for (const c of facts.contracts) {
    for (const fn of c.ownFunctions) {
      if (!fn.node.body) continue;
      walk(fn.node.body, (n) => {
        if (!isEcrecover(n) && !isOzRecover(n)) return;
        const call: AST.FunctionCall = n;
        const oz = !isEcrecover(call);
        const hashArg =
          oz && call.expression.type === 'MemberAccess' && call.expression.memberName && call.arguments.length === 1
            ? call.expression.expression
            : call.arguments?.[0];
        if (!hashArg) return;
        // recover(bytes32 hash, ...) inside an internal helper or a library: the digest is the caller's.
        const idx = hashArg.type === 'Identifier' ? (fn.node.parameters ?? []).findIndex((p) => p?.name === hashArg.name) : -1;
        const helper = idx >= 0 && (!fn.isPublic || c.kind === 'library');
        if (helper) helpers.push({ fn, index: idx });
        site(n, fn, hashArg, oz, helper);
      });
    }
  }
  // Call sites of helpers become sites of their own, with the caller's digest.
  for (const h of helpers) {
    for (const c of facts.contracts) {
      for (const fn of c.ownFunctions) {
        if (!fn.node.body || fn === h.fn) continue;
        walk(fn.node.body, (n) => {
          if (n.type !== 'FunctionCall') return;
          const e = n.expression;
          let arg: Node | null = null;
          if (e?.type === 'Identifier' && e.name === h.fn.name) arg = n.arguments?.[h.index] ?? null;
          else if (e?.type === 'MemberAccess' && e.memberName === h.fn.name) {
            // Library call `Lib.f(h, ...)` or bound `h.f(...)`.
            const bound = !(e.expression?.type === 'Identifier' && facts.contractByName.get(e.expression.name)?.kind === 'library');
            arg = bound ? (h.index === 0 ? e.expression : n.arguments?.[h.index - 1]) : n.arguments?.[h.index];
          }
          if (arg) site(n, fn, arg, true, false);
        });
      }
    }
  }
  cache.set(facts, out);
  return out;
}

/** State mappings whose entry the digest reads (`nonces[owner]`). */
function nonceReads(site: SigSite, facts: StaticFacts): string[] {
  const { contract } = facts.enclosing(site.fn.node);
  const out = new Set<string>();
  for (const m of site.material)
    walk(m, (n) => {
      if (
        n.type === 'IndexAccess' &&
        n.base?.type === 'Identifier' &&
        contract?.stateVars.has(n.base.name) &&
        !site.fn.locals.has(n.base.name)
      )
        out.add(n.base.name);
      // `nonces[owner]++` inside the encode call.
      if (n.type === 'Identifier' && contract?.stateVars.get(n.name)?.type.startsWith('uint') && !site.fn.locals.has(n.name))
        out.add(n.name);
    });
  return [...out];
}

/** The function marks something as used: writes a state mapping entry that it also checks. */
function marksProcessed(fn: FunctionFacts): boolean {
  const checked = new Set<string>();
  const body = fn.node.body;
  if (!body) return false;
  walk(body, (n) => {
    const cond = isRequireLike(n) ? n.arguments?.[0] : n.type === 'IfStatement' ? n.condition : null;
    if (cond)
      walk(cond, (m) => (m.type === 'IndexAccess' && m.base?.type === 'Identifier' ? (checked.add(m.base.name), undefined) : undefined));
  });
  return fn.writes.some((w) => checked.has(w.variable) && assignedExpr(w.node)?.type === 'IndexAccess');
}

/** Names whose value is part of the signed material or is the recovered signer. */
function signedNames(site: SigSite): Set<string> {
  const out = new Set<string>();
  for (const p of site.fn.node.parameters ?? [])
    if (p?.name && site.material.some((m) => some(m, (n) => n.type === 'Identifier' && n.name === p.name))) out.add(p.name);
  if (site.signer) out.add(site.signer);
  return out;
}

function consumedOutOfSight(site: SigSite, fn: FunctionFacts): boolean {
  const params = new Set<string>(fn.params);
  // An imported helper in the digest that is handed a caller's parameter (`_useNonce(owner)`);
  // digest builders that take the hash (`_hashTypedDataV4(structHash)`) consume nothing.
  const unresolvedNodes = new Set<Node>(
    reachableFunctions(fn).flatMap((g) =>
      g.unresolvedCalls
        .filter((c) => (c.node.arguments ?? []).some((a) => a?.type === 'Identifier' && (params.has(a.name) || a.name === site.signer)))
        .map((c) => c.node),
    ),
  );
  if (site.material.some((m) => some(m, (n) => unresolvedNodes.has(n)))) return true;
  for (const name of signedNames(site)) if (argumentFlow(fn, name).unresolved) return true;
  return false;
}

/** A signed value or the signer reaches an in-file helper that checks it against state it also
 *  updates (`_useCheckedNonce(signer, nonce)`: `require(nonce == _useNonce(owner))`). */
function consumedByHelper(site: SigSite, fn: FunctionFacts): boolean {
  for (const name of signedNames(site)) {
    for (const s of argumentFlow(fn, name).sites) {
      if (s.fn === fn || !s.fn.node.body) continue;
      const updatesWhatItReads = [...s.fn.transitiveWrites].some((v) => s.fn.transitiveReads.has(v));
      if (updatesWhatItReads && conditions(s.fn.node.body).some((c) => some(c, (x) => x.type === 'Identifier' && x.name === s.name)))
        return true;
    }
  }
  return false;
}

export const signatureReplayRule: StaticDetector = {
  meta: {
    id: 'signature-replay',
    layer: 8,
    title: 'Signature can be replayed',
    severity: 'HIGH',
    confidence: 0.7,
    category: 'access_control',
    swc: 'SWC-121',
    cwe: 'CWE-294',
    description: 'A signature authorizes an action, but the signed digest does not bind it to a single use, chain and contract.',
    recommendation:
      'Sign an EIP-712 digest that includes a per-signer nonce (incremented on use) or mark each digest as used, plus block.chainid and address(this) (OpenZeppelin EIP712 + Nonces).',
    exploit_scenario:
      'Anyone who saw a valid signature submits it again (or on another chain / a copy of the contract) and repeats the transfer it authorized.',
    messages: {
      replay: 'The digest verified in `{{fn}}` has no nonce and the function never marks it used: the same signature works again{{more}}.',
      nonceNotIncremented:
        'The digest in `{{fn}}` reads `{{nonce}}` but the function never updates it: the nonce does not change, so the signature can be replayed.',
      crossChain: 'The digest verified in `{{fn}}` is single-use but lacks {{missing}}: it can be replayed {{where}}.',
    },
  },
  create: afterTraversal((facts, context) => {
    for (const site of sigSites(facts)) {
      const { fn, material } = site;
      // A helper is judged where it is called; a view only checks, it authorizes nothing.
      if (site.helper || fn.isView) continue;
      const eip712 = material.some((m) => some(m, isEip712Helper));
      const chain = eip712 || material.some((m) => some(m, isChainId));
      const self = eip712 || material.some((m) => some(m, isThis));
      const nonces = nonceReads(site, facts);
      const written = nonces.filter((v) => fn.transitiveWrites.has(v));
      // Consumption may happen in any in-file helper the function reaches (`_consumeNonce`).
      // The inter-procedural summary says the same through any depth of helpers: a signed
      // value or the signer keys an entry stepped or marked used (`_useNonce(owner)`).
      const marked =
        reachableFunctions(fn).some(marksProcessed) ||
        consumedByHelper(site, fn) ||
        [...signedNames(site)].some((n) => fn.summary.consumedByParam.has(n));
      // A digest built from an imported helper's result (`_useNonce(owner)`), or a signed value
      // or the signer handed to one (`_useCheckedNonce(signer, nonce)`), may be consumed in code
      // this file does not contain: the rule cannot tell, so it claims nothing about replay.
      if (!written.length && !marked && consumedOutOfSight(site, fn)) continue;
      const missing = [!chain && 'the chain id', !self && 'the contract address'].filter(Boolean) as string[];
      if (!written.length && !marked) {
        if (nonces.length) context.report({ node: site.call, messageId: 'nonceNotIncremented', data: { fn: fn.name, nonce: nonces[0] } });
        else
          context.report({
            node: site.call,
            messageId: 'replay',
            data: { fn: fn.name, more: missing.length ? ` (it also lacks ${missing.join(' and ')})` : '' },
          });
      } else if (missing.length) {
        context.report({
          node: site.call,
          messageId: 'crossChain',
          severity: chain ? 'LOW' : 'MEDIUM',
          data: {
            fn: fn.name,
            missing: missing.join(' and '),
            where: [
              !chain && 'on another chain (after a fork or on an L2 deployment)',
              !self && 'against another deployment of this contract',
            ]
              .filter(Boolean)
              .join(' or '),
          },
        });
      }
    }
  }),
};

export const ecrecoverMalleabilityRule: StaticDetector = {
  meta: {
    id: 'ecrecover-malleability',
    layer: 8,
    title: 'ecrecover accepts malleable signatures',
    severity: 'LOW',
    confidence: 0.6,
    category: 'access_control',
    swc: 'SWC-117',
    cwe: 'CWE-347',
    description: 'Raw ecrecover accepts both (r, s) and (r, n - s): every signature has a second valid form.',
    recommendation:
      'Use OpenZeppelin ECDSA.recover, or require(uint256(s) <= 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0) and v in {27, 28}.',
    messages: {
      malleable: '`{{fn}}` calls ecrecover without bounding `s`{{keyed}}.',
    },
  },
  create: afterTraversal((facts, context) => {
    for (const site of sigSites(facts)) {
      if (site.oz) continue;
      const { contract } = facts.enclosing(site.fn.node);
      const bounded = some(contract?.node ?? site.fn.node, (n) => {
        const v = numberValue(n);
        return v !== null && v === HALF_N;
      });
      if (bounded) continue;
      // Malleability turns into a replay when "used" is keyed by the signature bytes.
      let keyedBySig = false;
      for (const g of contract?.functions ?? []) {
        if (!g.node.body) continue;
        // Signature bytes (a `bytes` parameter, or r/s) reaching a mapping key, directly or via a local.
        const sigParams = new Set<string>(
          (g.node.parameters ?? [])
            .filter(
              (p): p is Named =>
                elementaryName(p?.typeName) === 'bytes' ||
                (elementaryName(p?.typeName) === 'bytes32' && p.name !== null && /^_?[rs]$/.test(p.name)),
            )
            .map((p) => p.name),
        );
        if (!sigParams.size) continue;
        const tainted = new Set(sigParams);
        walk(g.node.body, (n) => {
          // The recovered signer is not the signature: its identity is the same for both forms.
          if (
            n.type === 'VariableDeclarationStatement' &&
            n.initialValue &&
            !isEcrecover(n.initialValue) &&
            !isOzRecover(n.initialValue) &&
            some(n.initialValue, (m) => m.type === 'Identifier' && tainted.has(m.name))
          )
            for (const v of declaredVariables(n)) if (v?.name) tainted.add(v.name);
        });
        walk(g.node.body, (n) => {
          if (n.type === 'IndexAccess' && some(n.index, (m) => m.type === 'Identifier' && tainted.has(m.name))) keyedBySig = true;
        });
      }
      context.report({
        node: site.call,
        messageId: 'malleable',
        severity: keyedBySig ? 'MEDIUM' : 'LOW',
        data: {
          fn: site.fn.name,
          keyed: keyedBySig ? '; the function keys replay protection on the signature itself, so the second form passes it' : '',
        },
      });
    }
  }),
};

export const ecrecoverZeroAddressRule: StaticDetector = {
  meta: {
    id: 'ecrecover-zero-address',
    layer: 8,
    title: 'ecrecover result not checked against address(0)',
    severity: 'MEDIUM',
    confidence: 0.6,
    category: 'access_control',
    swc: 'SWC-117',
    cwe: 'CWE-252',
    description: 'ecrecover returns address(0) for an invalid signature instead of failing.',
    recommendation: 'require(signer != address(0)) before comparing, or use OpenZeppelin ECDSA.recover (which reverts).',
    messages: {
      zero: 'The address recovered in `{{fn}}` is compared with {{what}} but never with address(0): an invalid signature "signs" for the zero address.',
    },
  },
  create: afterTraversal((facts, context) => {
    for (const site of sigSites(facts)) {
      if (site.oz) continue;
      const name = site.signer;
      const refersSigner = (n: Node) => (name ? n?.type === 'Identifier' && n.name === name : n === site.call);
      let zeroChecked = false;
      // Assigned in the walk's callback: the cast keeps TypeScript from narrowing it to null.
      let comparedWith = null as Node | null;
      walk(site.fn.node.body, (n) => {
        if (n.type !== 'BinaryOperation' || (n.operator !== '==' && n.operator !== '!=')) return;
        const [a, b] = [n.left, n.right];
        const other = refersSigner(a) || some(a, refersSigner) ? b : refersSigner(b) || some(b, refersSigner) ? a : null;
        if (!other) return;
        const inner = other.type === 'FunctionCall' && other.arguments?.length === 1 ? other.arguments[0] : other;
        if (numberValue(inner) === 0n) zeroChecked = true;
        else comparedWith ??= other;
      });
      if (zeroChecked || !comparedWith) continue;
      const c = comparedWith;
      const root = c.type === 'IndexAccess' ? c.base : c;
      const isParam = root?.type === 'Identifier' && site.fn.params.includes(root.name);
      const isTable = c.type === 'IndexAccess';
      if (!isParam && !isTable) {
        // Compared with a state variable: only a problem while it is unset.
        context.report({
          node: site.call,
          messageId: 'zero',
          severity: 'LOW',
          data: { fn: site.fn.name, what: 'a state variable (dangerous while it is unset)' },
        });
      } else
        context.report({
          node: site.call,
          messageId: 'zero',
          data: { fn: site.fn.name, what: isParam ? 'a caller-supplied address' : 'an entry of a table (address(0) for unknown keys)' },
        });
    }
  }),
};

export const permitDeadlineRule: StaticDetector = {
  meta: {
    id: 'permit-deadline',
    layer: 8,
    title: 'Signed deadline not enforced',
    severity: 'MEDIUM',
    confidence: 0.65,
    category: 'time_manipulation',
    swc: 'SWC-121',
    cwe: 'CWE-613',
    description:
      'A deadline is part of the signed message but the function never compares it with block.timestamp, so an expired signature still works.',
    recommendation: 'require(block.timestamp <= deadline) before verifying the signature (EIP-2612).',
    messages: { deadline: '`{{fn}}` signs `{{param}}` but never checks it against block.timestamp.' },
  },
  create: afterTraversal((facts, context) => {
    for (const site of sigSites(facts)) {
      const fn = site.fn;
      const params = (fn.node.parameters ?? []).filter(
        (p): p is Named =>
          !!p?.name &&
          /^_?(deadline|expiry|expiration|validUntil|validBefore)$/i.test(p.name) &&
          /^uint/.test(elementaryName(p.typeName) ?? ''),
      );
      for (const p of params) {
        const signed = site.material.some((m) => some(m, (n) => n.type === 'Identifier' && n.name === p.name));
        if (!signed) continue;
        // Checked here or in any in-file helper the value is handed to (`_checkValidity(after,
        // before)`); handed to imported code, it may be checked there (unknown: no claim).
        const flow = argumentFlow(fn, p.name);
        if (flow.unresolved) continue;
        let checked = false;
        for (const s of flow.sites) {
          for (const body of [
            s.fn.node.body,
            ...s.fn.modifiers
              .filter((m) => (m.node.arguments ?? []).some((a) => some(a, (x) => x.type === 'Identifier' && x.name === s.name)))
              .map((m) => m.def?.node.body),
          ]) {
            if (body && comparesWithTime(body, s.name, s.fn)) checked = true;
          }
        }
        if (!checked) context.report({ node: p, messageId: 'deadline', data: { fn: fn.name, param: p.name } });
      }
    }
  }),
};

/** Entry points of the common cross-chain messaging interfaces (LayerZero, CCIP, Hyperlane,
 *  Wormhole, Connext, Axelar, Polygon FxPortal, arbitrary "bridge" receivers). */
/** A parameter with a name. */
type Named = AST.VariableDeclaration & { name: string };

const HANDLER_NAMES =
  /^_?(lzReceive|nonblockingLzReceive|_nonblockingLzReceive|ccipReceive|handle|receiveWormholeMessages|xReceive|execute(WithToken)?|_execute(WithToken)?|processMessageFromRoot|_processMessageFromRoot|processMessageFromChild|receiveMessage|onMessageReceived|anyExecute|bridgeReceive|finalizeBridge\w*|relayMessage)$/;
const CHAIN_TYPES = /^(uint16|uint32|uint64|uint256|string)$/;

function isHandler(fn: FunctionFacts): boolean {
  if (fn.kind !== 'function' || fn.isView) return false;
  const params: AST.VariableDeclaration[] = fn.node.parameters ?? [];
  const hasPayload = params.some((p) => elementaryName(p?.typeName) === 'bytes' || p?.typeName?.type === 'UserDefinedTypeName');
  if (!hasPayload) return false;
  if (!HANDLER_NAMES.test(fn.name)) return false;
  // The name alone is generic (execute, handle): a handler also takes a source chain or sender id.
  const bytesLike = params.filter((p) => elementaryName(p?.typeName) === 'bytes' || elementaryName(p?.typeName) === 'string').length;
  return params.some((p) => /^(uint16|uint32|uint64|bytes32)$/.test(elementaryName(p?.typeName) ?? '')) || bytesLike > 1;
}

export const bridgeVerificationRule: StaticDetector = {
  meta: {
    id: 'bridge-message-verification',
    layer: 8,
    title: 'Cross-chain message handler does not verify its source',
    severity: 'HIGH',
    confidence: 0.6,
    category: 'access_control',
    swc: null,
    cwe: 'CWE-346',
    description:
      'A cross-chain message handler must accept messages only from the messaging endpoint and only from the expected chain and sender, and must not process a message twice.',
    recommendation:
      'require(msg.sender == endpoint), check the source chain and the remote sender against a trusted table, and record processed message ids.',
    messages: { gaps: 'Handler `{{fn}}`: {{gaps}}.' },
  },
  create: afterTraversal((facts, context) => {
    for (const c of facts.contracts) {
      if (c.kind === 'interface' || c.kind === 'library') continue;
      for (const fn of c.ownFunctions) {
        if (!isHandler(fn) || !fn.node.body) continue;
        const params = (fn.node.parameters ?? []).filter((p): p is Named => !!p?.name);
        // One finding per handler, naming every gap (they share a fix and a location).
        const gaps: string[] = [];
        let severity: 'HIGH' | 'MEDIUM' = 'MEDIUM';
        if (fn.isPublic && !fn.senderGuard) {
          gaps.push(`it never checks that msg.sender is the messaging endpoint, so anyone can forge a message`);
          severity = 'HIGH';
        }
        const bytesParams = params.filter((q) => elementaryName(q.typeName) === 'bytes');
        // Parameters that say what to call (target, value, calldata of an executor such as a
        // timelock's execute) describe the action, not where a message came from.
        const describesCall = (name: string) =>
          argumentFlow(fn, name).sites.some((st) =>
            st.fn.externalCalls.some((c) =>
              [c.target, c.value].some((x) => x && some(x, (m) => m.type === 'Identifier' && m.name === st.name)),
            ),
          );
        const sourceParams = params.filter(
          (p) =>
            (CHAIN_TYPES.test(elementaryName(p.typeName) ?? '') ||
              elementaryName(p.typeName) === 'address' ||
              (elementaryName(p.typeName) === 'bytes' && bytesParams.length > 1 && p !== bytesParams.at(-1))) &&
            !describesCall(p.name),
        );
        if (sourceParams.length && !sourceParams.some((p) => usedInCondition(fn, p.name))) {
          gaps.push(
            `it never checks the source chain or remote sender (${sourceParams.map((p) => p.name).join(', ')}), so any contract on any chain can send it messages`,
          );
        }
        const idParam = params.find((p) => elementaryName(p.typeName) === 'bytes32' && /id|hash|guid|nonce/i.test(p.name));
        // An id handed to a hook a derived contract implements may be recorded there.
        if (
          idParam &&
          !argumentFlow(fn, idParam.name).unresolved &&
          !fn.writes.some((w) =>
            some(w.node, (n) => n.type === 'IndexAccess' && some(n.index, (m) => m.type === 'Identifier' && m.name === idParam.name)),
          )
        ) {
          gaps.push(
            `it receives message id \`${idParam.name}\` but never records it as processed, so a relayed message can be delivered again`,
          );
        }
        if (gaps.length)
          context.report({
            node: fn.node,
            loc: { line: line(fn.node) },
            messageId: 'gaps',
            severity,
            data: { fn: fn.name, gaps: gaps.join('; ') },
          });
      }
    }
  }),
};

/** Whether a parameter appears in a require/if condition of the function or of a modifier it is passed to. */
function usedInCondition(fn: FunctionFacts, name: string): boolean {
  const mentions = (n: Node) => some(n, (m) => m.type === 'Identifier' && m.name === name);
  let hit = false;
  walk(fn.node.body, (n) => {
    if (hit) return false;
    const cond = isRequireLike(n) ? n.arguments?.[0] : n.type === 'IfStatement' ? n.condition : null;
    if (cond && mentions(cond)) hit = true;
    // Passed to a helper that checks it (_checkSource(srcChain, sender)).
    if (
      n.type === 'FunctionCall' &&
      n.expression?.type === 'Identifier' &&
      !isRequireLike(n) &&
      (n.arguments ?? []).some(mentions) &&
      /check|verify|valid|trusted|only|require|auth/i.test(n.expression.name)
    )
      hit = true;
  });
  if (hit) return true;
  return fn.modifiers.some((m) => (m.node.arguments ?? []).some(mentions));
}

export const SIGNATURE_RULES: StaticDetector[] = [
  signatureReplayRule,
  ecrecoverMalleabilityRule,
  ecrecoverZeroAddressRule,
  permitDeadlineRule,
  bridgeVerificationRule,
];
