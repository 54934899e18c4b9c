import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useDeferredValue, useId, useMemo, useRef, useState } from 'react';
import type { Position } from '@/domain/model';
import { documentPlace, documentStop, documentTitle } from '../../components/document-viewer';
import { coordinatesText, formatAccuracy } from '../../lib/format';
import { ItemTimeText } from '../../components/item-time';
import { VirtualItems } from '../../components/virtual-items';
import { formatTemperature } from '../../lib/temperature-series';
import {
  DEFAULT_KINDS,
  commentAuthor,
  countByKind,
  filterTimeline,
  placeText,
  TIMELINE_KINDS,
  type TimelineItem,
  type TimelineKind,
} from './timeline-items';

export interface TimelineProps {
  items: readonly TimelineItem[];
  /** Keys of items that just arrived: briefly highlighted. */
  fresh: ReadonlySet<string>;
  onOpenDocument: (index: number) => void;
  onPanTo?: (p: Position) => void;
}

/** A kind as a word and a glyph: the word carries the meaning, the glyph helps the eye. */
const KIND_BADGE: Record<TimelineKind, { word: string; glyph: string; className: string }> = {
  status: { word: 'Status', glyph: '◆', className: 'border-status-selected text-status-selected' },
  comment: { word: 'Comment', glyph: '✎', className: 'border-ink-muted text-ink' },
  document: { word: 'Document', glyph: '▤', className: 'border-ink-muted text-ink' },
  excursion: { word: 'Excursion', glyph: '▲', className: 'border-status-silent text-status-silent' },
  ping: { word: 'Ping', glyph: '•', className: 'border-panel-line text-ink-muted' },
};

const smallButton = 'rounded border border-panel-line bg-panel px-2 py-0.5 text-xs hover:bg-panel-sunk';

function ItemBody({
  item,
  onOpenDocument,
  onPanTo,
}: {
  item: TimelineItem;
  onOpenDocument: (index: number) => void;
  onPanTo: ((p: Position) => void) | undefined;
}) {
  switch (item.kind) {
    case 'status': {
      const e = item.event;
      return (
        <p>
          <strong>{e.name ?? <em className="font-normal text-ink-muted">unnamed status</em>}</strong>
          {e.code && <span className="text-ink-muted"> ({e.code})</span>}
          {item.noise && <span className="text-xs text-ink-muted italic"> · app notice</span>}
          {e.driver?.name && <span className="text-xs text-ink-muted"> · by {e.driver.name}</span>}
        </p>
      );
    }
    case 'comment': {
      const c = item.comment;
      const place = placeText(c.place);
      const position = c.position;
      return (
        <div>
          <p className="break-words whitespace-pre-wrap">
            <strong>
              {commentAuthor(c.by)}
              {c.by && ` (${c.by === 'driver' ? 'D' : 'B'})`}:
            </strong>{' '}
            {c.text ?? <em className="text-ink-muted">empty comment</em>}
          </p>
          {(place || (position && onPanTo)) && (
            <p className="text-xs text-ink-muted">
              {place && `from ${place} `}
              {position && onPanTo && (
                <button type="button" className={smallButton} onClick={() => onPanTo(position)}>
                  Show on map
                </button>
              )}
            </p>
          )}
        </div>
      );
    }
    case 'document': {
      const d = item.document;
      const meta = [documentStop(d), d.driver?.name && `by ${d.driver.name}`, documentPlace(d)].filter(
        Boolean,
      );
      return (
        <p className="flex flex-wrap items-center gap-x-2">
          <strong>{documentTitle(d)}</strong>
          {meta.length > 0 && <span className="text-xs text-ink-muted">{meta.join(' · ')}</span>}
          <button
            type="button"
            className={smallButton}
            onClick={() => onOpenDocument(item.documentIndex)}
            aria-label={`Open ${documentTitle(d)}${documentStop(d) ? `, ${documentStop(d)}` : ''}`}
          >
            Open
          </button>
        </p>
      );
    }
    case 'excursion': {
      const { run, unit } = item;
      const w = run.worst;
      const set = w.reading.set as number;
      return (
        <p>
          <strong className="text-status-silent">Temperature excursion</strong>: {w.which}{' '}
          {formatTemperature(w.value, unit)}, {formatTemperature(Math.abs(w.deviation), unit)}{' '}
          {w.deviation > 0 ? 'above' : 'below'} set {formatTemperature(set, unit)} · {run.readings}{' '}
          {run.readings === 1 ? 'reading' : 'readings'}
          {run.ongoing
            ? ' · still out of range'
            : ` · back in range after ${run.last.time.local ?? 'the next reading'}`}
        </p>
      );
    }
    case 'ping': {
      const p = item.ping;
      return (
        <p className="flex flex-wrap items-center gap-x-2 text-ink-muted">
          <span>{formatAccuracy(p.accuracy)}</span>
          <span>at {coordinatesText(p)}</span>
          {onPanTo && (
            <button
              type="button"
              className={smallButton}
              onClick={() => onPanTo({ lat: p.lat, lon: p.lon, accuracy: p.accuracy })}
            >
              Show on map
            </button>
          )}
        </p>
      );
    }
  }
}

