// Solidity projects as the frameworks see them: the project root (nearest foundry.toml,
// hardhat.config.*, truffle-config.js, remappings.txt or package.json), its remappings
// (remappings.txt, foundry.toml, Foundry's automatic lib/<name> remappings) and import
// resolution (relative, remapped, node_modules walking up, lib/). Source unit names are paths
// relative to the project root, like Foundry's; a package found in node_modules keeps its import
// string as its name, like Hardhat's. Everything is resolved before solc runs, so a missing
// import is reported with the file that imports it and the import string as written.
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { stripCommentsAndStrings } from './versions.ts';

export const PROJECT_MARKERS = [
  'foundry.toml',
  'hardhat.config.js',
  'hardhat.config.ts',
  'hardhat.config.cjs',
  'hardhat.config.mjs',
  'truffle-config.js',
  'remappings.txt',
  'package.json',
];

export interface Remapping {
  context: string;
  prefix: string;
  target: string;
}

export interface Project {
  /** Absolute project root. */
  root: string;
  /** Which marker file made it the root (null: no marker found, the folder itself). */
  marker: string | null;
  /** Remappings with project-relative targets, as solc's settings.remappings strings take them. */
  remappings: Remapping[];
  /** Library folders (foundry.toml `libs`, default lib and node_modules). */
  libs: string[];
  /** Compiler release the project config pins (foundry.toml solc / solc_version), if any. */
  configSolc: string | null;
  /** Folders files may be read from; nothing outside them is opened. */
  roots: string[];
}

export interface SourceUnit {
  unit: string;
  abs: string;
  content: string;
}

export interface MissingImport {
  /** Source unit name (project-relative) of the importing file. */
  file: string;
  /** The import string as written. */
  import: string;
  reason: string;
}

export interface Closure {
  /** The entry's own unit name. */
  entry: string;
  /** Entry first, then every file it imports, transitively. */
  units: Map<string, SourceUnit>;
  missing: MissingImport[];
}

export function isInside(p: string, roots: string[]): boolean {
  return roots.some((r) => {
    const rel = path.relative(r, p);
    return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
  });
}

const toPosix = (p: string) => p.split(path.sep).join('/');

/**
 * Walks up from `start` (a file or folder) to the nearest folder holding a project marker,
 * never above the allowed roots (or the filesystem root). No marker: the start folder.
 */
export function findProjectRoot(start: string, roots: string[] = []): { root: string; marker: string | null } {
  const abs = path.resolve(start);
  let dir = fs.existsSync(abs) && fs.statSync(abs).isDirectory() ? abs : path.dirname(abs);
  const first = dir;
  const limits = roots.map((r) => path.resolve(r));
  // A bare package.json may be a publishing manifest inside a framework project (OpenZeppelin's
  // contracts/package.json): a framework config further up (within the limits) wins over it.
  let packageOnly: string | null = null;
  for (;;) {
    for (const m of PROJECT_MARKERS) {
      if (!fs.existsSync(path.join(dir, m))) continue;
      if (m !== 'package.json') return { root: dir, marker: m };
      packageOnly ??= dir;
    }
    const up = path.dirname(dir);
    if (up === dir) break;
    // Stop at an allowed root: the walk may reach it but never climbs above it.
    if (limits.length && (limits.includes(dir) || !isInside(up, limits))) break;
    dir = up;
  }
  if (packageOnly) return { root: packageOnly, marker: 'package.json' };
  // No marker: the outermost allowed root holding the path (imports such as "../lib/X.sol" from a
  // subfolder then resolve against it), else the folder itself.
  const holding = limits.filter((r) => isInside(first, [r])).sort((a, b) => a.length - b.length);
  return { root: holding[0] ?? first, marker: null };
}

/** Parses "context:prefix=target" lines (remappings.txt, foundry.toml). */
export function parseRemapping(line: string): Remapping | null {
  const s = line.trim();
  if (!s || s.startsWith('#')) return null;
  const eq = s.indexOf('=');
  if (eq <= 0) return null;
  let left = s.slice(0, eq).trim();
  const target = s.slice(eq + 1).trim();
  let context = '';
  const colon = left.indexOf(':');
  if (colon >= 0) {
    context = left.slice(0, colon);
    left = left.slice(colon + 1);
  }
  if (!left) return null;
  return { context, prefix: left, target };
}

function readText(p: string): string | null {
  try {
    return fs.readFileSync(p, 'utf8');
  } catch {
    return null;
  }
}

