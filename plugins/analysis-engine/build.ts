// A project is compiled the way Foundry and Hardhat compile it: files are grouped by the compiler
// release that accepts them and everything they import, and each group is compiled ONCE with all
// its sources in one standard-JSON input. The per-file answers of that build are what the engine
// reports for each file, so a 367-file project costs a few solc runs, not 367.
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import type { WorkerPool } from '../../kernel/index.ts';
import {
  LineIndex,
  oneLine,
  unplacedDiagnostic,
  type CompileResult,
  type CompilerDiagnostic,
} from '../../lib/analysis/compiler/compile.ts';
import {
  collectClosure,
  loadProject,
  remappingStrings,
  type MissingImport,
  type Project,
  type SourceUnit,
} from '../../lib/analysis/compiler/project.ts';
import { loadCompiler } from '../../lib/analysis/compiler/solc-loader.ts';
import {
  blankPragmas,
  chooseCompiler,
  exactPin,
  installedCompilers,
  pragmaRanges,
  pragmaText,
  refreshInstalledCompilers,
} from '../../lib/analysis/compiler/versions.ts';

export const BUILD_MODULE = fileURLToPath(import.meta.url);

export interface PlannedFile {
  abs: string;
  /** Display name used in findings. */
  file: string;
  unit: string;
  ranges: string[];
  missing: MissingImport[];
}

export interface BuildGroup {
  version: string;
  /** The pinned release is not installed: compile with the same minor series, pragmas blanked. */
  blank: boolean;
  reason: string;
  entries: Array<{ abs: string; file: string; unit: string }>;
}

export interface ProjectPlan {
  root: string;
  files: PlannedFile[];
  groups: BuildGroup[];
  /** Files no installed release accepts (with why); they compile one by one, and fail with that reason. */
  unplaced: Array<{ file: string; reason: string }>;
}

/** Each file with its imports' pragmas and missing imports (reads files, no solc). */
export function scanProject(project: Project, files: Array<{ abs: string; file: string }>): PlannedFile[] {
  return files.map(({ abs, file }) => {
    const c = collectClosure(project, abs);
    return { abs, file, unit: c.entry, ranges: pragmaRanges([...c.units.values()].map((u) => u.content)), missing: c.missing };
  });
}

/**
 * Groups files by compiler: repeatedly the installed release accepting the most remaining files
 * (the project config's release first on a tie, then the newest) takes them. A file whose exact
 * pin is not installed goes with the nearest release of the same minor series, pragmas blanked.
 */
export function groupByCompiler(root: string, files: PlannedFile[], configSolc: string | null): ProjectPlan {
  const installed = installedCompilers().map((c) => c.version);
  const groups: BuildGroup[] = [];
  const unplaced: ProjectPlan['unplaced'] = [];
  const fits = new Map<PlannedFile, string[]>();
  const blanked: PlannedFile[] = [];
  for (const f of files) {
    if (f.missing.length) continue; // compiled alone, where the missing imports are reported
    const ok = installed.filter((v) => f.ranges.every((r) => semver.validRange(r) && semver.satisfies(v, r)));
    if (ok.length) fits.set(f, ok);
    else {
      const choice = chooseCompiler(pragmaText(f.ranges));
      if (choice.ok && choice.blankPragma) blanked.push(f);
      else unplaced.push({ file: f.file, reason: choice.reason });
    }
  }
  let remaining = [...fits.keys()];
  while (remaining.length) {
    const count = new Map<string, number>();
    for (const f of remaining) for (const v of fits.get(f)!) count.set(v, (count.get(v) ?? 0) + 1);
    const best = [...count.entries()].sort(
      (a, b) => b[1] - a[1] || Number(b[0] === configSolc) - Number(a[0] === configSolc) || semver.rcompare(a[0], b[0]),
    )[0][0];
    const taken = remaining.filter((f) => fits.get(f)!.includes(best));
    groups.push({
      version: best,
      blank: false,
      reason: `one build with solc ${best} for ${taken.length} file${taken.length > 1 ? 's' : ''} whose pragmas (and their imports') accept it`,
      entries: taken.map(({ abs, file, unit }) => ({ abs, file, unit })),
    });
    remaining = remaining.filter((f) => !taken.includes(f));
  }
  const byPin = new Map<string, PlannedFile[]>();
  for (const f of blanked) {
    const v = chooseCompiler(pragmaText(f.ranges)).candidates[0].version;
    byPin.set(v, [...(byPin.get(v) ?? []), f]);
  }
  for (const [v, fs] of byPin) {
    const pin = exactPin(fs[0].ranges);
    groups.push({
      version: v,
      blank: true,
      reason: `pragma pins ${pin ?? 'a release'} that is not installed; used ${v}, the nearest installed release of the same series (pragmas ignored for this build; \`vigil solc install ${pin}\` compiles with the pinned release)`,
      entries: fs.map(({ abs, file, unit }) => ({ abs, file, unit })),
    });
  }
  return { root, files, groups, unplaced };
}

export interface GroupTask {
  /** Any path inside the project (its root is found again in the worker). */
  start: string;
  roots: string[];
  group: BuildGroup;
  outputs?: 'check' | 'full';
}

export interface GroupResult {
  /** Per display file name: the file's compile result, or null when it must be compiled alone. */
  results: Record<string, CompileResult | null>;
  /** solc runs made (the group, and one retry without the files that broke it). */
  runs: number;
  durationMs: number;
}

