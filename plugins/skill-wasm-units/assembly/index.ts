// skill-wasm-units (AssemblyScript, runs in the WASM host): converts Ether amounts between
// denominations (wei, gwei, ether, ...) exactly. Agents get this wrong with floating point:
// 0.1 ether is 100000000000000000 wei, not 1.0000000000000001e17. The conversion moves the
// decimal point on the digit string, so it is exact for any size; hex input ("0x1bc16d674ec80000",
// as JSON-RPC returns balances) is converted to decimal digit by digit, and an integral result
// also comes back in hex.
// Input: {"value": "1.5" | "0x..." | "1e18", "from": "ether", "to": "wei"}.
// Bad input (unknown unit, malformed number, more than 200 characters) fails the call with a
// message saying which field is wrong; it never guesses.
import { readInputString, writeOutputString, setError, parseJson, JsonWriter, JsonKind } from "pdk";

const MAX_LEN = 200;

function unitExponent(u: string): i32 {
  const s = u.toLowerCase();
  if (s == "wei") return 0;
  if (s == "kwei" || s == "babbage") return 3;
  if (s == "mwei" || s == "lovelace") return 6;
  if (s == "gwei" || s == "shannon") return 9;
  if (s == "szabo" || s == "microether") return 12;
  if (s == "finney" || s == "milliether") return 15;
  if (s == "ether" || s == "eth") return 18;
  if (s == "kether" || s == "grand") return 21;
  if (s == "mether") return 24;
  return -1;
}

/** A decimal number as sign, integer digits and fraction digits (no exponent). */
class Decimal {
  constructor(public negative: bool, public digits: string, public point: i32) {}
  // value = digits with the decimal point `point` places from the left.
}

let problem = "";

function isDigit(c: i32): bool {
  return c >= 0x30 && c <= 0x39;
}

function hexToDecimalDigits(hex: string): string | null {
  // Decimal digits, least significant first; multiply by 16 and add each hex digit.
  const acc = new Array<i32>();
  acc.push(0);
  for (let i = 0; i < hex.length; i++) {
    const c = hex.charCodeAt(i);
    let d: i32 = -1;
    if (c >= 0x30 && c <= 0x39) d = c - 0x30;
    else if (c >= 0x61 && c <= 0x66) d = c - 0x61 + 10;
    else if (c >= 0x41 && c <= 0x46) d = c - 0x41 + 10;
    if (d < 0) return null;
    let carry = d;
    for (let j = 0; j < acc.length; j++) {
      const v = acc[j] * 16 + carry;
      acc[j] = v % 10;
      carry = v / 10;
    }
    while (carry > 0) {
      acc.push(carry % 10);
      carry /= 10;
    }
  }
  let out = "";
  for (let j = acc.length - 1; j >= 0; j--) out += String.fromCharCode(0x30 + acc[j]);
  return out;
}

function decimalDigitsToHex(dec: string): string {
  // Repeated division by 16 of a decimal digit string.
  let cur = dec;
  let out = "";
  const hexDigits = "0123456789abcdef";
  while (!(cur.length == 1 && cur.charCodeAt(0) == 0x30) && cur.length > 0) {
    let rem = 0;
    let next = "";
    for (let i = 0; i < cur.length; i++) {
      const v = rem * 10 + (cur.charCodeAt(i) - 0x30);
      const q = v / 16;
      rem = v % 16;
      if (next.length > 0 || q > 0) next += String.fromCharCode(0x30 + q);
    }
    out = hexDigits.charAt(rem) + out;
    cur = next.length == 0 ? "0" : next;
  }
  return "0x" + (out.length == 0 ? "0" : out);
}