/** Foundry's profile: FOUNDRY_PROFILE, else `default`; keys of the default apply underneath. */
function foundryProfile(root: string): Record<string, unknown> | null {
  const text = readText(path.join(root, 'foundry.toml'));
  if (text === null) return null;
  let doc: Record<string, any>;
  try {
    doc = parseToml(text) as Record<string, any>;
  } catch (e) {
    throw new ProjectConfigError(`foundry.toml in ${root} is not valid TOML: ${(e as Error).message}`);
  }
  const profiles = (doc.profile ?? {}) as Record<string, Record<string, unknown>>;
  const name = process.env.FOUNDRY_PROFILE || 'default';
  return { ...(profiles.default ?? {}), ...(name !== 'default' ? (profiles[name] ?? {}) : {}) };
}

export class ProjectConfigError extends Error {}

/** Remapping with a trailing slash on both sides when it names a folder (Foundry does the same). */
function normalizeRemapping(r: Remapping, root: string): Remapping {
  let { prefix, target } = r;
  target = target.replace(/^\.\//, '');
  if (!prefix.endsWith('/') && !prefix.endsWith('.sol')) {
    const abs = path.resolve(root, target);
    try {
      if (fs.statSync(abs).isDirectory()) {
        prefix += '/';
        if (!target.endsWith('/')) target += '/';
      }
    } catch {
      /* a remapping to a folder that does not exist stays as written; imports through it are reported missing */
    }
  }
  return { context: r.context, prefix, target };
}

const projectCache = new Map<string, { project: Project; stamp: string }>();

function configStamp(root: string): string {
  return ['foundry.toml', 'remappings.txt', 'lib']
    .map((f) => {
      try {
        return String(fs.statSync(path.join(root, f)).mtimeMs);
      } catch {
        return '-';
      }
    })
    .join(':');
}

/** The project holding `start`, with its remappings (cached per root while its config is unchanged). */
export function loadProject(start: string, roots: string[] = []): Project {
  const { root, marker } = findProjectRoot(start, roots);
  const stamp = configStamp(root);
  const key = `${root}\u0000${roots.join('\u0000')}`;
  const hit = projectCache.get(key);
  if (hit && hit.stamp === stamp) return hit.project;
  const remappings: Remapping[] = [];
  const seenPrefix = new Set<string>();
  const add = (r: Remapping | null) => {
    if (!r) return;
    const n = normalizeRemapping(r, root);
    const k = `${n.context}:${n.prefix}`;
    if (seenPrefix.has(k)) return; // first wins: remappings.txt over foundry.toml over automatic ones (Foundry's order)
    seenPrefix.add(k);
    remappings.push(n);
  };
  for (const line of (readText(path.join(root, 'remappings.txt')) ?? '').split(/\r?\n/)) add(parseRemapping(line));
  const profile = foundryProfile(root);
  let libs = ['lib', 'node_modules'];
  let configSolc: string | null = null;
  if (profile) {
    for (const r of (Array.isArray(profile.remappings) ? profile.remappings : []) as unknown[]) add(parseRemapping(String(r)));
    if (Array.isArray(profile.libs)) libs = profile.libs.map(String);
    const v = profile.solc_version ?? profile.solc;
    if (typeof v === 'string' && /^\d+\.\d+\.\d+$/.test(v.trim())) configSolc = v.trim();
  }
  // Foundry's automatic remappings: lib/<name>/src (or the library folder itself) as "<name>/".
  for (const lib of libs.filter((l) => l !== 'node_modules')) {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(root, lib), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      if (!e.isDirectory()) continue;
      const base = path.join(lib, e.name);
      const src = fs.existsSync(path.join(root, base, 'src'))
        ? path.join(base, 'src')
        : fs.existsSync(path.join(root, base, 'contracts'))
          ? path.join(base, 'contracts')
          : base;
      add({ context: '', prefix: `${e.name}/`, target: `${toPosix(src)}/` });
    }
  }
  const allowed = roots.length ? roots.map((r) => path.resolve(r)) : [root];
  const project: Project = { root, marker, remappings, libs, configSolc, roots: allowed };
  projectCache.set(key, { project, stamp });
  return project;
}

/** solc's settings.remappings strings. */
export function remappingStrings(p: Project): string[] {
  return p.remappings.map((r) => `${r.context ? r.context + ':' : ''}${r.prefix}=${r.target}`);
}

/** Unit name of a file on disk: project-relative, or null when it lies outside the project. */
export function unitNameOf(p: Project, abs: string): string | null {
  const rel = path.relative(p.root, abs);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
  return toPosix(rel);
}

/** Normalizes "a/./b/../c" the way solc does for source unit names. */
function normalizeUnit(u: string): string {
  const out: string[] = [];
  for (const seg of u.split('/')) {
    if (seg === '.' || seg === '') continue;
    if (seg === '..') out.pop();
    else out.push(seg);
  }
  return out.join('/');
}

