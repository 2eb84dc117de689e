// The output guardrails' gate between the model and the client. Two kinds:
//
// - OutputGate, for a streamed answer (SSE): the text goes out sentence by sentence, each
//   sentence checked by the output guardrails first, so a client never sees text a guardrail
//   would have redacted or blocked, and the stream still flows (the gate holds back at most one
//   sentence). When the check leaves a sentence unchanged its original chunks go out one by one,
//   so token-by-token streaming is kept. Boundaries are sentence ends followed by whitespace, or
//   newlines, so numbers like 1.5 and e-mail addresses stay whole.
// - WholeAnswerGate, for an answer the client receives whole (the synchronous chat endpoint):
//   nothing goes out before the model's answer is complete, so it is checked once, as the client
//   will see it — one chain run instead of one per sentence, and a redaction's offsets are those
//   of the whole text.
const MAX_HOLD = 2000;

/** Whether a character is white space as `\s` has it (called only at a sentence end). */
const SPACE = /\s/;
const isSpace = (c: number) => SPACE.test(String.fromCharCode(c));

export type CheckSegment = (segment: string) => Promise<string>;

/** What the agent loop feeds a step's text through: push each chunk, then flush at the end. */
export interface AnswerGate {
  /** Returns a promise only when text is released (and checked); otherwise nothing to wait for. */
  push(text: string): Promise<void> | undefined;
  /** Checks and releases what is held; call once, when the model's step has ended without error. */
  flush(): Promise<void>;
}

/**
 * Holds the whole step and checks it once at flush. Chunks that never reach flush (a step that
 * fails or is aborted) are never released. What the check returns (the text, or its redaction)
 * is emitted as one piece; a block throws out of flush like the streaming gate's check.
 */
export class WholeAnswerGate implements AnswerGate {
  private chunks: string[] = [];
  constructor(
    private readonly check: CheckSegment,
    private readonly emit: (text: string) => void,
  ) {}

  push(text: string): undefined {
    if (text) this.chunks.push(text);
  }

  async flush(): Promise<void> {
    if (!this.chunks.length) return;
    const whole = this.chunks.join('');
    this.chunks = [];
    const checked = await this.check(whole);
    if (checked) this.emit(checked);
  }
}

export class OutputGate implements AnswerGate {
  private chunks: string[] = [];
  private len = 0;
  /** Last character held back (a boundary may be "." at the end of one chunk + " " in the next). */
  private last = '';
  constructor(
    private readonly check: CheckSegment,
    private readonly emit: (text: string) => void,
  ) {}

  push(text: string): Promise<void> | undefined {
    if (!text) return;
    this.chunks.push(text);
    this.len += text.length;
    // Only the newest chunk (with the character before it) can introduce a boundary: scan just
    // that, from its end, with offsets relative to `base` in the held text. (Character codes
    // rather than a regular expression: this runs for every token of every answer.)
    const prev = this.last;
    const L = prev.length;
    const n = L + text.length;
    const base = this.len - n;
    this.last = text[text.length - 1];
    let cut = -1;
    for (let p = n - 1; p >= 0; p--) {
      const c = p < L ? prev.charCodeAt(p) : text.charCodeAt(p - L);
      if (c === 10 || ((c === 46 || c === 33 || c === 63) && p + 1 < n && isSpace(text.charCodeAt(p + 1 - L)))) {
        cut = p + 1;
        break;
      }
    }
    if (cut >= 0) {
      while (cut < n && isSpace(cut < L ? prev.charCodeAt(cut) : text.charCodeAt(cut - L))) cut++;
      cut += base;
    } else if (this.len > MAX_HOLD) {
      // A long run without sentence ends (code, tables): cut at the last whitespace.
      const buf = this.chunks.join('');
      const ws = buf.lastIndexOf(' ', MAX_HOLD);
      cut = ws > 0 ? ws + 1 : MAX_HOLD;
      while (cut < buf.length && SPACE.test(buf[cut])) cut++;
    }
    if (cut <= 0) return;
    return this.release(cut);
  }

  async flush(): Promise<void> {
    if (this.len) await this.release(this.len);
  }

  private async release(cut: number): Promise<void> {
    const out: string[] = [];
    let taken = 0;
    while (taken < cut && this.chunks.length) {
      const c = this.chunks[0];
      if (taken + c.length <= cut) {
        out.push(c);
        taken += c.length;
        this.chunks.shift();
      } else {
        const k = cut - taken;
        out.push(c.slice(0, k));
        this.chunks[0] = c.slice(k);
        taken += k;
      }
    }
    this.len -= taken;
    if (!this.len) this.last = '';
    const seg = out.join('');
    const checked = await this.check(seg);
    if (checked === seg) for (const c of out) this.emit(c);
    else if (checked) this.emit(checked);
  }
}
