import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useMemo, useState, type ReactNode } from 'react';
import type { ClientConfig } from '@/contract/proxy-api';
import type { ParseIssue } from '@/contract/parse-issue';
import type { Load, LoadBy } from '@/domain/model';
import { withReadings } from '@/domain/merge';
import { DocumentViewer } from '../../components/document-viewer';
import { DISABLED_LOOK } from '../../components/disabled-look';
import { ErrorBanner } from '../../components/error-banner';
import { loadQueries } from '../../data/load-queries';
import { useReviews } from '../../data/review-queries';
import { perfMarkAfterPaint } from '../../lib/perf-marks';
import { CommentsThread } from './comments-section';
import { DocumentsGrid } from './documents-section';
import { LoadHeader, SkippedItems } from './load-header';
import { OutlookSection } from './outlook-section';
import { PingsList } from './pings-section';
import { SectionBoundary } from './section-boundary';
import { ShareLinkSection } from './share-link-section';
import { Temperatures, type ReadingsState } from './temperature-section';
import { Timeline } from './timeline';
import { documentsNewestFirst, excursionTimeline, mergeNewestFirst, trackTimeline } from './timeline-items';
import { useNewKeys } from './use-new-keys';
import { TimeZoneSwitch } from '../../components/time-zone-switch';
import { UpdatedAge } from '../../components/updated-age';
import { BY_NAME, loadKey, loadLabel, loadTitle } from '../../lib/load-ref';

export type PanTo = (p: { lat: number; lon: number; accuracy: number | null }) => void;

export interface LoadDetailPageProps {
  by: LoadBy;
  id: string;
  config: ClientConfig;
  /** Moves the map to a point (a ping, the place a comment was sent from). */
  onPanTo?: PanTo;
}

/** The sections the "Go to" links lead to: the timeline alone can hold thousands of tab stops. */
const SECTIONS = [
  ['load-timeline', 'Timeline'],
  ['load-temperatures', 'Temperatures'],
  ['load-documents', 'Documents'],
  ['load-comments', 'Comments'],
  ['load-pings', 'Pings'],
] as const;
type SectionId = (typeof SECTIONS)[number][0];

function Section({
  id,
  title,
  className,
  children,
}: {
  id: SectionId;
  title: string;
  className?: string;
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    // tabIndex -1: a "Go to" link moves the focus here, and Tab goes on from here.
    <section
      id={id}
      tabIndex={-1}
      aria-labelledby={headingId}
      className={`rounded border border-panel-line bg-panel p-3 focus:outline-2 focus:outline-status-selected ${className ?? ''}`}
    >
      <h3 id={headingId} className="mb-2 text-base font-semibold">
        {title}
      </h3>
      <SectionBoundary name={title}>{children}</SectionBoundary>
    </section>
  );
}

function PageShell({ title, children }: { title: ReactNode; children: ReactNode }) {
  return (
    <div className="h-full overflow-auto bg-panel-sunk">
      <div className="@container mx-auto max-w-screen-2xl space-y-3 p-4">
        <h2 className="text-xl font-semibold">{title}</h2>
        {children}
      </div>
    </div>
  );
}

/**
 * `/loads/:by/:id`: everything the upstream knows about one load, readable in seconds. Refreshes
 * every `refreshSeconds`; what arrives while one watches is briefly marked "New".
 */
