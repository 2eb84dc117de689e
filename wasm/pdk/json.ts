// Minimal JSON for guests: a tree parser that never aborts on bad input (AssemblyScript has no
// exceptions, so a malformed document gives null plus lastJsonError()) and a streaming writer.
// Enough for detector and skill payloads; numbers are f64 like JavaScript's.

export enum JsonKind {
  Null = 0,
  Bool = 1,
  Number = 2,
  String = 3,
  Array = 4,
  Object = 5,
}

// Scalars share these empty arrays instead of allocating three each (a detector input has
// thousands of values); only the parser fills arrays, and it gives containers their own.
const NO_VALUES = new Array<JsonValue>(0);
const NO_KEYS = new Array<string>(0);

export class JsonValue {
  kind: JsonKind = JsonKind.Null;
  boolValue: bool = false;
  numValue: f64 = 0;
  strValue: string = "";
  /** Array elements (kind Array). Treat as read-only on values you did not create. */
  items: Array<JsonValue> = NO_VALUES;
  /** Object keys and values in document order (kind Object). */
  keys: Array<string> = NO_KEYS;
  values: Array<JsonValue> = NO_VALUES;

  static makeArray(): JsonValue {
    const v = new JsonValue();
    v.kind = JsonKind.Array;
    v.items = new Array<JsonValue>();
    return v;
  }
  static makeObject(): JsonValue {
    const v = new JsonValue();
    v.kind = JsonKind.Object;
    v.keys = new Array<string>();
    v.values = new Array<JsonValue>();
    return v;
  }

  static makeNull(): JsonValue {
    return new JsonValue();
  }
  static makeBool(b: bool): JsonValue {
    const v = new JsonValue();
    v.kind = JsonKind.Bool;
    v.boolValue = b;
    return v;
  }
  static makeNumber(n: f64): JsonValue {
    const v = new JsonValue();
    v.kind = JsonKind.Number;
    v.numValue = n;
    return v;
  }
  static makeString(s: string): JsonValue {
    const v = new JsonValue();
    v.kind = JsonKind.String;
    v.strValue = s;
    return v;
  }

  isNull(): bool {
    return this.kind == JsonKind.Null;
  }
  isObject(): bool {
    return this.kind == JsonKind.Object;
  }
  isArray(): bool {
    return this.kind == JsonKind.Array;
  }
  isString(): bool {
    return this.kind == JsonKind.String;
  }
  isNumber(): bool {
    return this.kind == JsonKind.Number;
  }

  /** Member of an object, or null (also when this is not an object). */
  get(key: string): JsonValue | null {
    if (this.kind != JsonKind.Object) return null;
    for (let i = 0; i < this.keys.length; i++) {
      if (this.keys[i] == key) return this.values[i];
    }
    return null;
  }

  /** String member, or null when missing or not a string. */
  getString(key: string): string | null {
    const v = this.get(key);
    return v != null && v.kind == JsonKind.String ? v.strValue : null;
  }

  getNumber(key: string, fallback: f64): f64 {
    const v = this.get(key);
    return v != null && v.kind == JsonKind.Number ? v.numValue : fallback;
  }

  getBool(key: string, fallback: bool): bool {
    const v = this.get(key);
    return v != null && v.kind == JsonKind.Bool ? v.boolValue : fallback;
  }

  /** Object member, or null when missing or not an object. */
  getObject(key: string): JsonValue | null {
    const v = this.get(key);
    return v != null && v.kind == JsonKind.Object ? v : null;
  }

  /** Array member's elements, or null when missing or not an array. */
  getArray(key: string): Array<JsonValue> | null {
    const v = this.get(key);
    return v != null && v.kind == JsonKind.Array ? v.items : null;
  }

  /** Serializes back to JSON text. */
  toString(): string {
    const w = new JsonWriter();
    w.value(this);
    return w.toString();
  }
}

