import { describe, expect, it } from 'vitest';
import { credentialScrub } from './credential-scrub';

const hide = credentialScrub({ partnerId: 4711, accountId: 'ab+c/d==' });

describe('credentialScrub', () => {
  it('hides the account id as it is and URL-encoded in either case, and the partner id as a whole number', () => {
    expect(hide.text('acct ab+c/d== or ab%2Bc%2Fd%3D%3D or ab%2bc%2fd%3d%3d')).toBe(
      'acct [account id] or [account id] or [account id]',
    );
    expect(hide.text('partner 4711, not 47110 nor 14711; 4711.')).toBe(
      'partner [partner id], not 47110 nor 14711; [partner id].',
    );
  });

  it('hides them at any depth of a JSON value, leaving what quotes neither as it was', () => {
    const value = {
      request: { partnerId: 4711, accountId: 'ab+c/d==' },
      list: [1, 'x', { deep: ['ab%2Bc%2Fd%3D%3D'] }],
      other: 4712,
      untouched: { a: [1, 2] },
    };
    const hidden = hide.value(value);
    expect(hidden).toEqual({
      request: { partnerId: '[partner id]', accountId: '[account id]' },
      list: [1, 'x', { deep: ['[account id]'] }],
      other: 4712,
      untouched: { a: [1, 2] },
    });
    // The input is not changed, and a part with no credential is the same object.
    expect(value.request.accountId).toBe('ab+c/d==');
    expect(hidden.untouched).toBe(value.untouched);
    const clean = { a: [1, { b: 'c' }] };
    expect(hide.value(clean)).toBe(clean);
  });

  it('keeps a field named __proto__ a field', () => {
    const value = JSON.parse('{"__proto__": {"account": "ab+c/d=="}}') as Record<string, unknown>;
    const hidden = hide.value(value);
    expect(Object.getPrototypeOf(hidden)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(hidden, '__proto__')?.value).toEqual({ account: '[account id]' });
  });
});
