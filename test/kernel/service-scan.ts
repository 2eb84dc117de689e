// Static scan of a plugin's code for the services it looks up and provides, so a test can hold
// every manifest's requires/provides to the code. Follows the plugin's value imports into lib/
// (type-only imports carry no lookups), because shared code that receives the plugin's services
// looks them up on the plugin's behalf and the kernel checks those calls against the same manifest.
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');

export interface ServiceUse {
  /** Service names passed as a literal to services.get(...) or to a bare get(...) helper. */
  gets: Set<string>;
  /** Names passed to ctx.provide(...). */
  provides: Set<string>;
  /** Files that call services.get with a computed name (must hand the lookup to code that is scanned). */
  files: string[];
}

// Comments hold example calls ("services.get<Tenancy>('tenancy')"): drop them before matching.
function stripComments(src: string): string {
  return src.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

// `services.get<...>('x')`, `services.get('x')` and a bare `get<...>('x')` (a getter handed to a
// helper); `app.get('/route')`, `map.get(k)` are other methods and do not match.
const GET = /(?:\bservices\s*\.\s*get|(?<![.\w])get)\s*(?:<(?:[^<>]|<(?:[^<>]|<[^<>]*>)*>)*>)?\s*\(\s*['"]([^'"]+)['"]\s*\)/g;
const PROVIDE = /\bprovide\s*\(\s*['"]([^'"]+)['"]/g;
const IMPORT = /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?['"](\.[^'"]+)['"]|import\s*\(\s*['"](\.[^'"]+)['"]\s*\)/g;

function listTs(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (['assembly', 'node_modules', 'public', 'fixtures', 'test'].includes(e.name)) continue;
      out.push(...listTs(p));
    } else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** What the plugin in `dir` looks up and provides, through its own files and the lib/ files it imports. */
export function scanPlugin(dir: string): ServiceUse {
  const use: ServiceUse = { gets: new Set(), provides: new Set(), files: [] };
  const seen = new Set<string>();
  const queue = listTs(dir);
  const lib = path.join(ROOT, 'lib') + path.sep;
  while (queue.length) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    use.files.push(path.relative(ROOT, file));
    const src = stripComments(fs.readFileSync(file, 'utf8'));
    for (const m of src.matchAll(GET)) use.gets.add(m[1]);
    for (const m of src.matchAll(PROVIDE)) use.provides.add(m[1]);
    for (const m of src.matchAll(IMPORT)) {
      if (m[2]) continue; // import type / export type
      const spec = m[3] ?? m[4];
      const target = path.resolve(path.dirname(file), spec);
      if ((target.startsWith(lib) || target.startsWith(dir + path.sep)) && target.endsWith('.ts') && fs.existsSync(target))
        queue.push(target);
    }
  }
  return use;
}
