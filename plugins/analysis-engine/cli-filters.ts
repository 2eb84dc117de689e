// The CLI's last step before printing (`vigil analyze`): in-source suppressions and `--baseline`,
// with a note on stderr saying what each took out. One call from cli-analyze.ts, so the command's
// own flow (project, builds, progress, exit codes) stays in one place.
import fs from 'node:fs';
import type { AnalysisResult } from '../../kernel/index.ts';
import { applySuppressions } from './suppress.ts';
import { applyBaseline, filterNotes, loadBaseline, type Baseline } from './baseline.ts';

export { BaselineError } from './baseline.ts';

/** `--baseline FILE` read up front (throws BaselineError: the CLI's exit 2), or null without the option. */
export function baselineOption(file: unknown): Baseline | null {
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a CLI option value: a string
  return file === undefined || file === null || file === '' ? null : loadBaseline(String(file));
}

/** Applies the sources' suppression comments and the baseline to `result`; notes go to stderr. */
export function finishReport(
  result: AnalysisResult,
  files: Array<{ file: string; abs: string }>,
  baseline: Baseline | null,
  io: { stderr: { write(s: string): unknown } },
): void {
  const byName = new Map(files.map((f) => [f.file, f.abs]));
  applySuppressions(result, (name) => {
    const abs = byName.get(name);
    try {
      return abs ? fs.readFileSync(abs, 'utf8') : null;
    } catch {
      return null; // gone since it was analysed: nothing to suppress with
    }
  });
  if (baseline) applyBaseline(result, baseline);
  for (const note of filterNotes(result)) io.stderr.write(`vigil analyze: ${note}\n`);
}
