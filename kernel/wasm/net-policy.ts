// Which addresses a WASM guest's HTTP request may reach. `wasm.allowed_hosts` names hosts
// (`api.example.com`, `*.example.org`, `*`) and may list IP addresses or CIDR ranges. A name
// alone is not enough: the name is resolved and every address it resolves to must be a public
// unicast address, unless that address is listed explicitly — so a listed name (or `*`) that
// resolves to loopback, a private (RFC 1918, ULA), link-local (cloud metadata), CGNAT,
// unspecified, multicast or other special-purpose address is refused. The request then connects
// to exactly the addresses that were checked (no second lookup a rebinding DNS could answer
// differently).
import dns from 'node:dns/promises';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

export interface HostRules {
  names: string[];
  nets: Array<[ipaddr.IPv4 | ipaddr.IPv6, number]>;
}

const stripBrackets = (h: string) => (h.startsWith('[') && h.endsWith(']') ? h.slice(1, -1) : h);

/** Splits allowed_hosts into name patterns and IP/CIDR entries (a bare IP is a /32 or /128). */
export function parseHostRules(allowed: string[]): HostRules {
  const rules: HostRules = { names: [], nets: [] };
  for (const raw of allowed) {
    const e = stripBrackets(raw.trim().toLowerCase());
    if (e.includes('/') && ipaddr.isValidCIDR(e)) rules.nets.push(ipaddr.parseCIDR(e));
    else if (ipaddr.isValid(e) && net.isIP(e)) {
      const a = ipaddr.parse(e);
      rules.nets.push([a, a.kind() === 'ipv4' ? 32 : 128]);
    } else rules.names.push(e);
  }
  return rules;
}

function listed(a: ipaddr.IPv4 | ipaddr.IPv6, rules: HostRules): boolean {
  return rules.nets.some(([n, bits]) => n.kind() === a.kind() && a.match([n, bits] as any));
}

/** The hostname is allowed by a name pattern, or is an IP literal inside a listed range. */
export function hostNameAllowed(hostname: string, rules: HostRules): boolean {
  const h = stripBrackets(hostname.toLowerCase());
  if (net.isIP(h)) return listed(ipaddr.process(h), rules) || rules.names.includes(h) || rules.names.includes('*');
  return rules.names.some((p) => p === '*' || p === h || (p.startsWith('*.') && h.endsWith(p.slice(1)) && h.length > p.length - 1));
}

/** null when the address may be reached, else the name of its special-purpose range. */
export function addressRefusal(address: string, rules: HostRules): string | null {
  // process(): an IPv4-mapped IPv6 address (::ffff:127.0.0.1) is judged as the IPv4 address.
  const a = ipaddr.process(address);
  const range = a.range();
  if (range === 'unicast') return null;
  return listed(a, rules) ? null : range;
}

export class AddressRefused extends Error {}

/** Resolves the host and checks every address; the result is what the connection may use. */
export async function resolveChecked(hostname: string, rules: HostRules, lookup: typeof dns.lookup = dns.lookup): Promise<Array<{ address: string; family: number }>> {
  const h = stripBrackets(hostname);
  const addrs = net.isIP(h) ? [{ address: h, family: net.isIP(h) }] : await lookup(h, { all: true, verbatim: true });
  if (!addrs.length) throw new Error(`${hostname} did not resolve`);
  for (const { address } of addrs) {
    const range = addressRefusal(address, rules);
    if (range) {
      throw new AddressRefused(
        `HTTP request to ${hostname} refused: it resolves to ${address} (${range}), which is reached only when that address or its range is listed in wasm.allowed_hosts`,
      );
    }
  }
  return addrs;
}
