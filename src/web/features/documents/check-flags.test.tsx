import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { PodCheck } from '@/contract/billing-api';
import { CheckFlags, flagWords } from './check-flags';

const check = (flags: PodCheck['flags']): PodCheck => ({ url: 'u', kind: 'POD', instant: 1, flags });
const earlier = { kind: 'earlier-trip' as const, text: 'of an earlier trip under the same ids' };
const far = { kind: 'far-from-stop' as const, text: 'taken 38 km from the delivery stop' };

describe('a check’s flags in words', () => {
  it('says an earlier trip’s paper is one, without calling it flagged', () => {
    expect(flagWords(check([earlier]))).toBe('of an earlier trip under the same ids');
    expect(flagWords(check([far]))).toBe('flagged: taken 38 km from the delivery stop');
    expect(flagWords(check([]))).toBeUndefined();
  });

  it('marks faults with a flag and the earlier trip without one', () => {
    render(<CheckFlags check={check([far, earlier])} />);
    expect(screen.getByText(/taken 38 km/)).toHaveTextContent('⚑ taken 38 km from the delivery stop');
    expect(screen.getByText(/earlier trip/)).toHaveTextContent(/^of an earlier trip under the same ids$/);
  });
});
