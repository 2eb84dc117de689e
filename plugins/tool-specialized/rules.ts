// Layer 7 rules (DeFi, upgradeability, gas), ESLint-shaped detectors run by this plugin's own
// tool over the shared static facts (they are not registered as layer-1 detectors).
import {
  headerLoc,
  isRequireLike,
  line,
  some,
  statementLoc,
  text,
  typeText,
  walk,
  type ContractFacts,
  type FunctionFacts,
  type Node,
  type StaticDetector,
  type StaticFacts,
  identName,
  calleeName,
  declaredVariables,
  tupleComponents,
  asNodes,
  type MaybeNode,
  type Recognised,
  type AST,
  afterTraversal,
} from '../../lib/analysis/static/index.ts';

const isMemberCall = (n: MaybeNode, member: string): n is Recognised<AST.FunctionCall & { expression: AST.MemberAccess }> =>
  n?.type === 'FunctionCall' && n.expression?.type === 'MemberAccess' && n.expression.memberName === member;
const isThisAddr = (n: MaybeNode) => n?.type === 'FunctionCall' && n.arguments?.length === 1 && identName(n.arguments[0]) === 'this';
/** `token.balanceOf(address(this))` or `address(this).balance`. */
const isOwnBalance = (n: Node) =>
  (isMemberCall(n, 'balanceOf') && isThisAddr(n.arguments?.[0])) ||
  (n?.type === 'MemberAccess' && n.memberName === 'balance' && isThisAddr(n.expression));
/** Time-weighted or external oracles (Uniswap TWAP, Chainlink): reading them is the fix. */
const isRobustOracle = (n: Node) =>
  n?.type === 'FunctionCall' &&
  n.expression?.type === 'MemberAccess' &&
  /^(consult|observe|latestRoundData|currentCumulativePrices|getTwap|twap)$/.test(n.expression.memberName);
const mentions = (n: Node, names: Set<string>) => some(n, (m) => m.type === 'Identifier' && names.has(m.name));

function bodies(fn: FunctionFacts): Node[] {
  return [fn.node.body, ...fn.modifiers.map((m) => m.def?.node.body)].filter((b): b is AST.Block => !!b);
}

export const spotPriceOracleRule: StaticDetector = {
  meta: {
    id: 'spot-price-oracle',
    layer: 7,
    title: "Price read from a pool's spot reserves",
    severity: 'HIGH',
    confidence: 0.65,
    category: 'other',
    swc: null,
    cwe: 'CWE-682',
    description:
      "A price computed from a pair's current reserves or balances can be moved within one transaction (a flash loan or a large swap) and restored afterwards.",
    recommendation:
      'Use a time-weighted average price (Uniswap TWAP oracle) or an external oracle (Chainlink) with staleness checks instead of current reserves.',
    exploit_scenario:
      'An attacker flash-borrows, swaps to skew the pool, calls this function at the manipulated price (borrowing or minting too much), swaps back and repays.',
    messages: {
      reserves: '`{{fn}}` does price math with `getReserves()` of `{{pair}}`.',
      balances: '`{{fn}}` divides balances held by `{{pair}}`: a spot price.',
    },
  },
  create: afterTraversal((facts, context) => {
    const { source } = context;
    for (const c of facts.contracts) {
      for (const fn of c.ownFunctions) {
        if (!fn.node.body || fn.kind === 'modifier') continue;
        if (some(fn.node.body, isRobustOracle)) continue;
        walk(fn.node.body, (n) => {
          if (!isMemberCall(n, 'getReserves')) return;
          const reserveVars = new Set<string>();
          const p = facts.parent(n);
          if (p?.type === 'VariableDeclarationStatement') for (const v of declaredVariables(p)) if (v?.name) reserveVars.add(v.name);
          if (p?.type === 'BinaryOperation' && p.operator === '=' && p.left?.type === 'TupleExpression')
            for (const v of tupleComponents(p.left)) if (v?.type === 'Identifier') reserveVars.add(v.name);
          let math = false;
          walk(fn.node.body, (m) => {
            if (math) return false;
            if (
              m.type === 'BinaryOperation' &&
              (m.operator === '/' || m.operator === '*') &&
              (mentions(m, reserveVars) || some(m, (x) => x === n))
            )
              math = true;
            // Reserves handed to a quote helper (getAmountOut/quote) are price math too.
            if (
              m.type === 'FunctionCall' &&
              /^(quote|getAmountOut|getAmountIn|getAmountsOut)$/.test(calleeName(m.expression) ?? '') &&
              (m.arguments ?? []).some((a) => mentions(a, reserveVars))
            )
              math = true;
          });
          if (math)
            context.report({
              node: n,
              loc: statementLoc(n, facts),
              messageId: 'reserves',
              data: { fn: fn.name, pair: text(source, n.expression.expression) },
            });
        });
        walk(fn.node.body, (n) => {
          if (n.type !== 'BinaryOperation' || n.operator !== '/') return;
          const holders = (side: Node) => {
            const out = new Set<string>();
            walk(side, (m) =>
              isMemberCall(m, 'balanceOf') && m.arguments?.[0] && !isThisAddr(m.arguments[0])
                ? (out.add(text(source, m.arguments[0]).replace(/\s+/g, '')), undefined)
                : undefined,
            );
            return out;
          };
          const l = holders(n.left);
          const r = holders(n.right);
          const shared = [...l].filter((x) => r.has(x) && x !== 'msg.sender');
          if (shared.length)
            context.report({ node: n, loc: statementLoc(n, facts), messageId: 'balances', data: { fn: fn.name, pair: shared[0] } });
        });
      }
    }
  }),
};

