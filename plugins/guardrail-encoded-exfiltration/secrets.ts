// Secret patterns shared by the encoded-exfiltration layer: private keys, provider API keys and
// labelled 32-byte hex private keys. EVM work prints 32-byte values all the time (transaction,
// block and storage hashes, topics, salts), so a bare 0x + 64 hex value is NOT treated as a key;
// only one labelled as a private/secret/signing key nearby is. The label wins over the shape:
// "txHash: 0x…" is never reported, "PRIVATE_KEY=0x…" always is.
export interface SecretHit {
  kind: string;
  start: number;
  end: number;
  score: number;
}

// `hint`: text every match contains, checked first; a text without it is not scanned by `re`
// (whose leading look-behind makes the engine try every position).
const SECRET_PATTERNS: Array<{ kind: string; score: number; re: RegExp; hint?: string | RegExp }> = [
  {
    kind: 'private_key_pem',
    hint: 'PRIVATE KEY',
    score: 0.99,
    re: /-----BEGIN (?:RSA |EC |DSA |OPENSSH |ENCRYPTED |PGP )?PRIVATE KEY(?: BLOCK)?-----[\s\S]{0,8000}?(?:-----END [A-Z ]*PRIVATE KEY(?: BLOCK)?-----|$)/g,
  },
  { kind: 'openai_api_key', hint: 'sk-', score: 0.95, re: /(?<![\w-])sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}(?![\w-])/g },
  { kind: 'anthropic_api_key', hint: 'sk-ant-', score: 0.95, re: /(?<![\w-])sk-ant-(?:api|admin)\d{2}-[A-Za-z0-9_-]{20,}(?![\w-])/g },
  {
    kind: 'aws_access_key',
    hint: /A(?:KIA|SIA|GPA|IDA|ROA|NPA|NVA|IPA)/,
    score: 0.95,
    re: /(?<![A-Z0-9])(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[0-9A-Z]{16}(?![A-Z0-9])/g,
  },
  {
    kind: 'aws_secret_key',
    hint: /aws_?secret/i,
    score: 0.9,
    re: /aws_?secret_?(?:access_?)?key["'\s:=]{1,6}[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])/gi,
  },
  {
    kind: 'github_token',
    hint: /gh[pousr]_|github_pat_/,
    score: 0.95,
    re: /(?<![\w])(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{60,})(?![\w])/g,
  },
  { kind: 'slack_token', hint: 'xox', score: 0.95, re: /(?<![\w])xox[abprs]-[A-Za-z0-9-]{10,}(?![\w])/g },
  { kind: 'google_api_key', hint: 'AIza', score: 0.9, re: /(?<![\w-])AIza[0-9A-Za-z_-]{35}(?![\w-])/g },
  { kind: 'stripe_secret_key', hint: '_live_', score: 0.95, re: /(?<![\w])(?:sk|rk)_live_[0-9A-Za-z]{16,}(?![\w])/g },
  { kind: 'jwt', hint: 'eyJ', score: 0.75, re: /(?<![\w-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}(?![\w-])/g },
  {
    kind: 'generic_secret_assignment',
    score: 0.8,
    re: /(?:api[_-]?key|secret[_-]?key|client[_-]?secret|access[_-]?token|auth[_-]?token|password|passwd)["'\s]*[:=]\s*["']?[A-Za-z0-9_\-+/=.]{16,}["']?/gi,
  },
];

const HEX32 = /(?<![0-9A-Za-z])(?:0x)?[0-9a-fA-F]{64}(?![0-9A-Za-z])/g;
const KEY_LABEL =
  /(?:private[\s_-]?key|priv[\s_-]?key|privkey|secret[\s_-]?key|signing[\s_-]?key|wallet[\s_-]?key|\bpk\b|\bsk\b|mnemonic|seed)[^\n]{0,20}$/i;
const HASH_LABEL =
  /(?:hash|tx|txid|transaction|block|root|topic|keccak|sha|digest|salt|slot|storage|commit|nonce|id|codehash|selector|signature|sig|r|s|v)["'\s:=]*$/i;

export function findSecrets(text: string): SecretHit[] {
  const hits: SecretHit[] = [];
  for (const p of SECRET_PATTERNS) {
    if (p.hint !== undefined && !(typeof p.hint === 'string' ? text.includes(p.hint) : p.hint.test(text))) continue;
    p.re.lastIndex = 0;
    let m: RegExpExecArray | null;
    let c = 0;
    while ((m = p.re.exec(text)) && c++ < 50) hits.push({ kind: p.kind, start: m.index, end: m.index + m[0].length, score: p.score });
  }
  if (text.length < 64) return hits;
  HEX32.lastIndex = 0;
  let m: RegExpExecArray | null;
  let c = 0;
  while ((m = HEX32.exec(text)) && c++ < 200) {
    const before = text.slice(Math.max(0, m.index - 40), m.index);
    const lastLine = before.split('\n').pop() ?? '';
    // The nearest label decides: a hash label right before the value beats a key word further back.
    if (HASH_LABEL.test(lastLine) && !/(?:private|priv|secret|signing)[\s_-]?key["'\s:=]*$/i.test(lastLine)) continue;
    if (KEY_LABEL.test(lastLine)) hits.push({ kind: 'hex_private_key', start: m.index, end: m.index + m[0].length, score: 0.95 });
  }
  return hits;
}
