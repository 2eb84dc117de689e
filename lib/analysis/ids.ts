// Stable finding ids: a hash of the detector, contract, function and the normalized code of the
// flagged lines, so an unrelated edit elsewhere (or a shifted line number) keeps the same id.
import { createHash } from 'node:crypto';

/** Whitespace- and comment-insensitive form of a code snippet. */
export function normalizeCode(code: string): string {
  return code
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\/\/[^\n]*/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

export function findingId(parts: { detector: string; contract?: string | null; function?: string | null; code: string }): string {
  const h = createHash('sha256');
  h.update([parts.detector, parts.contract ?? '', parts.function ?? '', normalizeCode(parts.code)].join('\u0000'));
  return h.digest('hex').slice(0, 16);
}

/** Text of lines [line, endLine] (1-based, inclusive). */
export function sliceLines(source: string, line: number, endLine = line): string {
  const lines = source.split(/\r?\n/);
  return lines.slice(Math.max(0, line - 1), Math.max(line, endLine)).join('\n');
}
