// What "SLOC" means in the benchmark figures (docs/BENCHMARKS.md), for both real-world benchmarks.

/** Source lines that hold code (not blank, not only a comment). */
export function sloc(source: string): number {
  let n = 0;
  let inBlock = false;
  for (const raw of source.split('\n')) {
    let l = raw.trim();
    if (inBlock) {
      const end = l.indexOf('*/');
      if (end < 0) continue;
      inBlock = false;
      l = l.slice(end + 2).trim();
    }
    if (l.startsWith('/*')) {
      if (!l.includes('*/')) inBlock = true;
      continue;
    }
    if (!l || l.startsWith('//') || l.startsWith('*')) continue;
    n++;
  }
  return n;
}
