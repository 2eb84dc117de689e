// What the process skills (shell, git) collect from a child they run: stdout and stderr within
// one byte budget for both (past it the child is killed and the answer is marked truncated), and
// a wall-clock limit (past it the child is killed and the answer is marked timed out).
import type { Readable } from 'node:stream';

export interface ChildOutput {
  stdout(): string;
  stderr(): string;
  readonly truncated: boolean;
  readonly timedOut: boolean;
  /** Stops the clock: call it when the child closes or fails to start. */
  done(): void;
}

export function collectOutput(
  child: { stdout: Readable; stderr: Readable; kill(signal: NodeJS.Signals): boolean },
  maxBytes: number,
  timeoutMs: number,
): ChildOutput {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  let size = 0;
  let truncated = false;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, timeoutMs);
  const take = (into: Buffer[]) => (b: Buffer) => {
    if (truncated) return;
    const room = maxBytes - size;
    if (b.length > room) {
      into.push(b.subarray(0, room));
      truncated = true;
      child.kill('SIGKILL');
    } else into.push(b);
    size += Math.min(b.length, room);
  };
  child.stdout.on('data', take(out));
  child.stderr.on('data', take(err));
  return {
    stdout: () => Buffer.concat(out).toString('utf8'),
    stderr: () => Buffer.concat(err).toString('utf8'),
    get truncated() {
      return truncated;
    },
    get timedOut() {
      return timedOut;
    },
    done: () => clearTimeout(timer),
  };
}
