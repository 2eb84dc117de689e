// Parsing and validation of per-tenant limits (same grammar as the serve flags).
import type { Capability, RateLimit } from '../../../kernel/index.ts';

const UNITS: Record<string, number> = {
  s: 1000,
  sec: 1000,
  second: 1000,
  m: 60_000,
  min: 60_000,
  minute: 60_000,
  h: 3_600_000,
  hour: 3_600_000,
  d: 86_400_000,
  day: 86_400_000,
};

export class LimitError extends Error {}

/** "60/min" -> {max: 60, windowMs: 60000}; units s, min, h, day. */
export function parseRate(value: string, what = 'rate limit'): RateLimit {
  const m = /^\s*(\d+)\s*\/\s*([a-z]+)\s*$/i.exec(String(value));
  const unit = m?.[2]?.toLowerCase();
  if (!m || !unit || !(unit in UNITS))
    throw new LimitError(`${what} must be COUNT/UNIT with unit s, min, h or day (e.g. 60/min), got "${value}"`);
  const max = Number(m[1]);
  if (max < 1) throw new LimitError(`${what}: count must be at least 1`);
  return { max, windowMs: UNITS[unit], text: `${max}/${unit}` };
}

export function positiveInt(value: unknown, what: string): number {
  const n = typeof value === 'number' ? value : Number(String(value).trim());
  if (!Number.isInteger(n) || n < 1) throw new LimitError(`${what} must be a positive integer, got "${String(value)}"`);
  return n;
}

// Kept equal to kernel/manifest.ts CAPABILITIES; `satisfies` makes a typo a type error.
export const CAPABILITY_NAMES = [
  'file_read',
  'file_write',
  'shell_exec',
  'git_read',
  'web_fetch',
  'network',
  'crypto',
  'contract_analysis',
  'llm_call',
] as const satisfies readonly Capability[];

/** Permission to decide approvals requested by another key of the same tenant. Not a skill
 *  capability: it grants no skill, and it is never implied by a tenant without a list. */
export const APPROVALS_DECIDE = 'approvals_decide';
export const PERMISSION_NAMES = [...CAPABILITY_NAMES, APPROVALS_DECIDE] as const;

export function parsePermissions(value: string | string[], what = 'permissions'): Capability[] {
  const list = (Array.isArray(value) ? value : String(value).split(',')).map((s) => String(s).trim()).filter(Boolean);
  const bad = list.filter((c) => !(PERMISSION_NAMES as readonly string[]).includes(c));
  if (bad.length)
    throw new LimitError(
      `${what}: unknown permission ${bad.map((b) => `"${b}"`).join(', ')}; must be one of ${PERMISSION_NAMES.join(', ')}`,
    );
  return [...new Set(list)] as Capability[];
}

/** Milliseconds until the next UTC midnight (when daily quotas reset). */
export function msUntilUtcMidnight(now = new Date()): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return next - now.getTime();
}

export function utcDay(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}