export const flashLoanSharePriceRule: StaticDetector = {
  meta: {
    id: 'flash-loan-share-price',
    layer: 7,
    title: "Share price from the contract's own balance",
    severity: 'MEDIUM',
    confidence: 0.6,
    category: 'other',
    swc: null,
    cwe: 'CWE-682',
    description:
      'Shares are priced from balanceOf(address(this)) (or address(this).balance), which anyone can inflate by sending tokens directly or with a flash loan.',
    recommendation:
      'Track deposited assets in a state variable instead of reading the live balance, and protect the first deposit (virtual shares / dead shares, as in OpenZeppelin ERC4626).',
    exploit_scenario:
      'The first depositor mints one share, donates a large amount directly to the vault, and every later deposit rounds down to zero shares that the attacker then redeems.',
    messages: { share: '`{{fn}}` computes with `{{balance}}` and `{{supply}}`: the price per share follows the live balance.' },
  },
  create: afterTraversal((facts, context) => {
    const { source } = context;
    for (const c of facts.contracts) {
      const accounting = new Set(c.functions.flatMap((f) => [...f.arithmeticWrites]));
      for (const fn of c.ownFunctions) {
        if (!fn.node.body || !fn.isPublic || fn.isView || fn.kind !== 'function') continue;
        const reported = new Set<number>();
        // Locals holding the live balance (`uint256 bal = token.balanceOf(address(this))`).
        const balanceLocals = new Set<string>();
        walk(fn.node.body, (n) => {
          if (n.type === 'VariableDeclarationStatement' && n.initialValue && some(n.initialValue, isOwnBalance))
            for (const v of declaredVariables(n)) if (v?.name) balanceLocals.add(v.name);
        });
        walk(fn.node.body, (n) => {
          if (n.type !== 'BinaryOperation' || (n.operator !== '/' && n.operator !== '*')) return;
          const bal = (x: Node) => some(x, isOwnBalance) || mentions(x, balanceLocals);
          if (!bal(n)) return;
          // Paired with a supply-like counter the contract maintains arithmetically.
          let supply: string | null = null;
          walk(n, (m) => {
            if (!supply && m.type === 'Identifier' && accounting.has(m.name) && c.stateVars.has(m.name) && !fn.locals.has(m.name))
              supply = m.name;
          });
          if (!supply) return;
          const loc = statementLoc(n, facts);
          if (reported.has(loc.line)) return;
          reported.add(loc.line);
          let balText = 'balanceOf(address(this))';
          walk(n, (m) => (isOwnBalance(m) ? ((balText = text(source, m).replace(/\s+/g, '')), false) : undefined));
          context.report({ node: n, loc, messageId: 'share', data: { fn: fn.name, balance: balText, supply } });
        });
      }
    }
  }),
};

