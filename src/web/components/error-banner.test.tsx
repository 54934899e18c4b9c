import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../data/api-client';
import { ErrorBanner } from './error-banner';

describe('ErrorBanner', () => {
  it('tells a dispatcher that the partner credentials were rejected, not that they are logged out', () => {
    render(<ErrorBanner error={new ApiError(502, 'partner_credentials_rejected', 'x')} />);
    expect(screen.getByRole('alert')).toHaveTextContent(/rejected the partner credentials/);
    expect(screen.getByRole('alert')).not.toHaveTextContent(/log/i);
  });

  it('says the server did not answer in time, and that the next refresh asks again', () => {
    render(<ErrorBanner error={new ApiError(0, 'timeout', 'x')} />);
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Haulview’s server did not answer in time. The last data stays on screen. The next refresh asks again.',
    );
  });

  it('says when to come back after a rate limit, and offers a retry', async () => {
    const retry = vi.fn();
    render(
      <ErrorBanner
        error={new ApiError(429, 'upstream_rate_limited', 'x', undefined, '30')}
        onRetry={retry}
      />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent(/next try in 30 s/);
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(retry).toHaveBeenCalledOnce();
  });

  it('says in words that the service failed with a 5xx, not in the proxy’s own terms', () => {
    render(
      <ErrorBanner
        error={
          new ApiError(502, 'upstream_error', 'the upstream answered with HTTP 500', { upstreamStatus: 500 })
        }
      />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent(
      'The tracking service failed (HTTP 500). The last data stays on screen. Haulview keeps trying.',
    );
    render(
      <ErrorBanner error={new ApiError(502, 'upstream_refused', 'the upstream reported a failure: x')} />,
    );
    expect(screen.getAllByRole('alert')[1]).toHaveTextContent(/The tracking service reported a failure\./);
  });

  it('promises no last data on a page that has shown none', () => {
    const failed = new ApiError(502, 'upstream_bad_answer', 'the answer is not a pull envelope');
    for (const error of [failed, new ApiError(0, 'network', 'x'), new Error('x')]) {
      const { unmount } = render(<ErrorBanner error={error} kept={false} />);
      expect(screen.getByRole('alert')).not.toHaveTextContent(/last data/);
      unmount();
      render(<ErrorBanner error={error} />);
      expect(screen.getByRole('alert')).toHaveTextContent(/The last data stays on screen/);
      cleanup();
    }
  });

  it('says what kind of failure made the proxy pause its calls', () => {
    render(
      <ErrorBanner
        error={
          new ApiError(
            503,
            'upstream_unavailable',
            'x',
            { lastFailure: { code: 'upstream_error', upstreamStatus: 500 } },
            '25',
          )
        }
      />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent(
      'The tracking service keeps failing (it failed (HTTP 500)), so Haulview pauses its calls for 25 s.',
    );
  });

  it('says the database is down, and that the loads keep coming, for store_unavailable', () => {
    render(<ErrorBanner error={new ApiError(503, 'store_unavailable', 'the store does not answer')} />);
    expect(screen.getByRole('alert')).toHaveTextContent(/database does not answer.*keep coming/);
  });

  it('says the loads wait too when the database keeps them (several instances)', () => {
    const error = new ApiError(503, 'store_unavailable', 'the store does not answer', { waits: 'loads' });
    render(<ErrorBanner error={error} />);
    expect(screen.getByRole('alert')).toHaveTextContent(
      /database does not answer, and the loads are kept there: the map and board show the last data/,
    );
    expect(screen.getByRole('alert')).not.toHaveTextContent(/keep coming/);
  });

  it('shows the server’s own message for other errors', () => {
    render(
      <ErrorBanner error={new ApiError(400, 'invalid_request', 'ids: ids must hold at least one id')} />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('ids must hold at least one id');
  });
});
