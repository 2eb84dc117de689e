// Example WASM detector (AssemblyScript): misuse of block.timestamp (SWC-116).
// Copy this folder to start your own plugin; README.md walks through it.
//
// Flags:
//   - `block.timestamp == x` / `!=` (either side): a miner shifts the timestamp by seconds and
//     blocks land every ~12 s, so an exact instant is easily missed or hit on purpose;
//   - `block.timestamp % n`: a predictable, miner-influenced number used as randomness.
// Deliberately not flagged: deadline checks with < <= > >= (`block.timestamp >= unlockAt` is the
// intended use; a few seconds of drift do not matter there), arithmetic such as
// `block.timestamp - start`, and storing or emitting the timestamp.
// `now` (Solidity < 0.7) is treated like block.timestamp unless config "legacy_now" is "false"
// (from 0.7 on, `now` can be an ordinary variable name).
import {
  readInputString, writeOutputString, setError, getConfig, logDebug,
  parseDetectorInput, detectorInputError, Finding, findingsToJson,
  nodeRef, nodeType, isMemberAccess, identifierName, describeExpression, JsonValue,
} from "pdk";

let legacyNow = true;

function isTimestamp(n: JsonValue | null): bool {
  if (isMemberAccess(n, "block", "timestamp")) return true;
  if (!legacyNow) return false;
  const name = identifierName(n);
  return name != null && name == "now";
}

export function detect(): i32 {
  const input = parseDetectorInput(readInputString());
  if (input == null) {
    setError(detectorInputError());
    return 1;
  }
  const cfg = getConfig("legacy_now");
  legacyNow = cfg == null || cfg != "false";

  const findings = new Array<Finding>();
  for (let i = 0; i < input.nodes.length; i++) {
    const n = input.nodes[i];
    if (nodeType(n) != "BinaryOperation") continue;
    const op = n.getString("operator");
    if (op == null) continue;
    const l = n.getObject("left");
    const r = n.getObject("right");
    if (op == "==" || op == "!=") {
      let ts: JsonValue | null = null;
      let other: JsonValue | null = null;
      if (isTimestamp(l)) {
        ts = l;
        other = r;
      } else if (isTimestamp(r)) {
        ts = r;
        other = l;
      }
      if (ts == null) continue;
      findings.push(
        new Finding("equality", nodeRef(n))
          .with("expr", describeExpression(ts))
          .with("operator", op)
          .with("other", describeExpression(other)),
      );
    } else if (op == "%" && isTimestamp(l)) {
      findings.push(new Finding("modulo", nodeRef(n)).with("expr", describeExpression(l)).with("divisor", describeExpression(r)));
    }
  }
  logDebug("timestamp-misuse: " + findings.length.toString() + " finding(s) in " + input.file);
  writeOutputString(findingsToJson(findings));
  return 0;
}
