import { ApiError } from '../data/api-client';
import { useServedAnotherBuild } from '../data/served-build';

/** What a failed call to the tracking service was, as the end of "The tracking service …". */
function upstreamCause(code: string, details: unknown): string | undefined {
  switch (code) {
    case 'upstream_unreachable':
      return 'cannot be reached right now';
    case 'upstream_timeout':
      return 'is too slow to answer';
    case 'upstream_error': {
      const status = (details as { upstreamStatus?: unknown } | undefined)?.upstreamStatus;
      return `failed (HTTP ${typeof status === 'number' ? status : '5xx'})`;
    }
    case 'upstream_refused':
      return 'reported a failure';
    case 'upstream_bad_json':
    case 'upstream_truncated':
    case 'upstream_bad_answer':
    case 'upstream_redirect':
    case 'upstream_too_large':
      return 'sent an answer Haulview cannot read';
    default:
      return undefined;
  }
}

/**
 * What went wrong, in words a dispatcher can act on. `kept`: whether earlier data is on screen (on a
 * page that has shown nothing yet, there is no last data to keep).
 */
export function describeError(error: unknown, kept = true): string {
  const stays = kept ? ' The last data stays on screen.' : '';
  if (!(error instanceof ApiError)) return `Something went wrong while loading.${stays}`;
  switch (error.code) {
    case 'network':
      return `Haulview’s server cannot be reached. Check that it is running.${stays}`;
    case 'timeout':
      return `Haulview’s server did not answer in time.${stays} The next refresh asks again.`;
    case 'upstream_unreachable':
    case 'upstream_timeout':
    case 'upstream_error':
    case 'upstream_refused':
      return `The tracking service ${upstreamCause(error.code, error.details)}.${stays} Haulview keeps trying.`;
    case 'partner_credentials_rejected':
      return 'The tracking service rejected the partner credentials (PARTNER_ID / ACCOUNT_ID). An admin must fix the server configuration.';
    case 'upstream_unavailable': {
      // The proxy fails fast after repeated failures; it says what the last one was.
      const last = (error.details as { lastFailure?: { code?: unknown } } | undefined)?.lastFailure;
      const cause = typeof last?.code === 'string' ? upstreamCause(last.code, last) : undefined;
      return `The tracking service keeps failing${cause ? ` (it ${cause})` : ''}, so Haulview pauses its calls${error.retryAfter ? ` for ${error.retryAfter} s` : ''}.${stays}`;
    }
    case 'upstream_bad_json':
    case 'upstream_truncated':
    case 'upstream_bad_answer':
    case 'upstream_redirect':
    case 'upstream_too_large':
      return `The tracking service sent an answer Haulview cannot read (${error.message}).${stays}`;
    case 'login_required':
      return 'Your session has ended: log in again.';
    case 'store_unavailable':
      // With several instances (TRACKS=store) the loads themselves are kept in the database.
      if ((error.details as { waits?: unknown } | undefined)?.waits === 'loads')
        return kept
          ? 'Haulview’s database does not answer, and the loads are kept there: the map and board show the last data until it answers again.'
          : 'Haulview’s database does not answer, and the loads are kept there: they show once it answers again.';
      return 'Haulview’s database does not answer: saved work (reviews, boards, users) waits for it. Loads on the map and board keep coming from the tracking service.';
    case 'forbidden_role':
      return `Your role may not do this (${error.message}).`;
    case 'upstream_rate_limited':
      return `The tracking service asks us to slow down${error.retryAfter ? `; next try in ${error.retryAfter} s` : ''}.`;
    default:
      return error.message;
  }
}

/** An answer this tab's code cannot read, from a newer build: the reload, not a retry, mends it. */
const OLD_TAB =
  'Haulview has been updated since this page was opened, and this page cannot read the new answers: reload it.';

export function ErrorBanner({
  error,
  onRetry,
  kept = true,
}: {
  error: unknown;
  onRetry?: () => void;
  /** Whether the page shows earlier data (false: it has shown nothing yet). */
  kept?: boolean;
}) {
  const updated = useServedAnotherBuild();
  const oldTab = updated && error instanceof ApiError && error.code === 'bad_answer';
  return (
    <div
      role="alert"
      className="flex items-center gap-3 border-b border-red-300 bg-red-50 px-4 py-2 text-sm text-red-900"
    >
      <span aria-hidden="true" className="font-bold">
        !
      </span>
      <span className="flex-1">{oldTab ? OLD_TAB : describeError(error, kept)}</span>
      {oldTab ? (
        <button
          type="button"
          onClick={() => window.location.reload()}
          className="rounded border border-red-400 px-2 py-0.5 hover:bg-red-100"
        >
          Reload
        </button>
      ) : (
        onRetry && (
          <button
            type="button"
            onClick={onRetry}
            className="rounded border border-red-400 px-2 py-0.5 hover:bg-red-100"
          >
            Try again
          </button>
        )
      )}
    </div>
  );
}
