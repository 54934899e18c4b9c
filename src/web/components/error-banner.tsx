import { ApiError } from '../lib/api-client';

/** What went wrong, in words a dispatcher can act on. */
export function describeError(error: unknown): string {
  if (!(error instanceof ApiError))
    return 'Something went wrong while loading. The last data stays on screen.';
  switch (error.code) {
    case 'network':
      return 'Haulview’s server cannot be reached. Check that it is running; the last data stays on screen.';
    case 'upstream_unreachable':
      return 'The tracking service cannot be reached right now. The last data stays on screen; Haulview keeps trying.';
    case 'upstream_timeout':
      return 'The tracking service is too slow to answer. The last data stays on screen; Haulview keeps trying.';
    case 'partner_credentials_rejected':
      return 'The tracking service rejected the partner credentials (PARTNER_ID / ACCOUNT_ID). An admin must fix the server configuration.';
    case 'upstream_unavailable':
      return `The tracking service keeps failing, so Haulview pauses its calls${error.retryAfter ? ` for ${error.retryAfter} s` : ''}. The last data stays on screen.`;
    case 'upstream_bad_json':
    case 'upstream_truncated':
    case 'upstream_bad_answer':
      return `The tracking service sent an answer Haulview cannot read (${error.message}). The last data stays on screen.`;
    case 'login_required':
      return 'Your session has ended: log in again.';
    case 'upstream_rate_limited':
      return `The tracking service asks us to slow down${error.retryAfter ? `; next try in ${error.retryAfter} s` : ''}.`;
    default:
      return error.message;
  }
}

export function ErrorBanner({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  return (
    <div
      role="alert"
      className="flex items-center gap-3 border-b border-red-300 bg-red-50 px-4 py-2 text-sm text-red-900"
    >
      <span aria-hidden="true" className="font-bold">
        !
      </span>
      <span className="flex-1">{describeError(error)}</span>
      {onRetry && (
        <button
          type="button"
          onClick={onRetry}
          className="rounded border border-red-400 px-2 py-0.5 hover:bg-red-100"
        >
          Try again
        </button>
      )}
    </div>
  );
}
