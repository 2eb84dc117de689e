// Server-sent events over a PassThrough that Fastify sends as the reply body, so the request
// span, latency metric and onResponse hooks still run when the stream ends (reply.hijack()
// would skip them). Each event is `event: <name>` + one `data: <json>` line.
import { PassThrough } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';

export interface SseChannel {
  send(event: string, data: unknown): void;
  comment(text: string): void;
  end(): void;
  readonly closed: boolean;
  /** Aborted when the client goes away before the stream ended. */
  readonly signal: AbortSignal;
}

export function formatSse(event: string, data: unknown): string {
  // JSON.stringify never emits raw newlines, so one data line is always enough.
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

export function openSse(req: FastifyRequest, reply: FastifyReply, heartbeatMs = 15_000): SseChannel {
  const body = new PassThrough();
  const ac = new AbortController();
  let ended = false;
  const onClose = () => {
    if (!ended) ac.abort(new DOMException('the client disconnected', 'AbortError'));
    clearInterval(beat);
  };
  reply.raw.on('close', onClose);
  req.raw.on('aborted', onClose);
  // Keeps proxies from closing an idle stream while the turn waits (approvals, slow tools).
  const beat = setInterval(() => ch.comment('keep-alive'), heartbeatMs);
  beat.unref();
  const ch: SseChannel = {
    send(event, data) {
      if (!ended) body.write(formatSse(event, data));
    },
    comment(text) {
      if (!ended) body.write(`: ${text}\n\n`);
    },
    end() {
      if (ended) return;
      ended = true;
      clearInterval(beat);
      body.end();
    },
    get closed() {
      return ended || ac.signal.aborted;
    },
    signal: ac.signal,
  };
  reply
    .code(200)
    .header('content-type', 'text/event-stream; charset=utf-8')
    .header('cache-control', 'no-cache, no-transform')
    .header('x-accel-buffering', 'no')
    .header('connection', 'keep-alive');
  reply.send(body);
  return ch;
}
