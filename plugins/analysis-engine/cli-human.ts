// The terminal summary of `vigil analyze` (the default on a TTY), in the spirit of Slither's and
// Aderyn's: one line per finding — severity, detector, file:line, title — worst first, then the
// totals and everything that did not complete. Colour only when stdout is a terminal.
import type { AnalysisResult } from '../../kernel/index.ts';
import { SEVERITIES, type Severity } from '../../schemas/finding.ts';

export interface Incomplete {
  file: string;
  /** 'compile', 'parse', 'file', or the name of the tool that timed out or failed. */
  what: string;
  detail: string;
}

const COLORS: Record<Severity, string> = {
  CRITICAL: '\x1b[1;35m',
  HIGH: '\x1b[1;31m',
  MEDIUM: '\x1b[33m',
  LOW: '\x1b[36m',
  INFO: '\x1b[2m',
};
const RESET = '\x1b[0m';
const BOLD = '\x1b[1m';

export function formatHuman(result: AnalysisResult, opts: { color: boolean; files: number }): string {
  const c = (code: string, s: string) => (opts.color ? `${code}${s}${RESET}` : s);
  const out: string[] = [];
  const files = Array.isArray(result.files) ? (result.files as Array<{ compilation?: { ok: boolean } | null }>) : null;
  const compiled = files ? files.filter((f) => f.compilation?.ok).length : result.compilation?.ok ? 1 : 0;
  out.push(
    c(BOLD, `vigil ${result.audit_type} analysis`) +
      ` — ${opts.files} file${opts.files === 1 ? '' : 's'}, ${compiled} compiled${result.contract.compiler ? ` (solc ${result.contract.compiler})` : ''}, ${result.execution_time} s`,
  );
  out.push('');
  if (!result.findings.length) out.push('No findings.');
  else {
    const loc = (f: (typeof result.findings)[number]) => `${f.location.file}:${f.location.line}`;
    const detW = Math.min(40, Math.max(8, ...result.findings.map((f) => String(f.detector ?? f.tools[0] ?? '').length)));
    const locW = Math.min(60, Math.max(8, ...result.findings.map((f) => loc(f).length)));
    for (const f of result.findings) {
      const sev = f.severity.padEnd(8);
      out.push(`${c(COLORS[f.severity], sev)}  ${String(f.detector ?? f.tools[0] ?? '').padEnd(detW)}  ${loc(f).padEnd(locW)}  ${f.title}`);
    }
  }
  out.push('');
  const counts = SEVERITIES.filter((s) => result.summary[s]).map((s) => c(COLORS[s], `${result.summary[s]} ${s}`));
  out.push(`${result.total_findings} finding${result.total_findings === 1 ? '' : 's'}${counts.length ? `: ${counts.join(', ')}` : ''}`);
  const inc = Array.isArray(result.incomplete) ? result.incomplete.length : 0;
  if (inc) out.push(`${inc} item${inc === 1 ? '' : 's'} did not complete (listed on stderr)`);
  return out.join('\n') + '\n';
}
