// Per-function code features for the layer-6 model: counts of syntax-tree node kinds and
// operators, facts from the shared static analysis (call graph, external calls, guards, state
// written after calls), and opcode bigrams of the instructions the compiler's source map
// attributes to the function. Only code is measured: identifiers, names, comments, file paths
// never enter a feature (a renamed contract gets the same vector).
import {
  computeFacts,
  parseSolidity,
  walk,
  isMsgSender,
  isTxOrigin,
  blockValue,
  type FunctionFacts,
  type Node,
  identName,
  returnParameters,
} from '../../../lib/analysis/static/index.ts';

const NODE_TYPES = [
  'IfStatement',
  'ForStatement',
  'WhileStatement',
  'DoWhileStatement',
  'ReturnStatement',
  'EmitStatement',
  'ThrowStatement',
  'RevertStatement',
  'VariableDeclarationStatement',
  'ExpressionStatement',
  'InlineAssemblyStatement',
  'UncheckedStatement',
  'TryStatement',
  'FunctionCall',
  'MemberAccess',
  'IndexAccess',
  'BinaryOperation',
  'UnaryOperation',
  'Conditional',
  'TupleExpression',
  'NumberLiteral',
  'StringLiteral',
  'BooleanLiteral',
  'HexLiteral',
  'NewExpression',
  'ElementaryTypeNameExpression',
  'Identifier',
];
const OPERATORS = [
  '+',
  '-',
  '*',
  '/',
  '%',
  '**',
  '+=',
  '-=',
  '*=',
  '/=',
  '++',
  '--',
  '==',
  '!=',
  '<',
  '>',
  '<=',
  '>=',
  '&&',
  '||',
  '!',
  '=',
  '<<',
  '>>',
  '&',
  '|',
  '^',
];
const FLAGS = [
  'public',
  'payable',
  'view',
  'fallback_or_receive',
  'constructor',
  'sender_guard',
  'modifiers',
  'called_internally',
  'internal_calls',
  'ext_call',
  'ext_delegatecall',
  'ext_send',
  'ext_transfer',
  'ext_highlevel',
  'ext_with_value',
  'ext_unchecked',
  'ext_in_loop',
  'transitive_ext',
  'reentrancy_paths',
  'state_writes',
  'arith_writes',
  'state_reads',
  'loops',
  'msg_value',
  'msg_sender',
  'tx_origin',
  'block_timestamp',
  'block_number',
  'blockhash',
  'block_other',
  'hash_calls',
  'selfdestruct',
  'require',
  'assert',
  'checked_arith',
  'legacy_ctor_era',
  'unchecked_block',
  'length_in_loop_cond',
  'push',
  'own_balance',
  'params',
  'returns',
  'lines',
];
export const OPCODE_BUCKETS = 32;

export const FEATURE_NAMES: string[] = [
  ...NODE_TYPES.map((t) => `ast_${t}`),
  ...OPERATORS.map((o) => `op_${o}`),
  ...FLAGS.map((f) => `fact_${f}`),
  'has_bytecode',
  ...Array.from({ length: OPCODE_BUCKETS }, (_, i) => `opc2_${i}`),
];

export interface FunctionSample {
  contract: string;
  function: string;
  line: number;
  end_line: number;
  /** Header line (where function-level findings are reported). */
  signature_line: number;
  features: number[];
}

export interface BytecodeInfo {
  /** deployedBytecode hex and deployedSourceMap of each contract, plus the file index of this source. */
  contracts: Record<string, { deployedBytecode: string; deployedSourceMap: string }>;
  fileId: number;
}

const log1p = (x: number) => Math.log1p(Math.max(0, x));