/** Every state write of fn is its own direct assignment of a literal (no caller-derived or computed value, none through calls). */
function onlyFixedWrites(fn: FunctionFacts, writes: string[]): boolean {
  const direct = fn.writes.filter((w) => writes.includes(w.variable));
  const literal = (n: Node) =>
    n?.type === 'BinaryOperation' && n.operator === '=' && (n.right?.type === 'BooleanLiteral' || n.right?.type === 'NumberLiteral');
  return writes.every((v) => direct.some((w) => w.variable === v)) && direct.every((w) => literal(w.node));
}

const INITIALIZER_MODIFIERS = /^(initializer|reinitializer|onlyInitializing|initializerOnly|onlyProxy)$/;

export const unprotectedInitializerRule: StaticDetector = {
  meta: {
    id: 'unprotected-initializer',
    layer: 7,
    title: 'Initializer can be called by anyone, again',
    severity: 'HIGH',
    confidence: 0.7,
    category: 'access_control',
    swc: 'SWC-118',
    cwe: 'CWE-665',
    description:
      "An upgradeable contract's initializer is public, has no `initializer` guard and no run-once flag, so anyone can call it (first, or again) and take over the state it sets.",
    recommendation:
      "Mark it `initializer` (OpenZeppelin Initializable), or check and set an `initialized` flag, and call it in the deployment transaction; call _disableInitializers() in the implementation's constructor.",
    exploit_scenario: 'An attacker calls initialize() on the proxy (or the bare implementation) and becomes its owner.',
    messages: { init: '`{{fn}}` is {{vis}} with no initializer modifier, caller check or run-once flag, and writes `{{vars}}`.' },
  },
  create: afterTraversal((facts, context) => {
    for (const c of facts.contracts) {
      if (c.kind !== 'contract' && c.kind !== 'abstract') continue;
      for (const fn of c.ownFunctions) {
        if (fn.kind !== 'function' || !fn.isPublic || fn.isView || !/^_?init(iali[sz]e\w*)?$/i.test(fn.name)) continue;
        if (fn.modifiers.some((m) => INITIALIZER_MODIFIERS.test(m.name))) continue;
        if (fn.senderGuard) continue;
        const writes = [...fn.transitiveWrites].filter((v) => c.stateVars.has(v));
        // What an initializer sets matters elsewhere: access-control state, or a flag/value
        // other functions branch on. A function that merely happens to be called init is not one.
        const gates = new Set<string>(c.authVars);
        for (const g of c.functions) {
          if (g === fn || !g.node.body) continue;
          walk(g.node.body, (n) => {
            const cond = isRequireLike(n) ? n.arguments?.[0] : n.type === 'IfStatement' ? n.condition : null;
            if (cond) walk(cond, (m) => (m.type === 'Identifier' && c.stateVars.has(m.name) ? (gates.add(m.name), undefined) : undefined));
          });
        }
        if (!writes.some((w) => gates.has(w))) continue;
        // Run-once flag: a state variable the function (or its modifiers) both checks and writes.
        const checked = new Set<string>();
        for (const b of bodies(fn))
          walk(b, (n) => {
            const cond = isRequireLike(n) ? n.arguments?.[0] : n.type === 'IfStatement' ? n.condition : null;
            if (cond)
              walk(cond, (m) => (m.type === 'Identifier' && c.stateVars.has(m.name) ? (checked.add(m.name), undefined) : undefined));
          });
        if (writes.some((w) => checked.has(w))) continue;
        // Advancing a lifecycle flag to a fixed value (`initialized = true`) lets the caller
        // choose nothing and take over nothing: only state it can set is worth reporting.
        if (!writes.some((w) => c.authVars.has(w)) && onlyFixedWrites(fn, writes)) continue;
        context.report({
          node: fn.node,
          loc: headerLoc(fn.node),
          messageId: 'init',
          data: { fn: fn.name, vis: fn.visibility, vars: writes.slice(0, 4).join('`, `') },
        });
      }
    }
  }),
};

interface SlotVar {
  name: string;
  type: string;
  slot: number;
  offset: number;
  contract: string;
  node: Node;
}

