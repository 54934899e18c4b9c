import { describe, expect, it } from 'vitest';
import { formatCount, formatSinceUpdate, telHref } from './format';

describe('formatSinceUpdate', () => {
  it('counts seconds in the first minute, then minutes and hours as ages are written', () => {
    expect(formatSinceUpdate(0)).toBe('just now');
    expect(formatSinceUpdate(999)).toBe('just now');
    expect(formatSinceUpdate(12_400)).toBe('12 s ago');
    expect(formatSinceUpdate(59_999)).toBe('59 s ago');
    expect(formatSinceUpdate(60_000)).toBe('1 min ago');
    expect(formatSinceUpdate(2 * 3_600_000 + 5 * 60_000)).toBe('2 h 5 min ago');
  });

  it('reads an update a little after the page’s clock (it ticks every 5 s) as just now, not as a negative age', () => {
    expect(formatSinceUpdate(-3_000)).toBe('just now');
  });
});

describe('telHref', () => {
  it('dials the digits and one leading plus of a number written any way, and nothing without a number', () => {
    expect(telHref('+1 (402) 555-0100')).toBe('tel:+14025550100');
    expect(telHref('402-555-0100 ext. 12')).toBe('tel:4025550100');
    expect(telHref('402-555-0100 x12')).toBe('tel:4025550100');
    expect(telHref('+1 402 555 0100 / +1 402 555 0199')).toBe('tel:+14025550100');
    expect(telHref('ask dispatch')).toBeUndefined();
    expect(telHref('12')).toBeUndefined();
  });
});

describe('formatCount', () => {
  it('separates thousands the same way wherever a count is shown', () => {
    expect([0, 999, 1200, 10_000, 1_234_567].map(formatCount)).toEqual([
      '0',
      '999',
      '1,200',
      '10,000',
      '1,234,567',
    ]);
  });
});