// ---- parser -------------------------------------------------------------------------------

const MAX_DEPTH = 256;
let lastError = "";

/** Why the last parseJson returned null. */
export function lastJsonError(): string {
  return lastError;
}

/** Parses a JSON document; null (and lastJsonError()) when it is not valid JSON. */
export function parseJson(text: string): JsonValue | null {
  const p = new Parser(text);
  p.skipWs();
  const v = p.parseValue(0);
  if (p.failed) {
    lastError = p.error;
    return null;
  }
  p.skipWs();
  if (p.pos < p.len) {
    lastError = "unexpected trailing characters at " + p.pos.toString();
    return null;
  }
  lastError = "";
  return v;
}

class Parser {
  pos: i32 = 0;
  len: i32;
  failed: bool = false;
  error: string = "";

  constructor(public s: string) {
    this.len = s.length;
  }

  fail(msg: string): JsonValue {
    if (!this.failed) {
      this.failed = true;
      this.error = msg + " at " + this.pos.toString();
    }
    return new JsonValue();
  }

  peek(): i32 {
    return this.pos < this.len ? this.s.charCodeAt(this.pos) : -1;
  }

  skipWs(): void {
    while (this.pos < this.len) {
      const c = this.s.charCodeAt(this.pos);
      if (c == 0x20 || c == 0x0a || c == 0x0d || c == 0x09) this.pos++;
      else break;
    }
  }

  parseValue(depth: i32): JsonValue {
    if (depth > MAX_DEPTH) return this.fail("nesting too deep");
    const c = this.peek();
    if (c == 0x7b) return this.parseObject(depth);
    if (c == 0x5b) return this.parseArray(depth);
    if (c == 0x22) {
      const s = this.parseString();
      return this.failed ? new JsonValue() : JsonValue.makeString(s);
    }
    if (c == 0x2d || (c >= 0x30 && c <= 0x39)) return this.parseNumber();
    if (this.matchWord("true")) return JsonValue.makeBool(true);
    if (this.matchWord("false")) return JsonValue.makeBool(false);
    if (this.matchWord("null")) return JsonValue.makeNull();
    return this.fail(c < 0 ? "unexpected end of input" : "unexpected character");
  }

  matchWord(w: string): bool {
    const n = w.length;
    if (this.pos + n > this.len) return false;
    for (let i = 0; i < n; i++) {
      if (this.s.charCodeAt(this.pos + i) != w.charCodeAt(i)) return false;
    }
    this.pos += n;
    return true;
  }

  parseObject(depth: i32): JsonValue {
    const v = JsonValue.makeObject();
    this.pos++; // {
    this.skipWs();
    if (this.peek() == 0x7d) {
      this.pos++;
      return v;
    }
    while (!this.failed) {
      this.skipWs();
      if (this.peek() != 0x22) return this.fail("expected a string key");
      const k = this.parseString();
      if (this.failed) break;
      this.skipWs();
      if (this.peek() != 0x3a) return this.fail("expected ':'");
      this.pos++;
      this.skipWs();
      const val = this.parseValue(depth + 1);
      if (this.failed) break;
      v.keys.push(k);
      v.values.push(val);
      this.skipWs();
      const c = this.peek();
      if (c == 0x2c) {
        this.pos++;
        continue;
      }
      if (c == 0x7d) {
        this.pos++;
        return v;
      }
      return this.fail("expected ',' or '}'");
    }
    return v;
  }

  parseArray(depth: i32): JsonValue {
    const v = JsonValue.makeArray();
    this.pos++; // [
    this.skipWs();
    if (this.peek() == 0x5d) {
      this.pos++;
      return v;
    }
    while (!this.failed) {
      this.skipWs();
      const item = this.parseValue(depth + 1);
      if (this.failed) break;
      v.items.push(item);
      this.skipWs();
      const c = this.peek();
      if (c == 0x2c) {
        this.pos++;
        continue;
      }
      if (c == 0x5d) {
        this.pos++;
        return v;
      }
      return this.fail("expected ',' or ']'");
    }
    return v;
  }

