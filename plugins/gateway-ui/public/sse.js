// Server-sent events over fetch(): EventSource cannot POST a JSON body, so the playground reads
// the response stream itself. Parsing follows the HTML spec's event-stream rules (event/data
// fields, multi-line data joined with "\n", comments, CR/LF/CRLF line ends). No DOM; tested in Node.

/** Incremental parser: feed() text chunks, get complete events back. */
export class SseParser {
  constructor() {
    this.buf = '';
    this.event = '';
    this.data = [];
  }

  /**
   * @param {string} chunk
   * @returns {Array<{event: string, data: string}>}
   */
  feed(chunk) {
    this.buf += chunk;
    const out = [];
    for (;;) {
      const m = /\r\n|\r|\n/.exec(this.buf);
      if (!m) break;
      // A lone CR at the very end may be the first half of CRLF: wait for the next chunk.
      if (m[0] === '\r' && m.index === this.buf.length - 1) break;
      const line = this.buf.slice(0, m.index);
      this.buf = this.buf.slice(m.index + m[0].length);
      if (line === '') {
        if (this.data.length > 0) out.push({ event: this.event || 'message', data: this.data.join('\n') });
        this.event = '';
        this.data = [];
        continue;
      }
      if (line.startsWith(':')) continue;
      const i = line.indexOf(':');
      const field = i === -1 ? line : line.slice(0, i);
      let value = i === -1 ? '' : line.slice(i + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'event') this.event = value;
      else if (field === 'data') this.data.push(value);
    }
    return out;
  }
}

/**
 * Reads an SSE response body, calling onEvent with each event's name and parsed JSON data.
 * Resolves when the stream ends. A data payload that is not JSON is passed on as a string.
 * @param {ReadableStream<Uint8Array>} body
 * @param {(name: string, data: unknown) => void} onEvent
 */
export async function readSse(body, onEvent) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = new SseParser();
  const emit = (events) => {
    for (const e of events) {
      let data = e.data;
      try {
        data = JSON.parse(e.data);
      } catch {
        /* keep the raw text */
      }
      onEvent(e.event, data);
    }
  };
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    emit(parser.feed(decoder.decode(value, { stream: true })));
  }
  // Per the spec an event not closed by a blank line when the stream ends is dropped.
  emit(parser.feed(decoder.decode()));
}
