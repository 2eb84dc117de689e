// How the demo backend reads a message. Explicit commands first — `/skill NAME {json}` (one per
// line, several allowed) — then a few plain phrases, each mapped to a skill only when that skill
// is offered to the model (so a denied skill is never called by a phrase, only by an explicit
// command, which the agent then refuses with capability_denied). Phrases are anchored to
// verbs+objects ("list files", "git status", "keccak256 of …") so ordinary prose that merely
// mentions a hash or a file does not trigger a call.
export interface PlannedCall {
  name: string;
  /** Raw JSON text of the arguments (kept raw so malformed JSON reaches the agent as such). */
  arguments: string;
}

/** Reads one JSON value starting at `i` (object/array with balanced brackets, strings respected). */
export function scanJson(text: string, i: number): { raw: string; end: number } | null {
  const open = text[i];
  if (open !== '{' && open !== '[') return null;
  let depth = 0;
  let inStr = false;
  for (let j = i; j < text.length; j++) {
    const c = text[j];
    if (inStr) {
      if (c === '\\') j++;
      else if (c === '"') inStr = false;
      continue;
    }
    if (c === '"') inStr = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return { raw: text.slice(i, j + 1), end: j + 1 };
    }
  }
  return { raw: text.slice(i), end: text.length };
}

const SKILL_CMD = /(^|\n)\s*\/skill\s+([A-Za-z0-9_.-]+)[ \t]*/g;

export function explicitCalls(message: string): PlannedCall[] {
  const out: PlannedCall[] = [];
  SKILL_CMD.lastIndex = 0;
  for (let m = SKILL_CMD.exec(message); m; m = SKILL_CMD.exec(message)) {
    const at = m.index + m[0].length;
    const json = scanJson(message, at);
    if (json) {
      out.push({ name: m[2], arguments: json.raw });
      SKILL_CMD.lastIndex = json.end;
    } else {
      const line = message.slice(at).split('\n')[0].trim();
      out.push({ name: m[2], arguments: line || '{}' });
    }
  }
  return out;
}

const unquote = (s: string) => s.trim().replace(/^(["'`])([\s\S]*)\1$/, '$2');
const j = (o: unknown) => JSON.stringify(o);

type Phrase = { skill: string; match: (msg: string) => Record<string, unknown> | null };

const PHRASES: Phrase[] = [
  {
    skill: 'crypto',
    match: (m) => {
      const r = /\b(keccak-?256|keccak|sha-?256)\s+(?:hash\s+)?(?:of|for)\s+([\s\S]+?)\s*[?.!]?$/i.exec(m.trim());
      if (!r) return null;
      return { op: /sha/i.test(r[1]) ? 'sha256' : 'keccak256', data: unquote(r[2]) };
    },
  },
  {
    skill: 'crypto',
    match: (m) => {
      const r = /\bchecksum(?:med)?\s+(?:address\s+)?(?:of\s+|for\s+)?(0x[0-9a-fA-F]{40})\b/i.exec(m);
      return r ? { op: 'checksum_address', address: r[1] } : null;
    },
  },
  {
    skill: 'files',
    match: (m) => {
      const r = /\blist\s+(?:the\s+)?files(?:\s+in\s+(\S+?))?\s*[?.!]?$/im.exec(m);
      return r ? { op: 'list', path: r[1] ? unquote(r[1]) : '.' } : null;
    },
  },
  {
    skill: 'files',
    match: (m) => {
      const r = /\b(?:read|show|open)\s+(?:the\s+)?file\s+(\S+?)\s*[?.!]?$/im.exec(m);
      return r ? { op: 'read', path: unquote(r[1]) } : null;
    },
  },
  {
    skill: 'git',
    match: (m) => {
      const r = /^\s*(?:show\s+(?:me\s+)?(?:the\s+)?)?git\s+(status|log|diff)\b/im.exec(m);
      return r ? { op: r[1].toLowerCase() } : null;
    },
  },
  {
    skill: 'web_search',
    match: (m) => {
      const r = /\bsearch\s+the\s+web\s+for\s+([\s\S]+?)\s*[?.!]?$/i.exec(m.trim());
      return r ? { query: unquote(r[1]) } : null;
    },
  },
  {
    skill: 'contract_audit',
    match: (m) => {
      const r = /\baudit\s+(?:this\s+|the\s+)?contract\s*:?\s*([\s\S]+)$/i.exec(m);
      if (!r) return null;
      const rest = r[1].trim();
      if (/^\S+\.sol$/.test(rest)) return { path: rest };
      return /\b(contract|library|interface|pragma)\b/.test(rest) ? { code: rest } : null;
    },
  },
  {
    skill: 'shell',
    match: (m) => {
      const r = /\brun\s+`([^`]+)`/i.exec(m);
      if (!r) return null;
      const [program, ...args] = r[1].trim().split(/\s+/);
      return { program, args };
    },
  },
];

export function planCalls(message: string, offered: ReadonlySet<string>): PlannedCall[] {
  const explicit = explicitCalls(message);
  if (explicit.length) return explicit;
  for (const p of PHRASES) {
    if (!offered.has(p.skill)) continue;
    const args = p.match(message);
    if (args) return [{ name: p.skill, arguments: j(args) }];
  }
  return [];
}
