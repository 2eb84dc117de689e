// Streams model text to the client sentence by sentence, each sentence checked by the output
// guardrails first: a client never sees text a guardrail would have redacted or blocked, and
// the stream still flows (the gate holds back at most one sentence). When the check leaves a
// sentence unchanged its original chunks go out one by one, so token-by-token streaming is kept.
// Boundaries are sentence ends followed by whitespace, or newlines, so numbers like 1.5 and
// e-mail addresses stay whole.
const BOUNDARY = /[.!?](?=\s)|\n/g;
const MAX_HOLD = 2000;

export type CheckSegment = (segment: string) => Promise<string>;

export class OutputGate {
  private chunks: string[] = [];
  private len = 0;
  constructor(
    private readonly check: CheckSegment,
    private readonly emit: (text: string) => void,
  ) {}

  async push(text: string): Promise<void> {
    if (!text) return;
    this.chunks.push(text);
    this.len += text.length;
    // Only the newest chunk can introduce a boundary; scan the joined tail cheaply.
    const buf = this.chunks.join('');
    let cut = -1;
    BOUNDARY.lastIndex = Math.max(0, buf.length - text.length - 1);
    for (let m = BOUNDARY.exec(buf); m; m = BOUNDARY.exec(buf)) cut = m.index + 1;
    if (cut < 0 && this.len > MAX_HOLD) {
      // A long run without sentence ends (code, tables): cut at the last whitespace.
      const ws = buf.lastIndexOf(' ', MAX_HOLD);
      cut = ws > 0 ? ws + 1 : MAX_HOLD;
    }
    if (cut <= 0) return;
    while (cut < buf.length && /\s/.test(buf[cut])) cut++;
    await this.release(cut);
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
    const seg = out.join('');
    const checked = await this.check(seg);
    if (checked === seg) for (const c of out) this.emit(c);
    else if (checked) this.emit(checked);
  }
}
