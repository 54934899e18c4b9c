import { describe, expect, it } from 'vitest';
import { compareLabels, compareText } from './collate';

const samples = [
  '700105',
  '9',
  '10',
  'LN100200-3',
  'LN100200-12',
  'In transit',
  'in transit',
  'Ärger',
  'Zeta',
  '',
];

describe('collate', () => {
  it('orders labels by digit value, as localeCompare with numeric does', () => {
    expect(['100', '9', '10'].sort(compareLabels)).toEqual(['9', '10', '100']);
    for (const a of samples)
      for (const b of samples)
        expect(Math.sign(compareLabels(a, b))).toBe(
          Math.sign(a.localeCompare(b, undefined, { numeric: true })),
        );
  });

  it('orders words as localeCompare does', () => {
    for (const a of samples)
      for (const b of samples) expect(Math.sign(compareText(a, b))).toBe(Math.sign(a.localeCompare(b)));
  });
});
