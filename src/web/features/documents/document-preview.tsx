import { Link } from 'wouter';
import {
  DocumentThumbnail,
  documentPlace,
  safeHttpUrl,
  UnsafeAddress,
} from '../../components/document-viewer';
import { ItemTimeText } from '../../components/item-time';
import { decidedWords, replacedNotice, ReviewBadge } from '../../components/review-text';
import { documentName, stopWords, type ReviewAction } from './document-card';
import type { PodCheck } from '@/contract/billing-api';
import { CheckFlags } from './check-flags';
import type { InboxDocument } from './inbox-model';
import { INBOX_BUTTON } from './inbox-text';

/**
 * The current document beside the list (wide screens only: a phone opens the viewer instead): the
 * picture itself, or its type, with where and when it was uploaded, by whom, and the actions.
 */
export function DocumentPreview({
  item,
  check,
  me,
  onOpen,
  onDecide,
}: {
  item: InboxDocument | undefined;
  check: PodCheck | undefined;
  me: string | undefined;
  onOpen: (url: string) => void;
  onDecide: (url: string, action: ReviewAction) => void;
}) {
  if (!item) return null;
  const { doc, load, reviewed, review } = item;
  const notice = replacedNotice(review, me);
  const safe = safeHttpUrl(doc.url);
  const uploadedAt = documentPlace(doc);
  const name = documentName(item);
  return (
    <aside
      aria-label={`Preview: ${name}`}
      className="hidden w-[26rem] shrink-0 flex-col gap-2 overflow-auto border-l border-panel-line bg-panel p-3 text-sm lg:flex xl:w-[32rem]"
    >
      <button
        type="button"
        onClick={() => onOpen(doc.url)}
        aria-label={`Open ${name} in the viewer`}
        className="flex h-72 items-center justify-center overflow-hidden rounded bg-panel-sunk hover:bg-panel-line focus-visible:outline-2 focus-visible:outline-status-selected xl:h-96"
      >
        <DocumentThumbnail doc={doc} unsafeNote eager />
      </button>
      <h3 className="text-base font-semibold">{name}</h3>
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-0.5 text-xs">
        <dt className="text-ink-muted">Stop</dt>
        <dd>{stopWords(item) ?? 'no stop given'}</dd>
        <dt className="text-ink-muted">Uploaded</dt>
        <dd>
          <ItemTimeText time={doc.time} instant={doc.instant} withAge />
          {uploadedAt && ` · at ${uploadedAt}`}
        </dd>
        <dt className="text-ink-muted">By</dt>
        <dd>{doc.driver?.name ?? 'uploader unknown'}</dd>
        <dt className="text-ink-muted">Review</dt>
        <dd>
          <ReviewBadge review={review} toReview="Not reviewed" /> {reviewed && decidedWords(review)}
        </dd>
        {reviewed && review?.note && (
          <>
            <dt className="text-ink-muted">Note</dt>
            <dd className="break-words">{review.note}</dd>
          </>
        )}
      </dl>
      <CheckFlags check={check} quiet className="text-xs" />
      {notice && <p className="text-xs font-semibold text-amber-900">{notice}.</p>}
      {!safe && <UnsafeAddress url={doc.url} />}
      <p className="flex flex-wrap gap-1">
        {reviewed ? (
          <button type="button" className={INBOX_BUTTON} onClick={() => onDecide(doc.url, 'undo')}>
            Undo: back to review
          </button>
        ) : (
          <>
            <button type="button" className={INBOX_BUTTON} onClick={() => onDecide(doc.url, 'approve')}>
              Approve
            </button>
            <button type="button" className={INBOX_BUTTON} onClick={() => onDecide(doc.url, 'reject')}>
              Reject…
            </button>
          </>
        )}
        {safe && (
          <a href={safe} target="_blank" rel="noopener noreferrer" className={INBOX_BUTTON}>
            Open original
          </a>
        )}
        <Link href={load.mapHref} className={INBOX_BUTTON}>
          Show load {load.label} on the map
        </Link>
      </p>
    </aside>
  );
}