/** Every import string of a source (comments and strings aside). */
export function importsOf(source: string): string[] {
  const clean = stripCommentsAndStrings(source);
  const out: string[] = [];
  // The clean copy keeps quotes but blanks their contents: find the statement there, read the
  // string from the original at the same offsets.
  const re = /\bimport\b[^;]*?(["'])([^"'\n]*)\1/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(clean))) {
    const qStart = m.index + m[0].length - m[2].length - 2;
    const q = source[qStart];
    const end = source.indexOf(q, qStart + 1);
    if (end > qStart) out.push(source.slice(qStart + 1, end));
  }
  return out;
}

/** The unit name solc gives an import: relative paths against the importer, then remappings. */
export function importUnit(p: Project, importer: string, imp: string): string {
  let unit =
    imp.startsWith('./') || imp.startsWith('../') ? normalizeUnit(path.posix.join(path.posix.dirname(importer), imp)) : normalizeUnit(imp);
  let best: Remapping | null = null;
  for (const r of p.remappings) {
    if (r.context && !importer.startsWith(r.context)) continue;
    if (!unit.startsWith(r.prefix)) continue;
    if (
      !best ||
      r.context.length > best.context.length ||
      (r.context.length === best.context.length && r.prefix.length > best.prefix.length)
    )
      best = r;
  }
  if (best) unit = normalizeUnit(best.target + unit.slice(best.prefix.length));
  return unit;
}

/** Where a unit name lives on disk: the project, then node_modules from the project root up, then lib folders. */
export function locateUnit(p: Project, unit: string): { abs: string } | { error: string } {
  const candidates: string[] = [path.join(p.root, unit)];
  if (!unit.startsWith('.')) {
    let dir = p.root;
    for (;;) {
      candidates.push(path.join(dir, 'node_modules', unit));
      const up = path.dirname(dir);
      if (up === dir || !isInside(up, p.roots)) break;
      dir = up;
    }
    for (const lib of p.libs) if (lib !== 'node_modules') candidates.push(path.join(p.root, lib, unit));
  }
  const realRoots = p.roots.map((r) => {
    try {
      return fs.realpathSync(r);
    } catch {
      return r;
    }
  });
  for (const c of candidates) {
    let real: string;
    try {
      real = fs.realpathSync(c);
    } catch {
      continue;
    }
    if (!isInside(real, realRoots)) return { error: `resolves to ${c}, which is outside the allowed contract roots` };
    // Only Solidity is read: compiler errors quote what they parse, so importing `.env` would echo it.
    if (!/\.sol$/i.test(real)) return { error: `resolves to ${c}, which is not a .sol file; only Solidity files are imported` };
    try {
      if (!fs.statSync(real).isFile()) continue;
    } catch {
      continue;
    }
    return { abs: real };
  }
  return { error: `not found in the project (${p.root}), its remappings, node_modules or lib folders` };
}

const MAX_IMPORT_BYTES = 4 * 1024 * 1024;

/**
 * The entry file and everything it imports. `read` lets a caller supply contents it already has
 * (the submitted text of the entry); everything else is read from disk.
 */
export function collectClosure(p: Project, entryAbs: string, opts: { entrySource?: string; entryUnit?: string } = {}): Closure {
  const entry = opts.entryUnit ?? unitNameOf(p, entryAbs) ?? path.basename(entryAbs);
  const units = new Map<string, SourceUnit>();
  const missing: MissingImport[] = [];
  const queue: SourceUnit[] = [];
  const first: SourceUnit = { unit: entry, abs: entryAbs, content: opts.entrySource ?? fs.readFileSync(entryAbs, 'utf8') };
  units.set(entry, first);
  queue.push(first);
  while (queue.length) {
    const cur = queue.shift()!;
    for (const imp of importsOf(cur.content)) {
      const unit = importUnit(p, cur.unit, imp);
      if (units.has(unit)) continue;
      const loc = locateUnit(p, unit);
      if ('error' in loc) {
        if (!missing.some((m) => m.file === cur.unit && m.import === imp)) missing.push({ file: cur.unit, import: imp, reason: loc.error });
        continue;
      }
      let content: string;
      try {
        const st = fs.statSync(loc.abs);
        if (st.size > MAX_IMPORT_BYTES) {
          missing.push({ file: cur.unit, import: imp, reason: 'is larger than 4 MiB' });
          continue;
        }
        content = fs.readFileSync(loc.abs, 'utf8');
      } catch (e) {
        missing.push({ file: cur.unit, import: imp, reason: `could not be read: ${(e as Error).message}` });
        continue;
      }
      const u: SourceUnit = { unit, abs: loc.abs, content };
      units.set(unit, u);
      queue.push(u);
    }
  }
  return { entry, units, missing };
}
