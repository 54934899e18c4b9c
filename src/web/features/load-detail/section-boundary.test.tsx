import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SectionBoundary } from './section-boundary';

afterEach(() => vi.restoreAllMocks());

let broken = true;
function Fragile() {
  if (broken) throw new Error('stops is not iterable');
  return <p>Stops are back</p>;
}

describe('SectionBoundary', () => {
  it('replaces only the section that throws, and can try again', async () => {
    // React reports the caught error on the console; it is expected here.
    vi.spyOn(console, 'error').mockImplementation(() => {});
    broken = true;
    render(
      <>
        <SectionBoundary name="Stops">
          <Fragile />
        </SectionBoundary>
        <SectionBoundary name="Comments">
          <p>Two comments</p>
        </SectionBoundary>
      </>,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Stops could not be shown: stops is not iterable');
    expect(screen.getByText('Two comments')).toBeInTheDocument();

    broken = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByText('Stops are back')).toBeInTheDocument();
  });
});
