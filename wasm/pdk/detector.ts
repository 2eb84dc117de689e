// Helpers for WASM detectors (protocol in docs/plugins-wasm.md):
//   input  {"file": "...", "nodes": [{"ref", "type", "line", "end_line", "column", "contract",
//           "function", ...the parser node's own properties}]}
//   output {"findings": [{"messageId", "nodeRef", "data": {"k": "v"}}]}
import { JsonValue, JsonWriter, parseJson, lastJsonError } from "./json";

export class DetectorInput {
  constructor(public file: string, public nodes: Array<JsonValue>) {}
}

/** Parses a detector call's input text; null plus `detectorInputError()` when it is malformed. */
export function parseDetectorInput(text: string): DetectorInput | null {
  const doc = parseJson(text);
  if (doc == null) {
    inputError = "input is not JSON: " + lastJsonError();
    return null;
  }
  if (!doc.isObject()) {
    inputError = "input must be a JSON object";
    return null;
  }
  const nodes = doc.getArray("nodes");
  if (nodes == null) {
    inputError = "input.nodes must be an array";
    return null;
  }
  const file = doc.getString("file");
  return new DetectorInput(file == null ? "" : file, nodes);
}

let inputError = "";
export function detectorInputError(): string {
  return inputError;
}

export class Finding {
  dataKeys: Array<string> = [];
  dataValues: Array<string> = [];
  constructor(public messageId: string, public nodeRef: i64) {}
  /** Adds a `{{key}}` value for the message template. */
  with(key: string, value: string): Finding {
    this.dataKeys.push(key);
    this.dataValues.push(value);
    return this;
  }
}

/** Serializes findings as the detector output document. */
export function findingsToJson(findings: Array<Finding>): string {
  const w = new JsonWriter();
  w.beginObject().key("findings").beginArray();
  for (let i = 0; i < findings.length; i++) {
    const f = findings[i];
    w.beginObject();
    w.key("messageId").string(f.messageId);
    w.key("nodeRef").integer(f.nodeRef);
    w.key("data").beginObject();
    for (let j = 0; j < f.dataKeys.length; j++) w.key(f.dataKeys[j]).string(f.dataValues[j]);
    w.endObject();
    w.endObject();
  }
  w.endArray().endObject();
  return w.toString();
}

// ---- AST helpers over @solidity-parser/parser node shapes ---------------------------------

/** The host's handle for a node (what a finding's nodeRef must carry). */
export function nodeRef(node: JsonValue): i64 {
  return <i64>node.getNumber("ref", -1);
}

export function nodeType(node: JsonValue | null): string {
  if (node == null) return "";
  const t = node.getString("type");
  return t == null ? "" : t;
}

/** `name` of an Identifier node, else null. */
export function identifierName(node: JsonValue | null): string | null {
  if (node == null || nodeType(node) != "Identifier") return null;
  return node.getString("name");
}

/** True for a MemberAccess `object.member` whose object is the plain identifier `object`. */
export function isMemberAccess(node: JsonValue | null, object: string, member: string): bool {
  if (node == null || nodeType(node) != "MemberAccess") return false;
  const m = node.getString("memberName");
  if (m == null || m != member) return false;
  const name = identifierName(node.getObject("expression"));
  return name != null && name == object;
}

/** Name of the function a FunctionCall calls when the callee is a plain identifier
 *  (`require(...)`), else null. */
export function calleeName(call: JsonValue | null): string | null {
  if (call == null || nodeType(call) != "FunctionCall") return null;
  return identifierName(call.getObject("expression"));
}

/** Short source-like rendering of an expression for messages (`owner`, `msg.sender`,
 *  `admins[tx.origin]`); falls back to the node type for anything more complex. */
export function describeExpression(node: JsonValue | null): string {
  if (node == null) return "?";
  const t = nodeType(node);
  if (t == "Identifier") {
    const n = node.getString("name");
    return n == null ? "?" : n;
  }
  if (t == "MemberAccess") {
    const m = node.getString("memberName");
    return describeExpression(node.getObject("expression")) + "." + (m == null ? "?" : m);
  }
  if (t == "IndexAccess") {
    return describeExpression(node.getObject("base")) + "[" + describeExpression(node.getObject("index")) + "]";
  }
  if (t == "NumberLiteral") {
    const n = node.getString("number");
    return n == null ? "0" : n;
  }
  if (t == "BooleanLiteral") return node.getBool("value", false) ? "true" : "false";
  if (t == "StringLiteral") {
    const v = node.getString("value");
    return v == null ? '""' : '"' + v + '"';
  }
  if (t == "FunctionCall") {
    const args = node.getArray("arguments");
    const parts = new Array<string>();
    if (args != null) for (let i = 0; i < args.length; i++) parts.push(describeExpression(args[i]));
    return describeExpression(node.getObject("expression")) + "(" + parts.join(", ") + ")";
  }
  if (t == "ElementaryTypeName") {
    const n = node.getString("name");
    return n == null ? "?" : n;
  }
  return t.length > 0 ? t : "?";
}
