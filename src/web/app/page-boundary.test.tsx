import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { lazy, Suspense } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { codeNotLoaded, PageBoundary } from './page-boundary';

let broken = true;
function Page() {
  if (broken) throw new Error('no stops in this answer');
  return <p>The page</p>;
}

describe('PageBoundary', () => {
  beforeEach(() => {
    broken = true;
    // React reports the caught error on the console; the boundary's own line is the one that matters.
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(() => vi.restoreAllMocks());

  it('shows a failed page in words beside the rest, tries it again, and forgets it on another page', async () => {
    const user = userEvent.setup();
    const { rerender } = render(
      <PageBoundary page="/billing">
        <Page />
      </PageBoundary>,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('This page failed: no stops in this answer.');
    broken = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(screen.getByText('The page')).toBeInTheDocument();

    broken = true;
    rerender(
      <PageBoundary page="/documents">
        <Page />
      </PageBoundary>,
    );
    expect(screen.getByRole('alert')).toBeInTheDocument();
    broken = false;
    rerender(
      <PageBoundary page="/billing">
        <Page />
      </PageBoundary>,
    );
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says a page whose code could not be fetched wants a reload', async () => {
    const Missing = lazy(() =>
      Promise.reject(new TypeError('Failed to fetch dynamically imported module: http://h/assets/x-1.js')),
    );
    render(
      <PageBoundary page="/exceptions">
        <Suspense fallback={null}>
          <Missing />
        </Suspense>
      </PageBoundary>,
    );
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This page could not be loaded');
    expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
  });

  it('knows the browsers’ words for a module that could not be fetched, and no other error', () => {
    for (const message of [
      'Failed to fetch dynamically imported module: https://h/assets/a.js',
      'error loading dynamically imported module: https://h/assets/a.js',
      'Importing a module script failed.',
      'Unable to preload CSS for /assets/a.css',
    ])
      expect(codeNotLoaded(new Error(message)), message).toBe(true);
    expect(codeNotLoaded(new Error('Cannot read properties of undefined'))).toBe(false);
  });
});