export function LoadDetailPage({ by, id, config, onPanTo }: LoadDetailPageProps) {
  const query = useQuery(loadQueries.detail(by, id, config.refreshSeconds));
  // Placeholder data is another load's (the one shown before): never show it as this one.
  const data = query.isPlaceholderData ? undefined : query.data;
  // A reefer's readings come in an answer of their own, asked for once the track is in: read
  // alongside it, they would hold the panel back.
  const readingsQuery = useQuery({
    ...loadQueries.readings(id, config.refreshSeconds),
    enabled: by === 'external-id' && Boolean(data?.load),
  });
  const readingsData = readingsQuery.isPlaceholderData ? undefined : readingsQuery.data;
  const track = data?.load ?? null;
  const readingsOf = readingsData?.load ?? null;
  const load = useMemo(
    () => (track && readingsOf ? withReadings(track, readingsOf) : track),
    [track, readingsOf],
  );
  const readings: ReadingsState =
    by === 'load-number' ? 'not-sent' : readingsData ? 'ready' : readingsQuery.isError ? 'failed' : 'loading';
  const title = loadTitle(id);

  if (!data) {
    if (query.isError)
      return (
        <PageShell title={title}>
          <ErrorBanner error={query.error} onRetry={() => void query.refetch()} kept={false} />
          <p className="text-sm text-ink-muted">
            The load with {BY_NAME[by]} <strong>{id}</strong> could not be loaded. Haulview tries again by
            itself every {config.refreshSeconds} s.
          </p>
        </PageShell>
      );
    return (
      <PageShell title={title}>
        <p role="status" className="rounded border border-panel-line bg-panel p-4 text-ink-muted">
          Loading everything the tracking service knows about the load with {BY_NAME[by]}{' '}
          <strong>{id}</strong>…
        </p>
      </PageShell>
    );
  }

  if (!load && data.pending)
    return (
      <PageShell title={title}>
        {query.isError && (
          <ErrorBanner error={query.error} onRetry={() => void query.refetch()} kept={false} />
        )}
        <p role="status" className="rounded border border-panel-line bg-panel p-4 text-ink-muted">
          Waiting for the first answer from the tracking service about the load with {BY_NAME[by]}{' '}
          <strong>{id}</strong>: Haulview asked for it, and shows it here as soon as it comes.
        </p>
      </PageShell>
    );

  if (!load)
    return (
      <PageShell title={title}>
        {query.isError && <ErrorBanner error={query.error} onRetry={() => void query.refetch()} />}
        <NotFound by={by} id={id} missing={data.missing} unreadable={data.unreadable} />
      </PageShell>
    );

  return (
    <LoadDetail
      load={load}
      readings={readings}
      scope={loadKey({ by, id })}
      config={config}
      onPanTo={onPanTo}
      error={query.isError ? query.error : null}
      onRetry={() => {
        void query.refetch();
        if (by === 'external-id') void readingsQuery.refetch();
      }}
      updatedAt={query.dataUpdatedAt}
      fetching={query.isFetching || readingsQuery.isFetching}
    />
  );
}

function NotFound({
  by,
  id,
  missing,
  unreadable,
}: {
  by: LoadBy;
  id: string;
  missing: boolean;
  unreadable: ParseIssue[];
}) {
  return (
    <div role="status" className="space-y-2 rounded border border-panel-line bg-panel p-4">
      {missing || unreadable.length === 0 ? (
        <>
          <p>
            The tracking service does not know a load with {BY_NAME[by]} <strong>{id}</strong>.
          </p>
          <p className="text-sm text-ink-muted">
            Check the {BY_NAME[by]} for typing mistakes
            {by === 'external-id'
              ? ', or look the load up by its load number.'
              : ', or look the load up by its external id.'}
          </p>
        </>
      ) : (
        <>
          <p>
            The tracking service sent the load with {BY_NAME[by]} <strong>{id}</strong>, but Haulview could
            not read it.
          </p>
          <SkippedItems issues={unreadable} />
        </>
      )}
    </div>
  );
}

interface LoadDetailProps {
  load: Load;
  readings: ReadingsState;
  scope: string;
  config: ClientConfig;
  onPanTo: PanTo | undefined;
  error: unknown;
  onRetry: () => void;
  updatedAt: number;
  fetching: boolean;
}

