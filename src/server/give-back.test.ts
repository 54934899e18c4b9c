import { describe, expect, it } from 'vitest';
import { giveBack, ownBytes } from './give-back';

describe('bytes given back', () => {
  it("a text's bytes in a buffer of their own, detached once given back", () => {
    const text = 'say "hi" \\ à ☃ 🚚';
    const bytes = ownBytes(text);
    expect(bytes.toString('utf8')).toBe(text);
    // Not a slice of the shared pool: giving it back takes nothing from another Buffer.
    const small = Buffer.from('x');
    expect(bytes.byteOffset).toBe(0);
    expect(bytes.buffer.byteLength).toBe(bytes.length);
    const memory = bytes.buffer;
    giveBack(bytes);
    expect(memory.byteLength).toBe(0);
    expect(bytes.length).toBe(0);
    expect(small.toString()).toBe('x');
    // Twice is nothing.
    giveBack(bytes);
  });
});
