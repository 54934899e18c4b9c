import { describe, expect, it } from 'vitest';
import {
  generatePassword,
  hashPassword,
  needsRehash,
  parsePasswordHash,
  SCRYPT_PARAMETERS,
  verifyPassword,
} from './passwords';

/** Cheaper parameters where the test is about the format, not the cost. */
const CHEAP = { N: 2 ** 10, r: 8, p: 1 };

describe('password hashes', () => {
  it('verify the right password and refuse a wrong one', async () => {
    const stored = await hashPassword('correct horse battery staple');
    expect(await verifyPassword('correct horse battery staple', stored)).toBe(true);
    expect(await verifyPassword('correct horse battery stapl', stored)).toBe(false);
    expect(await verifyPassword('Correct horse battery staple', stored)).toBe(false);
    expect(await verifyPassword('', stored)).toBe(false);
  });

  it('say how they were made: scrypt$N$r$p$salt$hash, read back', async () => {
    const stored = await hashPassword('correct horse battery staple');
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    const parsed = parsePasswordHash(stored);
    expect(parsed).toMatchObject(SCRYPT_PARAMETERS);
    expect(parsed?.salt).toHaveLength(16);
    expect(parsed?.hash).toHaveLength(32);
    const cheap = parsePasswordHash(await hashPassword('x', CHEAP));
    expect(cheap).toMatchObject(CHEAP);
  });

  it('take a fresh salt each time: the same password hashes differently, and both verify', async () => {
    const [a, b] = await Promise.all([
      hashPassword('same password', CHEAP),
      hashPassword('same password', CHEAP),
    ]);
    expect(a).not.toBe(b);
    expect(parsePasswordHash(a)?.salt).not.toEqual(parsePasswordHash(b)?.salt);
    expect(await verifyPassword('same password', a)).toBe(true);
    expect(await verifyPassword('same password', b)).toBe(true);
  });

  it('refuse a tampered or malformed string, whatever the password', async () => {
    const stored = await hashPassword('hunter2 hunter2', CHEAP);
    const [, n, r, p, salt, hash] = stored.split('$') as [string, string, string, string, string, string];
    const other = (text: string) => (text[0] === 'A' ? 'B' : 'A') + text.slice(1);
    const tampered = [
      ['scrypt', n, r, p, salt, other(hash)],
      ['scrypt', n, r, p, other(salt), hash],
      ['scrypt', String(Number(n) * 2), r, p, salt, hash],
      ['scrypt', n, '9', p, salt, hash],
      ['scrypt', n, r, '2', salt, hash],
    ].map((parts) => parts.join('$'));
    const malformed = [
      '',
      'hunter2 hunter2',
      stored.replace(/^scrypt/, 'bcrypt'),
      ['scrypt', n, r, p, salt].join('$'),
      `${stored}$`,
      ['scrypt', '1000', r, p, salt, hash].join('$'), // N not a power of two
      ['scrypt', String(2 ** 30), r, p, salt, hash].join('$'), // gigabytes: refused before trying
      ['scrypt', `0${n}`, r, p, salt, hash].join('$'),
      ['scrypt', n, r, p, salt, `${hash}=`].join('$'),
      ['scrypt', n, r, p, 'c2FsdA', hash].join('$'), // a 4-byte salt
      ['scrypt', n, r, p, salt, hash.slice(0, 8)].join('$'),
    ];
    for (const bad of [...tampered, ...malformed]) {
      expect(await verifyPassword('hunter2 hunter2', bad), bad).toBe(false);
    }
    for (const bad of malformed) expect(parsePasswordHash(bad), bad).toBeUndefined();
  });

  it('say when a stored hash was made with other parameters, and still verify it', async () => {
    expect(needsRehash(await hashPassword('pw', CHEAP))).toBe(true);
    expect(needsRehash(await hashPassword('pw', CHEAP), CHEAP)).toBe(false);
    const current = await hashPassword('pw');
    expect(needsRehash(current)).toBe(false);
    expect(needsRehash(current, { ...SCRYPT_PARAMETERS, N: 2 ** 16 })).toBe(true);
    expect(needsRehash('not a hash')).toBe(true);
    expect(await verifyPassword('pw', await hashPassword('pw', CHEAP))).toBe(true);
  });

  it('take a password as the same text however its accents are encoded', async () => {
    const stored = await hashPassword('Zoë-passw\u00f6rd', CHEAP);
    expect(await verifyPassword('Zoe\u0308-passwo\u0308rd', stored)).toBe(true);
  });

  it('generate passwords of 24 URL-safe characters, each new', () => {
    const a = generatePassword();
    expect(a).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(generatePassword()).not.toBe(a);
  });
});