const TimelineRow = memo(function TimelineRow({
  item,
  fresh,
  onOpenDocument,
  onPanTo,
}: {
  item: TimelineItem;
  fresh: boolean;
  onOpenDocument: (index: number) => void;
  onPanTo: ((p: Position) => void) | undefined;
}) {
  const badge = KIND_BADGE[item.kind];
  return (
    <article
      data-key={item.key}
      data-new={fresh || undefined}
      className={`border-b border-panel-line px-3 py-2 text-sm ${
        fresh ? 'border-l-4 border-l-amber-400 bg-amber-50' : 'bg-panel'
      }`}
    >
      <div className="flex flex-wrap items-center gap-x-2 text-xs">
        <span className={`rounded border px-1 font-semibold ${badge.className}`}>
          <span aria-hidden="true">{badge.glyph} </span>
          {badge.word}
        </span>
        <ItemTimeText time={item.time} instant={item.instant} />
        {fresh && <strong className="rounded bg-amber-200 px-1 text-amber-900">New</strong>}
      </div>
      <div className="mt-0.5">
        <ItemBody item={item} onOpenDocument={onOpenDocument} onPanTo={onPanTo} />
      </div>
    </article>
  );
});

/**
 * Everything that happened to a load as one list, newest first, filtered by kind and text. App and
 * system notices are hidden unless asked for. Virtualized: a long haul has tens of thousands of pings.
 */
export function Timeline({ items, fresh, onOpenDocument, onPanTo }: TimelineProps) {
  const [kinds, setKinds] = useState<ReadonlySet<TimelineKind>>(DEFAULT_KINDS);
  const [text, setText] = useState('');
  const [showNoise, setShowNoise] = useState(false);
  const deferredText = useDeferredValue(text);
  const scroller = useRef<HTMLDivElement>(null);
  const searchId = useId();
  const counts = useMemo(() => countByKind(items), [items]);
  const shown = useMemo(
    () => filterTimeline(items, { kinds, text: deferredText, showNoise }),
    [items, kinds, deferredText, showNoise],
  );

  // eslint-disable-next-line react-hooks/incompatible-library -- no React Compiler here; the virtualizer is used as documented
  const virtualizer = useVirtualizer({
    count: shown.length,
    getScrollElement: () => scroller.current,
    estimateSize: (i) => (shown[i]?.kind === 'ping' ? 56 : 72),
    overscan: 6,
    // A new function would make the virtualizer measure every item again on every render.
    getItemKey: useCallback((i: number) => shown[i]?.key ?? i, [shown]),
  });

  const toggleKind = (kind: TimelineKind, on: boolean) => {
    const next = new Set(kinds);
    if (on) next.add(kind);
    else next.delete(kind);
    setKinds(next);
  };

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <div className="space-y-2 border-b border-panel-line p-2 text-sm">
        <label htmlFor={searchId} className="sr-only">
          Search the timeline
        </label>
        <input
          id={searchId}
          type="search"
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder="Search status, comment, document, driver, place…"
          className="w-full rounded border border-panel-line px-2 py-1"
        />
        <fieldset className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <legend className="sr-only">Kinds of items shown</legend>
          {TIMELINE_KINDS.map(({ kind, label }) => (
            <label key={kind} className="flex items-center gap-1">
              <input
                type="checkbox"
                checked={kinds.has(kind)}
                onChange={(e) => toggleKind(kind, e.target.checked)}
              />
              {label} ({counts[kind]})
            </label>
          ))}
          <label className="flex items-center gap-1">
            <input type="checkbox" checked={showNoise} onChange={(e) => setShowNoise(e.target.checked)} />
            App and system notices ({showNoise ? `${counts.noise} shown` : `${counts.noise} hidden`})
          </label>
        </fieldset>
        <p className="text-xs text-ink-muted" aria-live="polite">
          {shown.length === items.length
            ? `${items.length} ${items.length === 1 ? 'item' : 'items'}`
            : `${shown.length} of ${items.length} items shown`}
          {!kinds.has('ping') &&
            counts.ping > 0 &&
            ` · ${counts.ping} ${counts.ping === 1 ? 'ping' : 'pings'} not shown`}
        </p>
      </div>
      <div
        ref={scroller}
        role="region"
        aria-label={`Timeline, newest first, ${shown.length} shown`}
        tabIndex={0}
        className="relative min-h-0 flex-1 overflow-auto focus:outline-2 focus:-outline-offset-2 focus:outline-status-selected"
      >
        {shown.length === 0 && (
          <p className="p-4 text-sm text-ink-muted">
            {items.length === 0 ? 'Nothing recorded for this load yet.' : 'Nothing matches these filters.'}
          </p>
        )}
        <ol style={{ height: virtualizer.getTotalSize() }} className="relative w-full">
          <VirtualItems
            virtualizer={virtualizer}
            items={shown}
            row={(item) => (
              <TimelineRow
                item={item}
                fresh={fresh.has(item.key)}

                onOpenDocument={onOpenDocument}
                onPanTo={onPanTo}
              />
            )}
          />
        </ol>
      </div>
    </div>
  );
}