function parseAmount(raw: string): Decimal | null {
  let s = raw.trim();
  if (s.length == 0) {
    problem = "value is empty";
    return null;
  }
  let negative = false;
  if (s.charCodeAt(0) == 0x2d) {
    negative = true;
    s = s.substring(1);
  }
  if (s.length > 2 && s.charCodeAt(0) == 0x30 && (s.charCodeAt(1) == 0x78 || s.charCodeAt(1) == 0x58)) {
    const dec = hexToDecimalDigits(s.substring(2));
    if (dec == null) {
      problem = "value is not a valid hex number";
      return null;
    }
    return new Decimal(negative, dec, dec.length);
  }
  let intPart = "";
  let fracPart = "";
  let exp: i32 = 0;
  let i = 0;
  while (i < s.length && isDigit(s.charCodeAt(i))) i++;
  intPart = s.substring(0, i);
  if (i < s.length && s.charCodeAt(i) == 0x2e) {
    const start = i + 1;
    i = start;
    while (i < s.length && isDigit(s.charCodeAt(i))) i++;
    fracPart = s.substring(start, i);
  }
  if (intPart.length == 0 && fracPart.length == 0) {
    problem = "value is not a number";
    return null;
  }
  if (i < s.length && (s.charCodeAt(i) == 0x65 || s.charCodeAt(i) == 0x45)) {
    i++;
    let expNeg = false;
    if (i < s.length && (s.charCodeAt(i) == 0x2b || s.charCodeAt(i) == 0x2d)) {
      expNeg = s.charCodeAt(i) == 0x2d;
      i++;
    }
    const start = i;
    while (i < s.length && isDigit(s.charCodeAt(i))) i++;
    if (i == start || i - start > 3) {
      problem = "value has a bad exponent";
      return null;
    }
    exp = I32.parseInt(s.substring(start, i));
    if (expNeg) exp = -exp;
  }
  if (i != s.length) {
    problem = "value has unexpected characters";
    return null;
  }
  return new Decimal(negative, intPart + fracPart, intPart.length + exp);
}

/** Renders digits with the point at `point`, trimming zeros; returns [text, isInteger]. */
function render(d: Decimal): string {
  let digits = d.digits;
  let point = d.point;
  // Pad so the point falls inside the digit string.
  if (point <= 0) {
    digits = "0".repeat(1 - point) + digits;
    point = 1;
  }
  if (point > digits.length) digits = digits + "0".repeat(point - digits.length);
  let intPart = digits.substring(0, point);
  let frac = digits.substring(point);
  let a = 0;
  while (a < intPart.length - 1 && intPart.charCodeAt(a) == 0x30) a++;
  intPart = intPart.substring(a);
  let b = frac.length;
  while (b > 0 && frac.charCodeAt(b - 1) == 0x30) b--;
  frac = frac.substring(0, b);
  const zero = intPart == "0" && frac.length == 0;
  return (d.negative && !zero ? "-" : "") + intPart + (frac.length > 0 ? "." + frac : "");
}

export function call(): i32 {
  const doc = parseJson(readInputString());
  if (doc == null || !doc.isObject()) {
    setError("input must be a JSON object {value, from, to}");
    return 1;
  }
  const v = doc.get("value");
  let value: string | null = null;
  if (v != null && v.kind == JsonKind.String) value = v.strValue;
  else if (v != null && v.kind == JsonKind.Number) value = v.numValue.toString();
  if (value == null) {
    setError("value must be a string (or number) such as \"1.5\" or \"0x1bc16d674ec80000\"");
    return 1;
  }
  if (value.length > MAX_LEN) {
    setError("value is longer than " + MAX_LEN.toString() + " characters");
    return 1;
  }
  const from = doc.getString("from");
  const to = doc.getString("to");
  const fromExp = from == null ? -1 : unitExponent(from);
  const toExp = to == null ? -1 : unitExponent(to);
  if (fromExp < 0 || toExp < 0) {
    setError("from and to must be units: wei, kwei, mwei, gwei, szabo, finney, ether, kether, mether");
    return 1;
  }
  const amount = parseAmount(value);
  if (amount == null) {
    setError(problem);
    return 1;
  }
  amount.point += fromExp - toExp;
  const text = render(amount);
  const integral = text.indexOf(".") < 0;
  const w = new JsonWriter();
  w.beginObject();
  w.key("value").string(text);
  w.key("unit").string(to!.toLowerCase());
  w.key("integer").bool(integral);
  if (integral) {
    const neg = text.startsWith("-");
    w.key("hex").string((neg ? "-" : "") + decimalDigitsToHex(neg ? text.substring(1) : text));
  }
  w.endObject();
  writeOutputString(w.toString());
  return 0;
}
