// Per-thread memo of work derived from one source text (syntax tree, facts, outline).
// One analysis hands the same source to several tools, and each used to parse it again: the
// engine's outline, solhint's locator and the SMTChecker's locator on the main thread, the
// static analyzer and layers 7/8 in pool workers. @solidity-parser/parser (ANTLR, full-context
// prediction on Solidity's ambiguous rules) costs tens of milliseconds per parse, so re-parsing
// was most of quick mode's CPU. Values are shared: callers treat them as read-only.
// Bounded by total source size, so a few 1 MiB inputs cannot pin gigabytes of trees.
import { LRUCache } from 'lru-cache';

export interface SourceMemo<T extends NonNullable<unknown>> {
  get(key: string, compute: () => T): T;
  /** The kept value, if any (no compute). */
  peek(key: string): T | undefined;
  set(key: string, value: T): void;
  clear(): void;
}

export function sourceMemo<T extends NonNullable<unknown>>(opts: { max?: number; maxChars?: number; ttlMs?: number } = {}): SourceMemo<T> {
  const cache = new LRUCache<string, T>({
    max: opts.max ?? 6,
    maxSize: opts.maxChars ?? 2 * 1024 * 1024,
    sizeCalculation: (_v, k) => Math.max(1, k.length),
    // Released soon after the analysis that used it, so idle workers do not hold trees.
    ttl: opts.ttlMs ?? 30_000,
    ttlAutopurge: true,
  });
  return {
    get(key, compute) {
      const hit = cache.get(key);
      if (hit !== undefined) return hit;
      const v = compute();
      // Too big to keep (the cache refuses it) is fine: the caller still gets the value.
      cache.set(key, v);
      return v;
    },
    peek: (key) => cache.get(key),
    set: (key, value) => void cache.set(key, value),
    clear: () => cache.clear(),
  };
}