  parseString(): string {
    this.pos++; // opening quote
    const start = this.pos;
    // Fast path: no escapes.
    while (this.pos < this.len) {
      const c = this.s.charCodeAt(this.pos);
      if (c == 0x22) {
        const out = this.s.substring(start, this.pos);
        this.pos++;
        return out;
      }
      if (c == 0x5c) break;
      if (c < 0x20) {
        this.fail("control character in string");
        return "";
      }
      this.pos++;
    }
    const parts = new Array<string>();
    parts.push(this.s.substring(start, this.pos));
    while (this.pos < this.len) {
      const c = this.s.charCodeAt(this.pos);
      if (c == 0x22) {
        this.pos++;
        return parts.join("");
      }
      if (c < 0x20) {
        this.fail("control character in string");
        return "";
      }
      if (c != 0x5c) {
        const runStart = this.pos;
        while (this.pos < this.len) {
          const d = this.s.charCodeAt(this.pos);
          if (d == 0x22 || d == 0x5c || d < 0x20) break;
          this.pos++;
        }
        parts.push(this.s.substring(runStart, this.pos));
        continue;
      }
      this.pos++; // backslash
      if (this.pos >= this.len) break;
      const e = this.s.charCodeAt(this.pos);
      this.pos++;
      if (e == 0x22) parts.push('"');
      else if (e == 0x5c) parts.push("\\");
      else if (e == 0x2f) parts.push("/");
      else if (e == 0x62) parts.push("\b");
      else if (e == 0x66) parts.push("\f");
      else if (e == 0x6e) parts.push("\n");
      else if (e == 0x72) parts.push("\r");
      else if (e == 0x74) parts.push("\t");
      else if (e == 0x75) {
        if (this.pos + 4 > this.len) break;
        let code: i32 = 0;
        for (let i = 0; i < 4; i++) {
          const h = this.s.charCodeAt(this.pos + i);
          let d: i32 = -1;
          if (h >= 0x30 && h <= 0x39) d = h - 0x30;
          else if (h >= 0x61 && h <= 0x66) d = h - 0x61 + 10;
          else if (h >= 0x41 && h <= 0x46) d = h - 0x41 + 10;
          if (d < 0) {
            this.fail("bad \\u escape");
            return "";
          }
          code = (code << 4) | d;
        }
        this.pos += 4;
        // UTF-16 code units map straight onto AssemblyScript strings, surrogate pairs included.
        parts.push(String.fromCharCode(code));
      } else {
        this.fail("bad escape");
        return "";
      }
    }
    this.fail("unterminated string");
    return "";
  }

  parseNumber(): JsonValue {
    const start = this.pos;
    if (this.peek() == 0x2d) this.pos++;
    let digits = 0;
    while (this.pos < this.len) {
      const c = this.s.charCodeAt(this.pos);
      if (c >= 0x30 && c <= 0x39) {
        this.pos++;
        digits++;
      } else break;
    }
    if (digits == 0) return this.fail("bad number");
    if (this.peek() == 0x2e) {
      this.pos++;
      let frac = 0;
      while (this.pos < this.len) {
        const c = this.s.charCodeAt(this.pos);
        if (c >= 0x30 && c <= 0x39) {
          this.pos++;
          frac++;
        } else break;
      }
      if (frac == 0) return this.fail("bad number");
    }
    const e = this.peek();
    if (e == 0x65 || e == 0x45) {
      this.pos++;
      const sgn = this.peek();
      if (sgn == 0x2b || sgn == 0x2d) this.pos++;
      let exp = 0;
      while (this.pos < this.len) {
        const c = this.s.charCodeAt(this.pos);
        if (c >= 0x30 && c <= 0x39) {
          this.pos++;
          exp++;
        } else break;
      }
      if (exp == 0) return this.fail("bad number");
    }
    return JsonValue.makeNumber(parseFloat(this.s.substring(start, this.pos)));
  }
}