function opcodeSequences(source: string, info: BytecodeInfo | null): Array<{ start: number; ops: number[] }> {
  // Per contract: instruction opcodes with the byte offset their source-map entry starts at.
  if (!info) return [];
  const out: Array<{ start: number; ops: number[] }> = [];
  for (const c of Object.values(info.contracts)) {
    const hex = c.deployedBytecode.replace(/__[^_].{36}__|__\$[0-9a-f]{34}\$__/g, '0'.repeat(40));
    const map = c.deployedSourceMap ? c.deployedSourceMap.split(';') : [];
    let s = -1;
    let f = -1;
    let pc = 0;
    let idx = 0;
    while (pc * 2 < hex.length && idx < map.length) {
      const op = parseInt(hex.slice(pc * 2, pc * 2 + 2), 16);
      const [ss, , ff] = map[idx].split(':');
      if (ss !== undefined && ss !== '') s = Number(ss);
      if (ff !== undefined && ff !== '') f = Number(ff);
      if (f === info.fileId && s >= 0) out.push({ start: s, ops: [op] });
      pc += op >= 0x60 && op <= 0x7f ? op - 0x5e : 1;
      idx++;
    }
  }
  return out;
}

/** Features of every function (with a body) in the source. */
export function extractFunctionSamples(source: string, file: string, bytecode: BytecodeInfo | null = null): FunctionSample[] {
  const parsed = parseSolidity(source);
  const facts = computeFacts(parsed.ast, source, file);
  const ops = opcodeSequences(source, bytecode);
  // solc source maps count UTF-8 bytes; the parser's ranges count UTF-16 units.
  const byteOf = (() => {
    if (!ops.length) return (i: number) => i;
    const enc = new TextEncoder();
    return (i: number) => enc.encode(source.slice(0, i)).length;
  })();
  const out: FunctionSample[] = [];
  for (const c of facts.contracts) {
    for (const fn of c.ownFunctions) {
      if (fn.kind === 'modifier' || !fn.node.body) continue;
      out.push(sampleOf(fn, c.name, facts.version.checkedArithmetic, facts.version.legacyConstructors, ops, byteOf));
    }
  }
  return out;
}

