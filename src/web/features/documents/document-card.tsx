import { memo } from 'react';
import { Link } from 'wouter';
import {
  DocumentThumbnail,
  documentTitle,
  isPictureDocument,
  safeHttpUrl,
} from '../../components/document-viewer';
import { ItemTimeText } from '../../components/item-time';
import { itemTimeWords, type TimeZoneChoice } from '../../lib/time-format';
import { useTimeZoneChoice } from '../../lib/time-zone-choice';
import { decidedWords, replacedNotice, ReviewBadge, reviewStateWords } from '../../components/review-text';
import type { PodCheck } from '@/contract/billing-api';
import { CheckFlags, flagWords } from './check-flags';
import type { InboxDocument } from './inbox-model';

/** What a document's own buttons ask for: approve it, start rejecting it, or undo its decision. */
export type ReviewAction = 'approve' | 'reject' | 'undo';

/** "BOL of load 700100": how a document is named in labels and announcements. */
export const documentName = (d: InboxDocument) => `${documentTitle(d.doc)} of load ${d.load.label}`;

/** "Pickup · Omaha, NE", "Stop 2 (S2)", or undefined when the document names no stop. */
export function stopWords(d: Pick<InboxDocument, 'stop'>): string | undefined {
  const { label, place } = d.stop;
  if (label === undefined) return place;
  return place ? `${label} · ${place}` : label;
}

/**
 * Everything a screen reader says when a document gets focus; its place ("3 of 1,251: ") when given,
 * which only the current document is, as focus rests only there.
 */
export function documentSummary(
  d: InboxDocument,
  place: { position: number; total: number } | undefined,
  isNew: boolean,
  zone: TimeZoneChoice,
): string {
  return [
    `${place ? `${place.position} of ${place.total}: ` : ''}${documentName(d)}`,
    stopWords(d),
    itemTimeWords(d.doc.time, d.doc.instant, zone).text,
    d.doc.driver?.name ? `by ${d.doc.driver.name}` : 'uploader unknown',
    d.reviewed
      ? `${reviewStateWords(d.review).toLowerCase()} ${decidedWords(d.review) ?? ''}`.trim()
      : 'not reviewed',
    isNew ? 'new' : undefined,
    safeHttpUrl(d.url) ? undefined : 'address not a web address',
  ]
    .filter(Boolean)
    .join(', ');
}

const control =
  'rounded border border-panel-line bg-panel px-1.5 py-0.5 text-xs whitespace-nowrap text-ink hover:bg-panel-sunk focus-visible:outline-2 focus-visible:outline-status-selected';

export interface DocumentCardProps {
  item: InboxDocument;
  /** Its check against its stop, when it is a POD or BOL the proxy checked. */
  check?: PodCheck | undefined;
  /**
   * The current document's 1-based place in the list shown, and the list's length; undefined for
   * the others, so a document leaving the list re-renders no row but the new current one.
   */
  position?: number | undefined;
  total?: number | undefined;
  /** The current document: the one keys act on, and the only one reached by Tab. */
  current: boolean;
  isNew: boolean;
  /** The user's name: a teammate's decision that replaced theirs is said on the document. */
  me: string | undefined;
  onOpen: (url: string) => void;
  onDecide: (url: string, action: ReviewAction) => void;
  onFocusItem: (url: string) => void;
}

/**
 * One document in the queue, as one dense row (the current one is previewed beside the list): a
 * small picture or type mark, its type, load and review state, its stop and place, time, uploader;
 * review, open, download and map links. An address that is not `http(s)` is never loaded or linked.
 */