// ---- writer -------------------------------------------------------------------------------

/** Quotes a string as a JSON string literal. */
export function jsonQuote(s: string): string {
  let needs = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c == 0x22 || c == 0x5c || c < 0x20) {
      needs = true;
      break;
    }
  }
  if (!needs) return '"' + s + '"';
  const parts = new Array<string>();
  parts.push('"');
  let run = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let esc: string | null = null;
    if (c == 0x22) esc = '\\"';
    else if (c == 0x5c) esc = "\\\\";
    else if (c == 0x0a) esc = "\\n";
    else if (c == 0x0d) esc = "\\r";
    else if (c == 0x09) esc = "\\t";
    else if (c < 0x20) {
      const hex = c.toString(16);
      esc = "\\u" + "0000".substring(0, 4 - hex.length) + hex;
    }
    if (esc != null) {
      if (i > run) parts.push(s.substring(run, i));
      parts.push(esc);
      run = i + 1;
    }
  }
  if (run < s.length) parts.push(s.substring(run));
  parts.push('"');
  return parts.join("");
}

/** Streaming JSON writer; commas are placed automatically. */
export class JsonWriter {
  private parts: Array<string> = [];
  private first: Array<bool> = [];
  private afterKey: bool = false;

  private sep(): void {
    if (this.afterKey) {
      this.afterKey = false;
      return;
    }
    const n = this.first.length;
    if (n > 0) {
      if (!this.first[n - 1]) this.parts.push(",");
      this.first[n - 1] = false;
    }
  }

  beginObject(): JsonWriter {
    this.sep();
    this.parts.push("{");
    this.first.push(true);
    return this;
  }
  endObject(): JsonWriter {
    this.first.pop();
    this.parts.push("}");
    return this;
  }
  beginArray(): JsonWriter {
    this.sep();
    this.parts.push("[");
    this.first.push(true);
    return this;
  }
  endArray(): JsonWriter {
    this.first.pop();
    this.parts.push("]");
    return this;
  }
  key(k: string): JsonWriter {
    this.sep();
    this.parts.push(jsonQuote(k));
    this.parts.push(":");
    this.afterKey = true;
    return this;
  }
  string(s: string): JsonWriter {
    this.sep();
    this.parts.push(jsonQuote(s));
    return this;
  }
  number(n: f64): JsonWriter {
    this.sep();
    // JSON has no NaN/Infinity.
    this.parts.push(isFinite(n) ? (n == Math.floor(n) && Math.abs(n) < 9007199254740992 ? (<i64>n).toString() : n.toString()) : "null");
    return this;
  }
  integer(n: i64): JsonWriter {
    this.sep();
    this.parts.push(n.toString());
    return this;
  }
  bool(b: bool): JsonWriter {
    this.sep();
    this.parts.push(b ? "true" : "false");
    return this;
  }
  nullValue(): JsonWriter {
    this.sep();
    this.parts.push("null");
    return this;
  }
  value(v: JsonValue): JsonWriter {
    if (v.kind == JsonKind.Null) return this.nullValue();
    if (v.kind == JsonKind.Bool) return this.bool(v.boolValue);
    if (v.kind == JsonKind.Number) return this.number(v.numValue);
    if (v.kind == JsonKind.String) return this.string(v.strValue);
    if (v.kind == JsonKind.Array) {
      this.beginArray();
      for (let i = 0; i < v.items.length; i++) this.value(v.items[i]);
      return this.endArray();
    }
    this.beginObject();
    for (let i = 0; i < v.keys.length; i++) {
      this.key(v.keys[i]);
      this.value(v.values[i]);
    }
    return this.endObject();
  }
  toString(): string {
    return this.parts.join("");
  }
}