const VALUE_SIZE: Array<[RegExp, (m: RegExpExecArray) => number]> = [
  [/^bool$/, () => 1],
  [/^address( payable)?$/, () => 20],
  [/^u?int(\d*)$/, (m) => (m[1] ? Number(m[1]) / 8 : 32)],
  [/^bytes(\d+)$/, (m) => Number(m[1])],
];

/** Storage layout by Solidity's packing rules (elementary types exact; structs and static
 *  arrays end the comparison since their size needs the compiler). */
export function storageLayout(c: ContractFacts, facts: StaticFacts): { vars: SlotVar[]; exactUntil: number } {
  const vars: SlotVar[] = [];
  let slot = 0;
  let used = 0;
  let exactUntil = Infinity;
  const order = [...c.linearization].reverse();
  for (const name of order) {
    const cn = facts.contractByName.get(name)?.node;
    for (const sub of asNodes(cn?.subNodes)) {
      if (sub.type !== 'StateVariableDeclaration') continue;
      for (const v of sub.variables ?? []) {
        if (!v?.name || v.isDeclaredConst || v.isImmutable) continue;
        const t = typeText(v.typeName);
        let size: number | null = null;
        if (v.typeName?.type === 'Mapping' || /\[\]$/.test(t) || t === 'string' || t === 'bytes') size = 32;
        else if (v.typeName?.type === 'UserDefinedTypeName') {
          const named = v.typeName.namePath;
          if (facts.enums.has(named)) size = 1;
          else if (facts.contractByName.has(named) && !facts.structs.has(named)) size = 20;
        } else
          for (const [re, f] of VALUE_SIZE) {
            const m = re.exec(t);
            if (m) size = f(m);
          }
        if (size === null) {
          // Struct or fixed array: starts a new slot; its length needs the compiler.
          if (used > 0) slot++;
          vars.push({ name: v.name, type: t, slot, offset: 0, contract: name, node: v });
          exactUntil = Math.min(exactUntil, slot);
          used = 32;
          continue;
        }
        if (used + size > 32 || size === 32) {
          if (used > 0) slot++;
          used = 0;
        }
        vars.push({ name: v.name, type: t, slot, offset: used, contract: name, node: v });
        used += size;
        if (size === 32) {
          slot++;
          used = 0;
        }
      }
    }
  }
  return { vars, exactUntil };
}

function delegates(c: ContractFacts): boolean {
  return c.functions.some(
    (f) =>
      f.externalCalls.some((x) => x.kind === 'delegatecall') ||
      (f.node.body && some(f.node.body, (n) => n.type === 'AssemblyCall' && n.functionName === 'delegatecall')),
  );
}