function sampleOf(
  fn: FunctionFacts,
  contract: string,
  checked: boolean,
  legacy: boolean,
  ops: Array<{ start: number; ops: number[] }>,
  byteOf: (i: number) => number,
): FunctionSample {
  const types = new Map<string, number>();
  const opsCount = new Map<string, number>();
  const flag = new Map<string, number>();
  const inc = (m: Map<string, number>, k: string, by = 1) => m.set(k, (m.get(k) ?? 0) + by);
  walk(fn.node.body, (n: Node) => {
    inc(types, n.type);
    if ((n.type === 'BinaryOperation' || n.type === 'UnaryOperation') && n.operator) inc(opsCount, n.operator);
    if (n.type === 'MemberAccess' && n.expression?.type === 'Identifier' && n.expression.name === 'msg' && n.memberName === 'value')
      inc(flag, 'msg_value');
    if (isMsgSender(n) && n.type === 'MemberAccess') inc(flag, 'msg_sender');
    if (isTxOrigin(n) && n.type === 'MemberAccess') inc(flag, 'tx_origin');
    const bv = blockValue(n);
    if (bv === 'timestamp') inc(flag, 'block_timestamp');
    else if (bv === 'number') inc(flag, 'block_number');
    else if (bv === 'blockhash') inc(flag, 'blockhash');
    else if (bv) inc(flag, 'block_other');
    if (n.type === 'FunctionCall' && n.expression?.type === 'Identifier') {
      const name = n.expression.name;
      if (name === 'keccak256' || name === 'sha3' || name === 'sha256') inc(flag, 'hash_calls');
      if (name === 'selfdestruct' || name === 'suicide') inc(flag, 'selfdestruct');
      if (name === 'require') inc(flag, 'require');
      if (name === 'assert') inc(flag, 'assert');
    }
    if (n.type === 'FunctionCall' && n.expression?.type === 'MemberAccess' && n.expression.memberName === 'push') inc(flag, 'push');
    if (
      n.type === 'MemberAccess' &&
      n.memberName === 'balance' &&
      n.expression?.type === 'FunctionCall' &&
      identName(n.expression.arguments?.[0]) === 'this'
    )
      inc(flag, 'own_balance');
    const loopCondition = n.type === 'ForStatement' ? n.conditionExpression : n.type === 'WhileStatement' ? n.condition : null;
    if (loopCondition) {
      walk(loopCondition, (m: Node) =>
        m.type === 'MemberAccess' && m.memberName === 'length' ? (inc(flag, 'length_in_loop_cond'), undefined) : undefined,
      );
    }
    if (n.type === 'UncheckedStatement') inc(flag, 'unchecked_block');
  });
  const f = (k: string, v: number | boolean) => flag.set(k, typeof v === 'boolean' ? (v ? 1 : 0) : v);
  f('public', fn.isPublic);
  f('payable', fn.payable);
  f('view', fn.isView);
  f('fallback_or_receive', fn.kind === 'fallback' || fn.kind === 'receive');
  f('constructor', fn.kind === 'constructor');
  f('sender_guard', fn.senderGuard);
  f('modifiers', fn.modifiers.length);
  f('called_internally', fn.calledInternally);
  f('internal_calls', fn.internalCalls.length);
  for (const x of fn.externalCalls) {
    inc(
      flag,
      x.kind === 'call' || x.kind === 'callcode'
        ? 'ext_call'
        : x.kind === 'delegatecall'
          ? 'ext_delegatecall'
          : x.kind === 'send'
            ? 'ext_send'
            : x.kind === 'transfer'
              ? 'ext_transfer'
              : 'ext_highlevel',
    );
    if (x.value) inc(flag, 'ext_with_value');
    if (!x.checked && (x.kind === 'call' || x.kind === 'send' || x.kind === 'delegatecall' || x.kind === 'callcode'))
      inc(flag, 'ext_unchecked');
    if (x.inLoop) inc(flag, 'ext_in_loop');
  }
  f('transitive_ext', fn.transitiveExternal.length);
  f('reentrancy_paths', fn.reentrancy.length);
  f('state_writes', fn.writes.length);
  f('arith_writes', fn.arithmeticWrites.size);
  f('state_reads', fn.reads.size);
  f('loops', (types.get('ForStatement') ?? 0) + (types.get('WhileStatement') ?? 0) + (types.get('DoWhileStatement') ?? 0));
  f('checked_arith', checked);
  f('legacy_ctor_era', legacy);
  f('params', fn.params.length);
  f('returns', returnParameters(fn.node).length);
  const line = fn.node.loc?.start?.line ?? 1;
  const end = fn.node.loc?.end?.line ?? line;
  f('lines', end - line + 1);

  // Opcode bigrams of instructions whose source-map span starts inside this function.
  const buckets = new Array(OPCODE_BUCKETS).fill(0);
  let hasCode = 0;
  if (ops.length && fn.node.range) {
    const s = byteOf(fn.node.range[0]);
    const e = byteOf(fn.node.range[1] + 1);
    const mine = ops.filter((o) => o.start >= s && o.start < e).map((o) => o.ops[0]);
    if (mine.length > 1) {
      hasCode = 1;
      for (let i = 1; i < mine.length; i++) buckets[((mine[i - 1] * 31 + mine[i]) >>> 0) % OPCODE_BUCKETS]++;
      const total = mine.length - 1;
      for (let i = 0; i < OPCODE_BUCKETS; i++) buckets[i] = buckets[i] / total;
    }
  }
  const features = [
    ...NODE_TYPES.map((t) => log1p(types.get(t) ?? 0)),
    ...OPERATORS.map((o) => log1p(opsCount.get(o) ?? 0)),
    ...FLAGS.map((k) => log1p(flag.get(k) ?? 0)),
    hasCode,
    ...buckets,
  ];
  const bodyLine = fn.node.body?.loc?.start?.line ?? line;
  return { contract, function: fn.name, line, end_line: end, signature_line: Math.min(line, bodyLine), features };
}
