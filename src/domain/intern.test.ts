import { describe, expect, it } from 'vitest';
import { interner } from './intern';

describe('interner (one string for a repeated text)', () => {
  it('gives back each text as it was, and keeps each short one once', () => {
    const intern = interner(10);
    expect(intern('Arrived at pickup')).toBe('Arrived at pickup');
    expect(intern(['Arrived', 'at', 'pickup'].join(' '))).toBe('Arrived at pickup');
    expect(intern(undefined)).toBeUndefined();
    expect(intern.size).toBe(1);
    // A long text is rarely repeated: given back, not kept.
    expect(intern('x'.repeat(200))).toBe('x'.repeat(200));
    expect(intern.size).toBe(1);
  });

  it('never holds more than its bound, and gives back texts past it as they are', () => {
    const intern = interner(3);
    for (let i = 0; i < 100; i++) expect(intern(`note ${i}`)).toBe(`note ${i}`);
    expect(intern.size).toBe(3);
  });
});