export const storageCollisionRule: StaticDetector = {
  meta: {
    id: 'proxy-storage-collision',
    layer: 7,
    title: 'Proxy and implementation storage slots collide',
    severity: 'HIGH',
    confidence: 0.6,
    // SWC-124, a write to a storage location its owner did not mean: filed like vigil-static's
    // arbitrary-storage-write, since what gets overwritten is who controls the proxy.
    category: 'access_control',
    swc: 'SWC-124',
    cwe: 'CWE-123',
    description:
      "A contract that delegatecalls keeps its own state in slots the implementation uses for something else: the implementation's writes overwrite the proxy's variables (and the reverse).",
    recommendation:
      'Keep proxy state in EIP-1967 slots (keccak256("eip1967.proxy.implementation") - 1) or inherit the same storage base in proxy and implementation; append new variables only at the end.',
    exploit_scenario:
      'A call to the implementation writes its slot-0 variable through the proxy and replaces the implementation address (or owner) with a caller-chosen value.',
    messages: {
      slot: 'Slot {{slot}} holds `{{proxyVar}}` ({{proxyType}}) in `{{proxy}}`, which delegatecalls, but `{{implVar}}` ({{implType}}) in `{{impl}}`.',
    },
  },
  create: afterTraversal((facts, context) => {
    const candidates = facts.contracts.filter((c) => c.kind === 'contract');
    for (const proxy of candidates.filter(delegates)) {
      const pl = storageLayout(proxy, facts);
      if (!pl.vars.length) continue;
      // Which contracts of the file can sit behind this proxy: those it names, else the only
      // other contract, else those shaped like upgradeable implementations (an initializer).
      const others = candidates.filter(
        (impl) =>
          impl !== proxy && !impl.linearization.includes(proxy.name) && !proxy.linearization.includes(impl.name) && !delegates(impl),
      );
      const named = others.filter((impl) =>
        some(
          proxy.node,
          (n) => (n.type === 'Identifier' && n.name === impl.name) || (n.type === 'UserDefinedTypeName' && n.namePath === impl.name),
        ),
      );
      const impls = named.length
        ? named
        : others.length === 1
          ? others
          : others.filter((impl) => impl.functions.some((f) => /^_?initiali[sz]e/i.test(f.name)));
      for (const impl of impls) {
        const il = storageLayout(impl, facts);
        // The implementation must write its side of the slot: otherwise nothing is clobbered.
        const implWrites = new Set(impl.functions.flatMap((f) => [...f.transitiveWrites]));
        const limit = Math.min(pl.exactUntil, il.exactUntil);
        for (const pv of pl.vars) {
          if (pv.slot > limit) break;
          const iv = il.vars.find((x) => x.slot === pv.slot && x.offset === pv.offset) ?? il.vars.find((x) => x.slot === pv.slot);
          if (!iv || (iv.name === pv.name && iv.type === pv.type) || !implWrites.has(iv.name)) continue;
          context.report({
            node: pv.node,
            loc: { line: line(pv.node) },
            contract: pv.contract,
            function: null,
            messageId: 'slot',
            data: {
              slot: pv.slot,
              proxyVar: pv.name,
              proxyType: pv.type,
              proxy: proxy.name,
              implVar: iv.name,
              implType: iv.type,
              impl: impl.name,
            },
          });
          break;
        }
      }
    }
  }),
};

function emits(fn: FunctionFacts, events: Set<string>, depth = 0): boolean {
  if (depth > 4 || !fn.node.body) return false;
  if (
    some(
      fn.node.body,
      (n) =>
        n.type === 'EmitStatement' || (n.type === 'FunctionCall' && n.expression?.type === 'Identifier' && events.has(n.expression.name)),
    )
  )
    return true;
  return fn.internalCalls.some((ic) => ic.callees.some((g) => g !== fn && emits(g, events, depth + 1)));
}

