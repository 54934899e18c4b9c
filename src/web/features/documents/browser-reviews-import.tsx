import { useMemo, useState } from 'react';
import type { ReviewChanged, ReviewRequest } from '@/contract/review-api';
import { formatLoadParam } from '../../lib/load-ref';
import { forgetBrowserReviews, readBrowserReviews } from './browser-reviews';
import type { InboxDocument } from './inbox-model';
import { saveFailure } from '../../data/review-queries';
import { INBOX_BUTTON } from './inbox-text';

export interface BrowserReviewsImportProps {
  /** The inbox's documents: an old mark names a document only, the review needs its load too. */
  documents: readonly InboxDocument[];
  decide: (input: ReviewRequest) => Promise<ReviewChanged>;
}

type State =
  | { kind: 'offered' }
  | { kind: 'importing'; done: number; total: number }
  | { kind: 'imported'; count: number }
  | { kind: 'failed'; done: number; total: number; why: string };

/**
 * Marks this browser kept before reviews were the team's, offered once for import as approvals
 * with the note "imported"; imported or discarded, they are forgotten. A document the team has
 * decided meanwhile keeps that decision, and marks of loads not watched now cannot be imported
 * (a review names its load). With nothing to import now, nothing is offered and the marks wait.
 */
export function BrowserReviewsImport({ documents, decide }: BrowserReviewsImportProps) {
  const [marks, setMarks] = useState(readBrowserReviews);
  const [state, setState] = useState<State>({ kind: 'offered' });
  // Most browsers have no old marks: then no map of every document at each decision.
  const byUrl = useMemo(
    () => new Map(marks.length === 0 ? [] : documents.map((d) => [d.url, d])),
    [documents, marks.length],
  );
  const importable = useMemo(
    () => marks.flatMap((url) => byUrl.get(url) ?? []).filter((d) => !d.reviewed),
    [marks, byUrl],
  );

  const discard = () => {
    forgetBrowserReviews();
    setMarks([]);
  };

  async function importAll(list: readonly InboxDocument[]) {
    let done = 0;
    const total = list.length;
    setState({ kind: 'importing', done, total });
    for (const d of list) {
      try {
        await decide({ load: formatLoadParam(d.load), url: d.url, decision: 'approved', note: 'imported' });
      } catch (error) {
        const why = saveFailure(error);
        // The marks stay in this browser: the offer comes back on the next visit.
        setState({ kind: 'failed', done, total, why });
        return;
      }
      setState({ kind: 'importing', done: ++done, total });
    }
    forgetBrowserReviews();
    setMarks([]);
    setState({ kind: 'imported', count: done });
  }

  if (state.kind === 'imported')
    return (
      <p role="status" className="border-b border-panel-line bg-green-50 px-4 py-2 text-sm text-green-900">
        Imported {state.count === 1 ? '1 review' : `${state.count} reviews`} made in this browser: the team
        sees them now.
      </p>
    );
  if (marks.length === 0 || (importable.length === 0 && state.kind === 'offered')) return null;
  const n = state.kind === 'offered' ? importable.length : state.total;
  const left = marks.length - n;
  return (
    <section
      aria-label="Reviews made in this browser"
      className="flex flex-wrap items-center gap-2 border-b border-panel-line bg-blue-50 px-4 py-2 text-sm"
    >
      <p className="basis-full sm:basis-auto">
        This browser kept {n === 1 ? '1 review' : `${n} reviews`} before reviews were shared with the team.
        {left > 0 &&
          ` ${left} other ${left === 1 ? 'mark is' : 'marks are'} of documents already decided or of loads not watched now, and will not be imported.`}
      </p>
      {state.kind === 'offered' && (
        <>
          <button type="button" className={INBOX_BUTTON} onClick={() => void importAll(importable)}>
            Import {n === 1 ? '1 review' : `${n} reviews`} made in this browser
          </button>
          <button type="button" className={INBOX_BUTTON} onClick={discard}>
            Discard them
          </button>
        </>
      )}
      {state.kind === 'importing' && (
        <span role="status">
          Importing {state.done} of {state.total}…
        </span>
      )}
      {state.kind === 'failed' && (
        <span role="alert">
          Import stopped after {state.done} of {state.total}: {state.why}.{' '}
          <button type="button" className="underline" onClick={() => void importAll(importable)}>
            Try again
          </button>
        </span>
      )}
    </section>
  );
}
