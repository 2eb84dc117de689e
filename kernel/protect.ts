// Edge protections the kernel applies on both surfaces before any plugin hook runs:
// - fail closed: a security plugin (manifest `protects`) that failed to load answers 503 on the
//   routes it would have guarded, instead of leaving them open;
// - Host allowlist: no DNS rebinding (421 for a Host that is not loopback, a bind address or
//   listed with --allowed-hosts);
// - JSON depth: bodies nested deeper than 64 levels are refused before JSON.parse (and long
//   before any SQLite json_* function could meet them).
import os from 'node:os';
import net from 'node:net';
import type { Surface } from './plugin-api.ts';

export const MAX_JSON_DEPTH = 64;

/** One `protects` entry of a manifest: paths (segment prefixes) of a surface, minus exceptions. */
export interface Protection {
  surface: Surface;
  /** Path prefixes matched by whole segments; "/" alone means every path. */
  paths: string[];
  /** Paths that stay served when the plugin failed (health, static pages); matched like paths,
   *  except "/" which matches only the root itself. */
  except: string[];
}

/** Normalised path of a request URL: no query, no trailing slash (except the root). */
export function pathOf(url: string): string {
  const p = url.split('?')[0].split('#')[0];
  return p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : p;
}

/** True when `path` is `prefix` or below it (by whole segments). */
export function underPath(path: string, prefix: string): boolean {
  const p = pathOf(path);
  const q = pathOf(prefix);
  if (q === '/') return true;
  return p === q || p.startsWith(q + '/');
}

function exceptMatches(path: string, e: string): boolean {
  return pathOf(e) === '/' ? pathOf(path) === '/' : underPath(path, e);
}

export function protects(p: Protection, surface: Surface, path: string): boolean {
  return p.surface === surface && p.paths.some((x) => underPath(path, x)) && !p.except.some((e) => exceptMatches(path, e));
}

/** Reads a manifest's `protects` list leniently: anything malformed protects everything of the
 *  surfaces it names (a typo must not open a door). */
export function parseProtects(raw: unknown): Protection[] {
  if (!Array.isArray(raw)) return [];
  const out: Protection[] = [];
  for (const r of raw) {
    if (!r || typeof r !== 'object') continue;
    const o = r as Record<string, unknown>;
    const surfaces = (o.surface === 'both' ? ['api', 'gateway'] : [o.surface]).filter((s): s is Surface => s === 'api' || s === 'gateway');
    const strs = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x.startsWith('/')) : []);
    const paths = strs(o.paths);
    for (const surface of surfaces) out.push({ surface, paths: paths.length ? paths : ['/'], except: strs(o.except) });
  }
  return out;
}

// ---- Host allowlist -----------------------------------------------------------------------

/** Host name of a Host header value ("a.example:3000" -> "a.example", "[::1]:80" -> "::1"). */
export function hostName(header: string): string {
  const h = header.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(1, h.indexOf(']') > 0 ? h.indexOf(']') : undefined);
  const colon = h.lastIndexOf(':');
  const name = colon > 0 && h.indexOf(':') === colon ? h.slice(0, colon) : h;
  return name.replace(/\.$/, '');
}

export function isLoopbackName(name: string): boolean {
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (net.isIPv4(name)) return name.startsWith('127.');
  if (net.isIPv6(name)) return name === '::1' || name === '0:0:0:0:0:0:0:1' || /^::ffff:127\./.test(name);
  return false;
}

const WILDCARD = new Set(['0.0.0.0', '::', '']);

/** The machine's own addresses: with a wildcard bind, these are "the bind address". */
function localAddresses(): string[] {
  const out: string[] = [];
  for (const list of Object.values(os.networkInterfaces())) for (const a of list ?? []) out.push(a.address.toLowerCase());
  return out;
}

export interface HostPolicy {
  allowed(hostHeader: string | undefined): boolean;
  /** For readiness and error messages. */
  describe(): string;
}

export function hostPolicy(bindHosts: string[], allowedHosts: string[]): HostPolicy {
  const exact = new Set<string>();
  const suffixes: string[] = [];
  let any = false;
  for (const b of bindHosts) {
    const h = b.toLowerCase();
    if (WILDCARD.has(h)) for (const a of localAddresses()) exact.add(a);
    else exact.add(h);
  }
  for (const a of allowedHosts) {
    if (a === '*') any = true;
    else if (a.startsWith('.')) suffixes.push(a);
    else exact.add(a);
  }
  return {
    allowed(header) {
      // Browsers always send Host, so a request without one cannot be a rebinding attack
      // (HTTP/1.0 tools and some probes omit it).
      if (header === undefined || header === '') return true;
      if (any) return true;
      const name = hostName(header);
      return isLoopbackName(name) || exact.has(name) || suffixes.some((s) => name.endsWith(s) || name === s.slice(1));
    },
    describe() {
      const bound = bindHosts.map((b) => (WILDCARD.has(b) ? `${b || '0.0.0.0'} (every local address)` : b));
      return any
        ? 'every Host (--allowed-hosts "*": DNS-rebinding protection is off)'
        : `loopback names, bind address(es) ${[...new Set(bound)].join(', ')}${allowedHosts.length ? `, and ${allowedHosts.join(', ')}` : ''}`;
    },
  };
}

// ---- JSON depth ---------------------------------------------------------------------------

/** Deepest nesting of objects/arrays in a JSON text, scanned without parsing (stops early once
 *  past `limit`). Brackets inside strings do not count. */
export function jsonDepthExceeds(text: string, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > limit) return true;
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  return false;
}
