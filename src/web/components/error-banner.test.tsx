import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../lib/api-client';
import { ErrorBanner } from './error-banner';

describe('ErrorBanner', () => {
  it('tells a dispatcher that the partner credentials were rejected, not that they are logged out', () => {
    render(<ErrorBanner error={new ApiError(502, 'partner_credentials_rejected', 'x')} />);
    expect(screen.getByRole('alert')).toHaveTextContent(/rejected the partner credentials/);
    expect(screen.getByRole('alert')).not.toHaveTextContent(/log/i);
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

  it('shows the server’s own message for other errors', () => {
    render(
      <ErrorBanner error={new ApiError(400, 'invalid_request', 'ids: ids must hold at least one id')} />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('ids must hold at least one id');
  });
});