function LoadDetail({
  load,
  readings,
  scope,
  config,
  onPanTo,
  error,
  onRetry,
  updatedAt,
  fetching,
}: LoadDetailProps) {
  const [viewerIndex, setViewerIndex] = useState<number | null>(null);
  const documents = useMemo(() => documentsNewestFirst(load.documents), [load.documents]);
  // The team's reviews, by document address (the inbox shares the query): asked only when there are documents.
  const reviews = useReviews(config, documents.length > 0);
  const { events, comments, pings, readings: list } = load;
  // The track's items and the readings' excursions apart: the readings come in later, and the
  // 25,000 items of the track are not built and sorted again for them.
  const trackItems = useMemo(
    () => trackTimeline({ events, comments, pings }, documents, config.noiseRules),
    [events, comments, pings, documents, config.noiseRules],
  );
  const thresholds = useMemo(
    () => ({ staleAfterMinutes: config.staleAfterMinutes, silentAfterMinutes: config.silentAfterMinutes }),
    [config.staleAfterMinutes, config.silentAfterMinutes],
  );
  const excursionItems = useMemo(
    () => excursionTimeline(list, config.excursionTolerance),
    [list, config.excursionTolerance],
  );
  const items = useMemo(() => mergeNewestFirst(trackItems, excursionItems), [trackItems, excursionItems]);
  const keys = useMemo(() => items.map((i) => i.key), [items]);
  // The readings' first answer completes the load rather than bringing news: a scope of its own, so
  // the excursions it adds are not marked "New".
  const fresh = useNewKeys(keys, readings === 'ready' ? `${scope}+readings` : scope);
  const openDocument = useCallback((index: number) => setViewerIndex(index), []);
  const closeViewer = useCallback(() => setViewerIndex(null), []);
  // For `npm run bench`: the detail of this version of the load is on screen.
  useEffect(
    () =>
      perfMarkAfterPaint('detail-rendered', {
        pings: load.pings.length,
        events: load.events.length,
        documents: load.documents.length,
        readings: load.readings.length,
      }),
    [load],
  );
  const name = loadTitle(loadLabel(load));

  return (
    <PageShell title={name}>
      {error !== null && <ErrorBanner error={error} onRetry={onRetry} />}
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <UpdatedAge updatedAt={updatedAt} fetching={fetching} refreshSeconds={config.refreshSeconds} />
        <button
          type="button"
          onClick={onRetry}
          disabled={fetching}
          className={`rounded border border-panel-line bg-panel px-2 py-0.5 hover:bg-panel-sunk ${DISABLED_LOOK}`}
        >
          Refresh now
        </button>
        <TimeZoneSwitch className="ml-auto" />
      </div>
      <nav aria-label="Go to" className="flex flex-wrap gap-x-3 text-sm">
        <span className="text-ink-muted">Go to:</span>
        {SECTIONS.map(([id, label]) => (
          <a key={id} href={`#${id}`} className="text-status-selected underline">
            {label}
          </a>
        ))}
      </nav>
      <section aria-label="Summary" className="rounded border border-panel-line bg-panel p-3">
        <SectionBoundary name="Summary">
          <LoadHeader load={load} excursionTolerance={config.excursionTolerance} thresholds={thresholds} />
        </SectionBoundary>
      </section>
      <OutlookSection load={load} thresholds={thresholds} excursionTolerance={config.excursionTolerance} />
      <ShareLinkSection by={load.by} id={load.id} />
      {/* Side by side only when the panel itself is wide (it shares the screen with the map): in a
          narrower one the chart had room for a single time tick. */}
      <div className="grid gap-3 @4xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <Section id="load-timeline" title="Timeline" className="flex h-[48rem] flex-col">
          <Timeline
            items={items}
            fresh={fresh}

            onOpenDocument={openDocument}
            onPanTo={onPanTo}
          />
        </Section>
        <div className="min-w-0 space-y-3">
          <Section id="load-temperatures" title="Temperatures">
            <Temperatures load={load} readings={readings} excursionTolerance={config.excursionTolerance} />
          </Section>
          <Section id="load-documents" title={`Documents (${documents.length})`}>
            <DocumentsGrid
              documents={documents}
              fresh={fresh}
              onOpen={openDocument}
              reviews={reviews.error ? undefined : reviews.byUrl}
            />
          </Section>
          <Section id="load-comments" title={`Comments (${load.comments.length})`}>
            <CommentsThread comments={load.comments} fresh={fresh} onPanTo={onPanTo} />
          </Section>
          <Section id="load-pings" title={`Pings (${load.pings.length})`}>
            <PingsList pings={load.pings} fresh={fresh} onPanTo={onPanTo} />
          </Section>
        </div>
      </div>
      {viewerIndex !== null && documents.length > 0 && (
        <DocumentViewer
          documents={documents}
          index={viewerIndex}
          onIndexChange={setViewerIndex}
          onClose={closeViewer}
        />
      )}
    </PageShell>
  );
}
