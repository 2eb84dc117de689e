// detector-wasm-tx-origin (AssemblyScript, runs in the WASM host): authorization through
// tx.origin (SWC-115). tx.origin is the account that started the transaction, so a check on it
// passes when the owner is lured into calling an attacker's contract that calls this one.
//
// Flags:
//   - `tx.origin == X` / `tx.origin != X` (either side) where X is an account expression:
//     `require(tx.origin == owner)`, `if (owner != tx.origin) revert()`, `return tx.origin == admin`.
//   - a guard that looks tx.origin up in a mapping: the condition of require/assert/if is
//     `m[tx.origin]`, `!m[tx.origin]`, or the left operand of `&&`/`||` is one of those.
// Deliberately not flagged (false positives avoided):
//   - `tx.origin == msg.sender` (either order): the usual "caller is an EOA" check, not auth;
//   - comparisons with a literal (`tx.origin != address(0)`);
//   - tx.origin merely stored, emitted or passed on (`owner = tx.origin`, `emit Seen(tx.origin)`);
//   - mapping lookups keyed by tx.origin outside a guard (`credits[tx.origin] += 1`).
// Input: the declared node types (BinaryOperation, FunctionCall, IfStatement, IndexAccess).
// Guards are matched to their IndexAccess by source position, since the protocol cuts nested
// objects at depth 3 and `require(m[tx.origin])` no longer shows `tx` inside the call node.
import {
  readInputString, writeOutputString, setError, parseDetectorInput, detectorInputError,
  Finding, findingsToJson, nodeRef, nodeType, isMemberAccess, calleeName, describeExpression,
  JsonValue,
} from "pdk";

function isTxOrigin(n: JsonValue | null): bool {
  return isMemberAccess(n, "tx", "origin");
}

function isMsgSender(n: JsonValue | null): bool {
  return isMemberAccess(n, "msg", "sender");
}

/** Literal or cast of a literal (`0`, `address(0)`, `address(0x0)`): not an account check. */
function isLiteralLike(n: JsonValue | null): bool {
  const t = nodeType(n);
  if (t == "NumberLiteral" || t == "StringLiteral" || t == "HexLiteral" || t == "BooleanLiteral") return true;
  if (t == "FunctionCall" && n != null) {
    const args = n.getArray("arguments");
    if (args != null && args.length == 1) {
      const a = nodeType(args[0]);
      if (a == "NumberLiteral" || a == "HexLiteral") return true;
    }
  }
  return false;
}

/** Source position as one comparable number (line-major). */
function pos(n: JsonValue): f64 {
  return n.getNumber("line", 0) * 1e6 + n.getNumber("column", 0);
}

/** True when `cond` (a truncated copy of the guard's condition) is `m[..]` or `!m[..]`. */
function conditionIsLookup(cond: JsonValue | null): bool {
  if (cond == null) return false;
  const t = nodeType(cond);
  if (t == "IndexAccess") return true;
  if (t == "UnaryOperation") {
    const op = cond.getString("operator");
    return op != null && op == "!" && nodeType(cond.getObject("subExpression")) == "IndexAccess";
  }
  if (t == "BinaryOperation") {
    const op = cond.getString("operator");
    if (op == null || (op != "&&" && op != "||")) return false;
    return conditionIsLookup(cond.getObject("left"));
  }
  return false;
}

/** The IndexAccess nodes that start first at or after `start` and inside [start line, end line]. */
function firstLookupsFrom(lookups: Array<JsonValue>, start: JsonValue): Array<JsonValue> {
  const from = pos(start);
  const endLine = start.getNumber("end_line", start.getNumber("line", 0));
  let best: f64 = Infinity;
  for (let i = 0; i < lookups.length; i++) {
    const p = pos(lookups[i]);
    if (p >= from && lookups[i].getNumber("line", 0) <= endLine && p < best) best = p;
  }
  const out = new Array<JsonValue>();
  // A nested mapping `roles[r][tx.origin]` has two IndexAccess nodes at the same position.
  for (let i = 0; i < lookups.length; i++) if (pos(lookups[i]) == best) out.push(lookups[i]);
  return out;
}

export function detect(): i32 {
  const input = parseDetectorInput(readInputString());
  if (input == null) {
    setError(detectorInputError());
    return 1;
  }
  const nodes = input.nodes;
  const findings = new Array<Finding>();
  const lookups = new Array<JsonValue>();
  const guards = new Array<JsonValue>();

  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i];
    const t = nodeType(n);
    if (t == "BinaryOperation") {
      const op = n.getString("operator");
      if (op == null || (op != "==" && op != "!=")) continue;
      const l = n.getObject("left");
      const r = n.getObject("right");
      let other: JsonValue | null = null;
      if (isTxOrigin(l)) other = r;
      else if (isTxOrigin(r)) other = l;
      else continue;
      if (other == null || isMsgSender(other) || isTxOrigin(other) || isLiteralLike(other)) continue;
      findings.push(new Finding("comparison", nodeRef(n)).with("other", describeExpression(other)).with("operator", op));
    } else if (t == "IndexAccess") {
      if (isTxOrigin(n.getObject("index"))) lookups.push(n);
    } else if (t == "FunctionCall") {
      const callee = calleeName(n);
      if (callee == null || (callee != "require" && callee != "assert")) continue;
      const args = n.getArray("arguments");
      if (args != null && args.length > 0 && conditionIsLookup(args[0])) guards.push(n);
    } else if (t == "IfStatement") {
      if (conditionIsLookup(n.getObject("condition"))) guards.push(n);
    }
  }

  const flagged = new Set<i64>();
  for (let g = 0; g < guards.length; g++) {
    const hits = firstLookupsFrom(lookups, guards[g]);
    for (let h = 0; h < hits.length; h++) {
      const ref = nodeRef(hits[h]);
      if (flagged.has(ref)) continue;
      flagged.add(ref);
      findings.push(new Finding("lookup", ref).with("mapping", describeExpression(hits[h].getObject("base"))));
    }
  }

  writeOutputString(findingsToJson(findings));
  return 0;
}
