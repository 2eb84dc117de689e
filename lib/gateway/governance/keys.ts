// API keys: random, high-entropy, shown once, stored as a SHA-256 hash.
//
// Why plain SHA-256 and not bcrypt/argon2: those slow hashes exist to stop guessing of
// low-entropy, human-chosen passwords. Our keys carry 256 random bits, so guessing is already
// hopeless and a fast hash loses nothing; it also lets the auth hook find a tenant with one
// indexed lookup per request instead of a deliberately slow hash per tenant.
import { createHash, randomBytes } from 'node:crypto';

export const KEY_PREFIX = 'vgl_';
/** Characters of the key kept in clear so operators can tell keys apart ("vgl_AbCd1234"). */
const DISPLAY_CHARS = 12;

export function generateApiKey(): string {
  return KEY_PREFIX + randomBytes(32).toString('base64url');
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function keyDisplayPrefix(key: string): string {
  return key.slice(0, DISPLAY_CHARS);
}

/** The key a request presents: `Authorization: Bearer <key>` or `X-API-Key: <key>`. */
export function extractApiKey(headers: Record<string, string | string[] | undefined>): string | null {
  const auth = headers.authorization;
  const a = Array.isArray(auth) ? auth[0] : auth;
  if (a) {
    const m = /^\s*Bearer\s+(\S+)\s*$/i.exec(a);
    if (m) return m[1];
  }
  const x = headers['x-api-key'];
  const v = (Array.isArray(x) ? x[0] : x)?.trim();
  return v ? v : null;
}
