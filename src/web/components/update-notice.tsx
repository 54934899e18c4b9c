import { useServedAnotherBuild } from '../data/served-build';

/**
 * Haulview was deployed again while this tab was open: its code may not read the new answers, so
 * it says so and offers the reload (never forced: a form may be half filled).
 */
export function UpdateNotice() {
  if (!useServedAnotherBuild()) return null;
  return (
    <div
      role="status"
      className="fixed bottom-4 left-1/2 z-[2000] flex w-max max-w-[calc(100vw-2rem)] -translate-x-1/2 items-center gap-3 rounded border border-ink bg-white px-4 py-2 text-sm text-ink shadow-lg"
    >
      <span>Haulview has been updated since this page was opened.</span>
      <button
        type="button"
        onClick={() => window.location.reload()}
        className="rounded bg-ink px-2 py-0.5 font-medium text-white hover:opacity-90"
      >
        Reload
      </button>
    </div>
  );
}