function diagOf(
  e: any,
  units: Map<string, SourceUnit>,
  indexes: Map<string, LineIndex>,
  displayOf: Map<string, string>,
): CompilerDiagnostic {
  const d = unplacedDiagnostic(e);
  const loc = e.sourceLocation;
  if (loc?.file && typeof loc.start === 'number' && loc.start >= 0 && units.has(loc.file)) {
    let idx = indexes.get(loc.file);
    if (!idx) indexes.set(loc.file, (idx = new LineIndex(units.get(loc.file)!.content)));
    Object.assign(d, idx.span(loc.start, loc.end ?? loc.start));
  }
  if (loc?.file) d.file = displayOf.get(loc.file) ?? loc.file;
  return d;
}

/** Runs in a pool worker: one solc run for the whole group (plus one retry without broken files). */
export function compileGroupTask(task: GroupTask): GroupResult {
  const t0 = Date.now();
  refreshInstalledCompilers();
  const project = loadProject(task.start, task.roots);
  const solc = loadCompiler(task.group.version);
  const closures = new Map<string, Map<string, SourceUnit>>();
  for (const e of task.group.entries) closures.set(e.file, collectClosure(project, e.abs).units);
  const displayOf = new Map(task.group.entries.map((e) => [e.unit, e.file]));
  const results: Record<string, CompileResult | null> = {};
  let pending = [...task.group.entries];
  let runs = 0;
  while (pending.length && runs < 2) {
    runs++;
    const units = new Map<string, SourceUnit>();
    for (const e of pending) for (const [k, u] of closures.get(e.file)!) units.set(k, u);
    const sources: Record<string, { content: string }> = {};
    for (const [k, u] of units) sources[k] = { content: task.group.blank ? blankPragmas(u.content) : u.content };
    const perContract = task.outputs === 'full' ? ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] : ['abi'];
    const settings: Record<string, unknown> = { outputSelection: { '*': { '*': perContract } } };
    if (project.remappings.length) settings.remappings = remappingStrings(project);
    let out: any;
    try {
      out = JSON.parse(
        solc.compileStandard(JSON.stringify({ language: 'Solidity', sources, settings }), (p) => ({ error: `import "${p}" not found` })),
      );
    } catch (e) {
      out = {
        errors: [{ severity: 'error', type: 'CompilerError', message: `solc ${task.group.version} failed: ${(e as Error).message}` }],
      };
    }
    const indexes = new Map<string, LineIndex>();
    const diags = ((out?.errors ?? []) as any[])
      .filter((e) => String(e.errorCode) !== '1878' && !(task.group.blank && String(e.errorCode) === '3420'))
      .map((e) => ({ raw: e, d: diagOf(e, units, indexes, displayOf) }));
    const errorUnits = new Set(diags.filter((x) => x.d.severity === 'error').map((x) => String(x.raw.sourceLocation?.file ?? '')));
    const globalError = diags.some((x) => x.d.severity === 'error' && !x.raw.sourceLocation?.file);
    const broken = (e: { file: string }) => globalError || [...closures.get(e.file)!.keys()].some((k) => errorUnits.has(k));
    const clean = pending.filter((e) => !broken(e));
    if (clean.length === pending.length) {
      for (const e of pending) {
        const own = out?.contracts?.[e.unit] ?? {};
        const contracts: CompileResult['contracts'] = {};
        for (const [name, c] of Object.entries(own as Record<string, any>)) {
          contracts[name] = {
            file: e.file,
            abi: Array.isArray(c.abi) ? c.abi : [],
            bytecode: c.evm?.bytecode?.object ?? '',
            deployedBytecode: c.evm?.deployedBytecode?.object ?? '',
            sourceMap: '',
            deployedSourceMap: '',
          };
        }
        const ranges = pragmaRanges([...closures.get(e.file)!.values()].map((u) => u.content));
        results[e.file] = {
          ok: true,
          compiler: task.group.version,
          compilerLong: solc.longVersion,
          reason: `${task.group.reason}; pragma ${ranges.join(' ') || '(none)'}`,
          pragma: pragmaRanges([closures.get(e.file)!.get(e.unit)!.content]).join(' ') || null,
          attempts: [{ compiler: task.group.version, ok: true, first_error: null }],
          errors: [],
          warnings: diags
            .filter((x) => x.d.severity !== 'error' && x.raw.sourceLocation?.file === e.unit)
            .map((x) => ({ ...x.d, file: e.file })),
          missingImports: [],
          contracts,
          sourceKey: e.unit,
          durationMs: Date.now() - t0,
        };
      }
      pending = [];
      break;
    }
    // Files whose build (they or an import) has an error are compiled alone, where every
    // candidate release is tried and the error is reported against them; the rest build again.
    for (const e of pending) if (broken(e)) results[e.file] = null;
    pending = clean;
  }
  for (const e of pending) results[e.file] = null;
  return { results, runs, durationMs: Date.now() - t0 };
}

export async function compileGroup(
  task: GroupTask,
  opts: { pool?: WorkerPool | null; signal?: AbortSignal; deadline?: number } = {},
): Promise<GroupResult> {
  if (!opts.pool) return compileGroupTask(task);
  return opts.pool.run<GroupResult>(BUILD_MODULE, 'compileGroupTask', task, { signal: opts.signal, deadline: opts.deadline });
}

export { oneLine };