function critical(c: ContractFacts, v: string): boolean {
  if (c.authVars.has(v)) return true;
  const t = c.stateVars.get(v)?.type ?? '';
  if (/^address/.test(t) || (c.stateVars.get(v)?.typeNode?.type === 'UserDefinedTypeName' && !/\[/.test(t))) return true;
  if (!/^u?int/.test(t)) return false;
  return c.functions.some(
    (f) =>
      f.node.body &&
      some(
        f.node.body,
        (n) =>
          n.type === 'BinaryOperation' &&
          (n.operator === '*' || n.operator === '/') &&
          some(n, (m) => m.type === 'Identifier' && m.name === v && !f.locals.has(v)),
      ),
  );
}

export const missingEventRule: StaticDetector = {
  meta: {
    id: 'missing-event',
    layer: 7,
    title: 'Critical parameter changed without an event',
    // Informational: a monitoring gap for users and off-chain watchers, not a flaw an attacker
    // can use (audits list it as informational).
    severity: 'INFO',
    confidence: 0.7,
    category: 'other',
    swc: null,
    cwe: 'CWE-778',
    description:
      'An access-controlled setter changes a critical parameter (owner, admin, fee, oracle) without emitting an event, so users and monitoring cannot see the change.',
    recommendation: 'Emit an event with the old and new value in every privileged setter.',
    messages: { setter: '`{{fn}}` sets `{{vars}}` from its arguments without emitting an event.' },
  },
  create(context) {
    const { facts } = context;
    const events = new Set<string>();
    return {
      EventDefinition(n) {
        events.add(n.name);
      },
      'SourceUnit:exit'() {
        for (const c of facts.contracts) {
          for (const fn of c.ownFunctions) {
            if (fn.kind !== 'function' || !fn.isPublic || fn.isView || !fn.senderGuard || !fn.node.body) continue;
            // Plain assignments of a state variable from a parameter: a setter.
            const set = new Set<string>();
            for (const w of fn.writes) {
              const node = w.node;
              if (node?.type !== 'BinaryOperation' || node.operator !== '=') continue;
              if (node.left?.type !== 'Identifier') continue;
              if (some(node.right, (m) => m.type === 'Identifier' && fn.params.includes(m.name))) set.add(w.variable);
            }
            // Critical: access-control state, addresses (oracle, treasury, implementation) or
            // rates used in multiplication/division (fees).
            for (const v of [...set]) if (!critical(c, v)) set.delete(v);
            if (!set.size || emits(fn, events)) continue;
            context.report({
              node: fn.node,
              loc: headerLoc(fn.node),
              messageId: 'setter',
              data: { fn: fn.name, vars: [...set].join('`, `') },
            });
          }
        }
      },
    };
  },
};

export const unboundedLoopRule: StaticDetector = {
  meta: {
    id: 'unbounded-loop',
    layer: 7,
    title: 'Loop over a growing storage array',
    severity: 'MEDIUM',
    confidence: 0.65,
    category: 'denial_of_service',
    swc: 'SWC-128',
    cwe: 'CWE-834',
    description:
      'An external function loops over a storage array that callers can grow; once it is long enough the loop needs more gas than a block holds and the function can never run again.',
    recommendation: 'Bound the loop (process a page: start index + count), or use a mapping and pull payments instead of iterating.',
    exploit_scenario: 'An attacker pushes thousands of cheap entries; payouts that loop over the array then always run out of gas.',
    messages: { loop: '`{{fn}}` iterates over `{{array}}`, which `{{grower}}` lets {{who}} grow.' },
  },
  create: afterTraversal((facts, context) => {
    for (const c of facts.contracts) {
      // Who appends to each storage array: unguarded public functions make it attacker-sized.
      const growers = new Map<string, FunctionFacts>();
      for (const f of c.functions) {
        if (!f.node.body) continue;
        walk(f.node.body, (n) => {
          if (isMemberCall(n, 'push') && n.expression.expression?.type === 'Identifier') {
            const arr = n.expression.expression.name;
            if (!c.stateVars.has(arr) || f.locals.has(arr)) return;
            const prev = growers.get(arr);
            if (!prev || (prev.senderGuard && !f.senderGuard)) growers.set(arr, f);
          }
        });
      }
      for (const fn of c.ownFunctions) {
        if (!fn.isPublic || !fn.node.body) continue;
        walk(fn.node.body, (n) => {
          if (n.type !== 'ForStatement' && n.type !== 'WhileStatement' && n.type !== 'DoWhileStatement') return;
          const cond = n.type === 'ForStatement' ? n.conditionExpression : n.condition;
          if (!cond) return;
          let array: string | null = null;
          walk(cond, (m) => {
            if (
              m.type === 'MemberAccess' &&
              m.memberName === 'length' &&
              m.expression?.type === 'Identifier' &&
              c.stateVars.has(m.expression.name) &&
              !fn.locals.has(m.expression.name) &&
              /\[\]$/.test(c.stateVars.get(m.expression.name)!.type)
            )
              array = m.expression.name;
          });
          if (!array) return;
          // A second, constant bound (`i < arr.length && i < MAX`) makes the loop bounded.
          const bounded = some(
            cond,
            (m) =>
              m.type === 'BinaryOperation' &&
              (m.operator === '<' || m.operator === '<=') &&
              (m.right?.type === 'NumberLiteral' || (m.right?.type === 'Identifier' && !!c.stateVars.get(m.right.name)?.constant)),
          );
          if (bounded) return;
          const grower = growers.get(array);
          if (!grower) return;
          const who = grower.isPublic && !grower.senderGuard ? 'any caller' : 'the owner';
          context.report({
            node: n,
            loc: { line: line(n), end_line: line(n.body ?? n) },
            messageId: 'loop',
            severity: who === 'any caller' ? 'MEDIUM' : 'LOW',
            data: { fn: fn.name, array, grower: grower.name, who },
          });
        });
      }
    }
  }),
};

export const SPECIALIZED_RULES: StaticDetector[] = [
  spotPriceOracleRule,
  flashLoanSharePriceRule,
  unprotectedInitializerRule,
  storageCollisionRule,
  missingEventRule,
  unboundedLoopRule,
];