export const DocumentCard = memo(function DocumentCard({
  item,
  check,
  position,
  total,
  current,
  isNew,
  me,
  onOpen,
  onDecide,
  onFocusItem,
}: DocumentCardProps) {
  const { doc, load, reviewed, review } = item;
  const notice = replacedNotice(review, me);
  const safe = safeHttpUrl(doc.url);
  const picture = isPictureDocument(doc);
  const title = documentTitle(doc);
  const stop = stopWords(item);
  const name = documentName(item);
  const zone = useTimeZoneChoice();
  // Only the current document's controls are in the Tab order; j/k and the arrows move between documents.
  const tab = current ? undefined : -1;
  const flags = flagWords(check);
  const place = position !== undefined && total !== undefined ? { position, total } : undefined;

  return (
    <article
      data-document-item=""
      data-url={doc.url}
      tabIndex={current ? 0 : -1}
      aria-label={`${documentSummary(item, place, isNew, zone)}${flags ? `, ${flags}` : ''}${notice ? `, ${notice}` : ''}`}
      aria-current={current ? 'true' : undefined}
      onFocus={() => onFocusItem(doc.url)}
      className={`flex flex-wrap items-center gap-x-3 gap-y-1 border-l-4 px-2 py-1 text-sm focus:outline-2 focus:-outline-offset-2 focus:outline-status-selected ${
        current ? 'border-l-status-selected bg-blue-50' : 'border-l-transparent bg-panel'
      } ${reviewed ? 'text-ink-muted' : ''}`}
    >
      <button
        type="button"
        tabIndex={tab}
        onClick={() => onOpen(doc.url)}
        aria-label={`View ${name}${picture ? ' (picture)' : ''}`}
        className="flex h-10 w-10 shrink-0 items-center justify-center overflow-hidden rounded bg-panel-sunk hover:bg-panel-line focus-visible:outline-2 focus-visible:outline-status-selected"
      >
        {safe && picture ? (
          <DocumentThumbnail doc={doc} />
        ) : (
          <span aria-hidden="true" className="text-lg">
            {picture ? '🖼' : '▤'}
          </span>
        )}
      </button>
      <div className="min-w-48 flex-1">
        {/* At least this wide: on a phone the actions go to a line of their own, not the text. */}
        <p className="flex items-center gap-x-2 truncate">
          <span className="font-semibold">{title}</span>
          <span className="text-ink-muted">Load {load.label}</span>
          <ReviewBadge review={review} toReview="Not reviewed" />
          {reviewed && <span className="truncate text-xs text-ink-muted">{decidedWords(review)}</span>}
          {isNew && <span className="rounded bg-blue-100 px-1 text-xs text-blue-900">New</span>}
        </p>
        <p className="truncate text-xs">
          {stop ?? <span className="text-ink-muted">no stop given</span>}
          {' · '}
          <ItemTimeText time={doc.time} instant={doc.instant} withAge />
          {' · '}
          <span className="text-ink-muted">
            {doc.driver?.name ? `by ${doc.driver.name}` : 'uploader unknown'}
          </span>
          {!safe && <span className="text-status-silent"> · Address not a web address: not opened</span>}
        </p>
        <CheckFlags check={check} className="mt-0.5" />
        {notice && <p className="truncate text-xs font-semibold text-amber-900">{notice}.</p>}
      </div>
      <p className="ml-auto flex shrink-0 gap-1">
        {reviewed ? (
          <button
            type="button"
            tabIndex={tab}
            className={control}
            aria-label={`Undo: ${name} back to review`}
            onClick={() => onDecide(doc.url, 'undo')}
          >
            Undo
          </button>
        ) : (
          <>
            <button
              type="button"
              tabIndex={tab}
              className={control}
              aria-label={`Approve ${name}`}
              onClick={() => onDecide(doc.url, 'approve')}
            >
              Approve
            </button>
            <button
              type="button"
              tabIndex={tab}
              className={control}
              aria-label={`Reject ${name}…`}
              onClick={() => onDecide(doc.url, 'reject')}
            >
              Reject…
            </button>
          </>
        )}
        {safe && (
          <>
            <a
              href={safe}
              target="_blank"
              rel="noopener noreferrer"
              tabIndex={tab}
              className={control}
              aria-label={`Open original of ${name} (new tab)`}
            >
              Open
            </a>
            <a
              href={safe}
              download
              target="_blank"
              rel="noopener noreferrer"
              tabIndex={tab}
              className={control}
              aria-label={`Download ${name}`}
            >
              Download
            </a>
          </>
        )}
        <Link
          href={load.mapHref}
          tabIndex={tab}
          className={control}
          aria-label={`Show on map: load ${load.label}`}
        >
          Map
        </Link>
      </p>
    </article>
  );
});
