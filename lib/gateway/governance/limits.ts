// Parsing and validation of per-tenant limits (same grammar as the serve flags).
import { CAPABILITIES, RATE_UNITS, type Capability, type RateLimit } from '../../../kernel/index.ts';

export class LimitError extends Error {}

/** "60/min" -> {max: 60, windowMs: 60000}; units s, min, h, day. */
export function parseRate(value: string, what = 'rate limit'): RateLimit {
  const m = /^\s*(\d+)\s*\/\s*([a-z]+)\s*$/i.exec(String(value));
  const unit = m?.[2]?.toLowerCase();
  if (!m || !unit || !(unit in RATE_UNITS))
    throw new LimitError(`${what} must be COUNT/UNIT with unit s, min, h or day (e.g. 60/min), got "${value}"`);
  const max = Number(m[1]);
  if (max < 1) throw new LimitError(`${what}: count must be at least 1`);
  return { max, windowMs: RATE_UNITS[unit], text: `${max}/${unit}` };
}

export function positiveInt(value: unknown, what: string): number {
  const n = typeof value === 'number' ? value : Number(String(value).trim());
  if (!Number.isInteger(n) || n < 1) throw new LimitError(`${what} must be a positive integer, got "${String(value)}"`);
  return n;
}

export const CAPABILITY_NAMES = CAPABILITIES;

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
  const t = now.getTime();
  if (t >= dayFrom && t < dayTo) return dayText;
  dayText = now.toISOString().slice(0, 10);
  dayFrom = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  dayTo = dayFrom + 86_400_000;
  return dayText;
}
// The last day utcDay() answered and its bounds in ms: the usage meter asks once per model call,
// and an ISO string per call was ~0.5% of a chat turn.
let dayFrom = 0;
let dayTo = -1;
let dayText = '';
