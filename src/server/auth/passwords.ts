import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Passwords are kept as scrypt hashes (memory-hard: guessing costs memory as well as time), in a
 * string that says how it was made: `scrypt$N$r$p$salt$hash`, salt and hash in base64url. A stored
 * hash keeps verifying after the parameters below change; `needsRehash` tells the login to store a
 * new one while it holds the password.
 */
export interface ScryptParameters {
  /** Cost: a power of two. Memory is about 128·N·r bytes. */
  N: number;
  r: number;
  p: number;
}

/**
 * Below OWASP's scrypt minimum (2^17) so that a login stays quick on a small server; the encoded
 * string names its parameters, so they can be raised later and old hashes still verify.
 */
export const SCRYPT_PARAMETERS: Readonly<ScryptParameters> = { N: 2 ** 15, r: 8, p: 1 };

const SALT_BYTES = 16;
const HASH_BYTES = 32;

/**
 * What a stored string may ask for. A tampered row must not make a login spend gigabytes or
 * minutes: anything outside these bounds does not verify.
 */
const BOUNDS = { N: [2 ** 10, 2 ** 20], r: [1, 32], p: [1, 4], salt: [16, 64], hash: [16, 64] } as const;
/** The most memory one hash may take, whatever a stored N and r say. */
const MAX_MEMORY = 2 ** 28;

export interface PasswordHash extends ScryptParameters {
  salt: Buffer;
  hash: Buffer;
}

function derive(
  password: string,
  salt: Buffer,
  length: number,
  { N, r, p }: ScryptParameters,
): Promise<Buffer> {
  // Node's default memory cap is below what these parameters need: allow that, with room.
  const options: ScryptOptions = { N, r, p, maxmem: 256 * N * r * p + 16 * 1024 * 1024 };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, length, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

const within = (value: number, [min, max]: readonly [number, number]) =>
  Number.isSafeInteger(value) && value >= min && value <= max;

const BASE64URL = /^[A-Za-z0-9_-]+$/;
const INTEGER = /^[1-9]\d{0,9}$/;

/** The parts of a stored hash, or undefined when it is not one this module would verify. */
export function parsePasswordHash(encoded: string): PasswordHash | undefined {
  const parts = encoded.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return undefined;
  const [, n, r, p, salt, hash] = parts as [string, string, string, string, string, string];
  if (![n, r, p].every((v) => INTEGER.test(v)) || ![salt, hash].every((v) => BASE64URL.test(v)))
    return undefined;
  const parsed: PasswordHash = {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    salt: Buffer.from(salt, 'base64url'),
    hash: Buffer.from(hash, 'base64url'),
  };
  const powerOfTwo = (parsed.N & (parsed.N - 1)) === 0;
  const ok =
    powerOfTwo &&
    within(parsed.N, BOUNDS.N) &&
    within(parsed.r, BOUNDS.r) &&
    within(parsed.p, BOUNDS.p) &&
    128 * parsed.N * parsed.r <= MAX_MEMORY &&
    within(parsed.salt.length, BOUNDS.salt) &&
    within(parsed.hash.length, BOUNDS.hash) &&
    // Exactly the canonical text: no padding or stray bits that decode to the same bytes.
    parsed.salt.toString('base64url') === salt &&
    parsed.hash.toString('base64url') === hash;
  return ok ? parsed : undefined;
}

/** A new hash of `password`, with a fresh random salt. */
export async function hashPassword(
  password: string,
  parameters: ScryptParameters = SCRYPT_PARAMETERS,
): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await derive(password, salt, HASH_BYTES, parameters);
  const { N, r, p } = parameters;
  return ['scrypt', N, r, p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

/** Whether `password` is the one `encoded` was made from. A malformed or tampered string never is. */
export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  const stored = parsePasswordHash(encoded);
  if (stored === undefined) return false;
  const candidate = await derive(password, stored.salt, stored.hash.length, stored);
  return timingSafeEqual(candidate, stored.hash);
}

/** Whether a stored hash was made with other parameters than today's (or is not one at all). */
export function needsRehash(encoded: string, parameters: ScryptParameters = SCRYPT_PARAMETERS): boolean {
  const stored = parsePasswordHash(encoded);
  return (
    stored === undefined ||
    stored.N !== parameters.N ||
    stored.r !== parameters.r ||
    stored.p !== parameters.p ||
    stored.salt.length !== SALT_BYTES ||
    stored.hash.length !== HASH_BYTES
  );
}

/** A password for someone who did not choose one: 24 characters, 144 random bits. */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}
