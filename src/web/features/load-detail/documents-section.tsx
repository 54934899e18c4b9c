import { useState } from 'react';
import type { DocumentReview } from '@/contract/review-api';
import type { Document } from '@/domain/model';
import {
  DocumentThumbnail,
  documentPlace,
  documentStop,
  documentTitle,
  isPictureDocument,
} from '../../components/document-viewer';
import { ItemTimeText } from '../../components/item-time';
import { decidedWords, ReviewBadge, reviewState } from '../../components/review-text';

export interface DocumentsGridProps {
  /** In the order shown (newest first); `onOpen` gets an index into it. */
  documents: readonly Document[];
  fresh: ReadonlySet<string>;
  onOpen: (index: number) => void;
  /** The team's reviews by document address; undefined while they cannot be read (no badge then). */
  reviews?: ReadonlyMap<string, DocumentReview>;
}

/** Cards shown at first, and added by "Show more": a load with 500 pictures is not 500 cards at once. */
export const DOCUMENTS_PAGE = 24;

/**
 * Uploaded documents and pictures: a thumbnail for a picture, a card for any other file; each opens
 * the viewer (which steps through all of them). The newest come first, a page at a time. Each says
 * its review (approved, rejected and why, or to review; who and when). An address that is not
 * `http(s)` is never loaded or linked: the card says so.
 */
export function DocumentsGrid({ documents, fresh, onOpen, reviews }: DocumentsGridProps) {
  const [shown, setShown] = useState(DOCUMENTS_PAGE);
  if (documents.length === 0) return <p className="text-sm text-ink-muted">No documents uploaded yet.</p>;
  const hidden = documents.length - shown;
  return (
    <>
      <ul className="grid grid-cols-[repeat(auto-fill,minmax(10rem,1fr))] gap-3">
        {documents.slice(0, shown).map((doc, i) => {
          const picture = isPictureDocument(doc);
          const stop = documentStop(doc);
          const place = documentPlace(doc);
          const title = documentTitle(doc);
          const isNew = fresh.has(`document:${doc.key}`);
          const review = reviews?.get(doc.url);
          const decided = reviewState(review) !== 'to-review';
          return (
            <li
              key={doc.key}
              data-new={isNew || undefined}
              className={`flex flex-col overflow-hidden rounded border bg-panel text-sm ${
                isNew ? 'border-amber-400 ring-2 ring-amber-400' : 'border-panel-line'
              }`}
            >
              <button
                type="button"
                onClick={() => onOpen(i)}
                aria-label={`Open ${title}${stop ? `, ${stop}` : ''}${picture ? ' (picture)' : ''}`}
                className="flex h-32 items-center justify-center bg-panel-sunk hover:bg-panel-line focus:outline-2 focus:outline-status-selected"
              >
                <DocumentThumbnail doc={doc} unsafeNote />
              </button>
              <div className="space-y-0.5 p-2">
                <p className="font-semibold">
                  {title}
                  {isNew && (
                    <span className="ml-2 rounded bg-amber-200 px-1 text-xs text-amber-900">New</span>
                  )}
                </p>
                {reviews && (
                  <p className="text-xs">
                    <ReviewBadge review={review} />
                    {decided && <span className="text-ink-muted"> {decidedWords(review)}</span>}
                  </p>
                )}
                {decided && review?.note && <p className="text-xs break-words">“{review.note}”</p>}
                {stop && <p className="text-xs">{stop}</p>}
                <p className="text-xs text-ink-muted">
                  <ItemTimeText time={doc.time} instant={doc.instant} />
                </p>
                <p className="text-xs text-ink-muted">
                  {doc.driver?.name ? `by ${doc.driver.name}` : 'uploader unknown'}
                  {place && ` · ${place}`}
                </p>
              </div>
            </li>
          );
        })}
      </ul>
      {hidden > 0 && (
        <p className="mt-3 flex flex-wrap items-center gap-2 text-sm">
          <span className="text-ink-muted">{hidden} older not shown.</span>
          <button
            type="button"
            onClick={() => setShown(shown + DOCUMENTS_PAGE)}
            className="rounded border border-panel-line bg-panel px-2 py-0.5 hover:bg-panel-sunk"
          >
            Show {Math.min(DOCUMENTS_PAGE, hidden)} more
          </button>
          <button
            type="button"
            onClick={() => setShown(documents.length)}
            className="rounded border border-panel-line bg-panel px-2 py-0.5 hover:bg-panel-sunk"
          >
            Show all {documents.length}
          </button>
        </p>
      )}
    </>
  );
}
