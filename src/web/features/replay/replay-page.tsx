import { useQueries } from '@tanstack/react-query';
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'wouter';
import type { ClientConfig } from '@/contract/proxy-api';
import { DEFAULT_STOP_RADIUS_METERS, hasEarlierTrip, tripSpans, tripStart } from '@/domain/geofence';
import type { Load } from '@/domain/model';
import { durationText, stopName, stopTime } from '@/domain/outlook-text';
import { TemperatureChart } from '../../components/temperature-chart';
import { loadQueries } from '../../data/load-queries';
import { tripStopsQueries } from '../../data/trip-stops-queries';
import type { TripStop } from '@/contract/trip-stops';
import { loadKey, loadLabel, loadPageHref, type LoadRef } from '../../lib/load-ref';
import { parseReplayLoads } from '../../lib/replay-link';
import { useSameList } from '../../lib/same-list';
import { temperatureSeries } from '../../lib/temperature-series';
import { viewerTime, viewerZoneName } from '../../lib/time-format';
import { useThrottledTimeSelect, type TimeSource } from '../../lib/time-store';
import { useUrlParam } from '../../lib/url-state';
import { MapShell } from '../../map/core/map-shell';
import { FittedView } from '../../map/controls/fitted-view';
import type { LatLon } from '../../map/controls/map-view';
import {
  ReplayPlacesLayer,
  type ReplaySentPlace,
  type ReplayStopPlace,
} from '../../map/layers/replay-places-layer';
import { ReplayTrailsLayer, type ReplayHead, type ReplayTrail } from '../../map/layers/replay-trails-layer';
import { ReplayControls } from './replay-controls';
import {
  countUntil,
  nextSpeed,
  parseReplayTime,
  parseSpeed,
  positionAt,
  replaySpan,
  sentItemsOf,
  stepMs,
  stopAt,
  trackCorners,
  trackOf,
  type ReplayTrack,
  type SentItem,
} from './replay-state';
import { useReplayClock } from './use-replay-clock';

/** One colour per replayed load, told apart on the map and in the list. */
const COLORS = [
  '#1d4ed8',
  '#b91c1c',
  '#15803d',
  '#7c3aed',
  '#c2410c',
  '#0e7490',
  '#be185d',
  '#4d7c0f',
  '#a16207',
  '#334155',
];

/** The URL's time is written once the replay rests, not in every frame of a drag or of play. */
const WRITE_AFTER_MS = 400;

interface Replayed {
  ref: LoadRef;
  key: string;
  color: string;
  load: Load;
  track: ReplayTrack;
  /**
   * When the load's current trip began (-Infinity: its whole track is one trip): its outlook's stops
   * are that trip's. A load dispatched again under the same ids has earlier trips, whose stops are
   * known when the server kept them while each was current (`earlier`).
   */
  tripFrom: number;
  earlier: EarlierTrip[];
}

/** When the load's current trip began, when a trip came before it; else -Infinity: one trip. */
const currentTripFrom = (events: Load['events']): number =>
  hasEarlierTrip(events) ? (tripStart(events) as number) : -Infinity;

/** An earlier trip of a load, from its start to the next one's, with its kept stops. */
interface EarlierTrip {
  from: number;
  to: number;
  stops: TripStop[];
  radiusMeters: number | undefined;
}

const NO_EARLIER: EarlierTrip[] = [];

/** The load's earlier trips whose stops were kept, matched with its trips by their start. */
function earlierTrips(
  load: Load,
  kept: readonly { from?: number; stops: TripStop[]; radiusMeters?: number }[],
) {
  const spans = tripSpans(load.events).slice(0, -1);
  if (spans.length === 0 || kept.length === 0) return NO_EARLIER;
  return spans.flatMap((span): EarlierTrip[] => {
    const trip = kept.find((k) => (k.from ?? -Infinity) === span.from);
    return trip ? [{ ...span, stops: trip.stops, radiusMeters: trip.radiusMeters }] : [];
  });
}

/** `/replay?loads=e:1,e:2&t=…&speed=60`: several loads on one time slider, the map and charts in step. */
export function ReplayPage({ config }: { config: ClientConfig }) {
  const [loadsText] = useUrlParam('loads');
  const [timeText, setTimeText] = useUrlParam('t');
  const [speedText, setSpeedText] = useUrlParam('speed');
  const refs = useMemo(() => parseReplayLoads(loadsText), [loadsText]);
  const speed = parseSpeed(speedText);
  // Read once: later the page writes it.
  const [start] = useState(() => parseReplayTime(timeText));

  const details = useQueries({
    queries: refs.map((r) => loadQueries.detail(r.by, r.id, config.refreshSeconds)),
  });
  const loads = useSameList(details.map((d) => d.data?.load ?? null));
  // Earlier trips' stops, asked for only of loads dispatched again under the same ids.
  const kept = useQueries({
    queries: refs.map((r, i) => {
      const load = loads[i];
      const from = load ? tripStart(load.events) : undefined;
      const hasEarlier = load !== null && load !== undefined && currentTripFrom(load.events) !== -Infinity;
      return { ...tripStopsQueries.of(r.by, r.id, from ?? -1), enabled: hasEarlier };
    }),
  });
  const keptTrips = useSameList(kept.map((q) => q.data?.trips ?? null));
  const pending = details.some((d) => d.isPending);
  const failed = details.filter((d) => d.isError).length;
  // Not pulled yet (tracks in the store): their data is to come, and each query keeps polling for it.
  const waiting = details.filter((d) => !d.data?.load && d.data?.pending).length;

  const replayed = useMemo(() => {
    const out: Replayed[] = [];
    loads.forEach((load, i) => {
      const ref = refs[i];
      if (!load || !ref) return;
      const key = loadKey(ref);
      out.push({
        ref,
        key,
        color: COLORS[i % COLORS.length] as string,
        load,
        track: trackOf(key, load),
        tripFrom: currentTripFrom(load.events),
        earlier: earlierTrips(load, keptTrips[i] ?? []),
      });
    });
    return out;
  }, [loads, refs, keptTrips]);
  const span = useMemo(() => replaySpan(replayed.map((r) => r.load)), [replayed]);
  // Without a time in the link, the replay opens at the first ping: before it the map is empty.
  const firstPing = useMemo(() => {
    const firsts = replayed.flatMap((r) => (r.track.times.length > 0 ? [r.track.times[0] as number] : []));
    return firsts.length > 0 ? Math.min(...firsts) : undefined;
  }, [replayed]);
  const clock = useReplayClockWithUrl(span, start ?? firstPing, speed, setTimeText);

  if (refs.length === 0)
    return (
      <p className="p-4">
        A replay needs loads: open it from the board or a load&apos;s page.{' '}
        <Link href="/" className="text-status-selected underline">
          Back to the map
        </Link>
      </p>
    );
  if (pending && replayed.length === 0)
    return <p className="p-4 text-ink-muted">Loading the loads&apos; tracks…</p>;
  if (waiting > 0 && replayed.length === 0)
    return (
      <p role="status" className="p-4 text-ink-muted">
        Waiting for the first answer from the tracking service about{' '}
        {waiting === 1 ? 'this load' : 'these loads'}: Haulview asked for {waiting === 1 ? 'it' : 'them'}, and
        replays {waiting === 1 ? 'it' : 'them'} here as soon as the answer comes.
      </p>
    );
  if (!span || clock.time.get() === undefined)
    return (
      <p className="p-4">
        {failed > 0 ? 'The loads could not be read.' : 'These loads have nothing timed to replay yet.'}{' '}
        <Link href="/" className="text-status-selected underline">
          Back to the map
        </Link>
      </p>
    );
  return (
    <ReplayView
      replayed={replayed}
      settled={!pending}
      missing={refs.flatMap((r, i) => {
        const d = details[i];
        // Read, still loading, or still to come from the service: not left out.
        return loads[i] || !d || d.isPending || (!d.data?.load && d.data?.pending) ? [] : [r.id];
      })}
      waiting={waiting}
      span={span}
      time={clock.time}
      playing={clock.playing}
      speed={speed}
      seek={clock.seek}
      nudge={clock.nudge}
      toggle={clock.toggle}
      setSpeed={(s) => setSpeedText(String(s))}
      config={config}
    />
  );
}

/** The clock, with its resting time written to the URL: a link copied then opens at the same instant. */
function useReplayClockWithUrl(
  span: { from: number; to: number } | undefined,
  start: number | undefined,
  speed: number,
  setTimeText: (v: string | null) => void,
) {
  const clock = useReplayClock(span, start, speed);
  const { time, playing } = clock;
  useEffect(() => {
    if (playing) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const later = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        const t = time.get();
        if (t !== undefined) setTimeText(new Date(t).toISOString());
      }, WRITE_AFTER_MS);
    };
    later();
    const unsubscribe = time.subscribe(later);
    return () => {
      unsubscribe();
      clearTimeout(timer);
    };
  }, [time, playing, setTimeText]);
  return clock;
}

function ReplayView({
  replayed,
  settled,
  missing,
  waiting,
  span,
  time,
  playing,
  speed,
  seek,
  nudge,
  toggle,
  setSpeed,
  config,
}: {
  replayed: Replayed[];
  /** Every load asked for is read (or failed): the map is fitted only then. */
  settled: boolean;
  /** The ids of the loads asked for that could not be read (unknown, or their answer failed). */
  missing: readonly string[];
  /** Loads whose first data has not come yet: they join the replay when it does. */
  waiting: number;
  span: { from: number; to: number };
  time: TimeSource;
  playing: boolean;
  speed: number;
  seek: (t: number) => void;
  nudge: (delta: number) => void;
  toggle: () => void;
  setSpeed: (s: number) => void;
  config: ClientConfig;
}) {
  const step = useCallback((direction: 1 | -1) => nudge(direction * stepMs(speed)), [nudge, speed]);
  // The keys work wherever the focus is on the page, but not while typing, nor on the map, whose
  // arrows pan it.
  const keys = useRef({ toggle, step, speed, setSpeed });
  useLayoutEffect(() => {
    keys.current = { toggle, step, speed, setSpeed };
  }, [toggle, step, speed, setSpeed]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented) return;
      const el = e.target instanceof HTMLElement ? e.target : null;
      const range = el instanceof HTMLInputElement && el.type === 'range';
      if (!range && el?.closest('input, textarea, select, [contenteditable], .leaflet-container')) return;
      const k = keys.current;
      if (e.key === ' ') {
        // A focused button or link acts on its own space.
        if (el?.closest('button, a')) return;
        e.preventDefault();
        k.toggle();
      } else if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
        e.preventDefault();
        k.step(e.key === 'ArrowLeft' ? -1 : 1);
      } else if (e.key === '+' || e.key === '=') {
        e.preventDefault();
        k.setSpeed(nextSpeed(k.speed, 1));
      } else if (e.key === '-' || e.key === '_') {
        e.preventDefault();
        k.setSpeed(nextSpeed(k.speed, -1));
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  const trails = useMemo<ReplayTrail[]>(
    () =>
      replayed.map((r) => ({
        key: r.key,
        color: r.color,
        times: r.track.times,
        lats: r.track.lats,
        lons: r.track.lons,
      })),
    [replayed],
  );
  const headsAt = useCallback(
    (t: number): (ReplayHead | undefined)[] => replayed.map((r) => positionAt(r.track, t)),
    [replayed],
  );
  // The box of every load's whole track, whatever the time: the view depends on the link alone.
  const fitTo = useMemo<LatLon[] | null>(
    () => (settled ? replayed.flatMap((r) => trackCorners(r.track)) : null),
    [replayed, settled],
  );
  const stopPlaces = useMemo<ReplayStopPlace[]>(
    () =>
      replayed.flatMap((r) =>
        [
          ...r.earlier,
          {
            from: r.tripFrom,
            to: Infinity,
            stops: r.load.outlook?.stops ?? [],
            radiusMeters: r.load.outlook?.radiusMeters,
          },
        ].flatMap((trip) =>
          trip.stops.flatMap((s) =>
            s.lat === undefined || s.lon === undefined
              ? []
              : [
                  {
                    key: `${r.key} ${trip.from} ${s.order}`,
                    lat: s.lat,
                    lon: s.lon,
                    fenceMeters: trip.radiusMeters ?? DEFAULT_STOP_RADIUS_METERS,
                    from: trip.from,
                    to: trip.to,
                    label: `${loadLabel(r.ref)}: ${stopName(s)}`,
                    arrivedAt: s.arrivedAt,
                    departedAt: s.departedAt,
                  },
                ],
          ),
        ),
      ),
    [replayed],
  );
  const sent = useMemo(
    () =>
      replayed
        .flatMap((r) =>
          sentItemsOf(r.key, r.load).map((s) => ({ ...s, text: `${loadLabel(r.ref)}: ${s.text}` })),
        )
        .sort((a, b) => a.instant - b.instant),
    [replayed],
  );
  const sentPlaces = useMemo<ReplaySentPlace[]>(
    () =>
      sent.flatMap((s) =>
        s.lat === undefined || s.lon === undefined
          ? []
          : [
              {
                key: s.key,
                lat: s.lat,
                lon: s.lon,
                instant: s.instant,
                kind: s.kind,
                label: `${s.kind}: ${s.text}`,
              },
            ],
      ),
    [sent],
  );

  return (
    <div className="grid h-full grid-rows-[auto_minmax(16rem,45vh)_minmax(0,1fr)] md:grid-cols-[minmax(0,3fr)_minmax(20rem,2fr)] md:grid-rows-[auto_minmax(0,1fr)]">
      <div className="md:col-span-2">
        <nav className="flex flex-wrap gap-x-4 border-b border-panel-line bg-panel px-4 py-1 text-sm">
          <Link href="/" className="text-status-selected underline">
            ← Back to the map
          </Link>
          <h2 className="font-semibold">
            Replay of {replayed.length} load{replayed.length === 1 ? '' : 's'}
          </h2>
          {missing.length > 0 && (
            <span className="text-status-silent">
              {missing.length === 1
                ? `Load ${missing[0]} could not be read and is left out.`
                : `${missing.length} loads could not be read and are left out: ${missing.join(', ')}.`}
            </span>
          )}
          {waiting > 0 && (
            <span role="status" className="text-ink-muted">
              Waiting for the first answer from the tracking service about {waiting} of the loads:{' '}
              {waiting === 1 ? 'it joins' : 'they join'} the replay as soon as it comes.
            </span>
          )}
        </nav>
        <ReplayControls
          span={span}
          time={time}
          playing={playing}
          speed={speed}
          onSeek={seek}
          onToggle={toggle}
          onStep={step}
          onSpeed={setSpeed}
        />
      </div>
      <div className="relative isolate min-h-0" role="region" aria-label="Map of the replayed loads">
        <MapShell tileUrl={config.tileUrl} tileAttribution={config.tileAttribution}>
          <FittedView fitTo={fitTo} urlParam="map" />
          <ReplayPlacesLayer stops={stopPlaces} sent={sentPlaces} time={time} />
          <ReplayTrailsLayer trails={trails} headsAt={headsAt} time={time} />
        </MapShell>
      </div>
      <div className="min-h-0 overflow-y-auto border-panel-line p-3 md:border-l">
        <ReplayLists replayed={replayed} sent={sent} time={time} />
        <ReplayCharts replayed={replayed} time={time} onPick={seek} config={config} />
      </div>
    </div>
  );
}

/** The time to the minute, for what is written in words. */
const toMinute = (t: number | undefined): number => Math.floor((t ?? 0) / 60_000) * 60_000;

/** How often the lists in words follow a moving time: at 600× a minute passes every 6 frames. */
const LISTS_EVERY_MS = 500;

/**
 * The lists in words, the one part of the page React renders as the time moves: by the minute and
 * at most twice a second, in a task of their own, so a frame of play or of a drag renders nothing.
 */
function ReplayLists({ replayed, sent, time }: { replayed: Replayed[]; sent: SentItem[]; time: TimeSource }) {
  const minute = useThrottledTimeSelect(time, toMinute, LISTS_EVERY_MS);
  return (
    <>
      <LoadsAtTime replayed={replayed} time={minute} />
      <SentSoFar sent={sent} time={minute} />
    </>
  );
}

/** Made once: `toLocaleString` builds a new formatter at each call. */
const COUNT = new Intl.NumberFormat('en-US');

/** A load's colour and link: the same at every time, so not rendered again as the time moves. */
const LoadHeading = memo(function LoadHeading({ r }: { r: Replayed }) {
  return (
    <p className="font-semibold">
      <span aria-hidden className="mr-1 inline-block h-3 w-3 rounded-full" style={{ background: r.color }} />
      <Link href={loadPageHref(r.ref)} className="underline">
        {loadLabel(r.ref)}
      </Link>
    </p>
  );
});

/** Each load at the time: where it is against its pings, and its stops in their own zones. */
const LoadsAtTime = memo(function LoadsAtTime({ replayed, time }: { replayed: Replayed[]; time: number }) {
  return (
    <section aria-label="Loads at this time" className="mb-3">
      <ul className="flex flex-col gap-2">
        {replayed.map((r) => {
          const at = positionAt(r.track, time);
          const scale = r.load.outlook?.clockScale ?? 1;
          // Before the current trip: the stops of the trip under way then, when they were kept.
          const earlier =
            time < r.tripFrom ? r.earlier.find((t) => time >= t.from && time < t.to) : undefined;
          const stops = time < r.tripFrom ? earlier?.stops : r.load.outlook?.stops;
          return (
            <li key={r.key} className="rounded border border-panel-line p-2 text-sm" data-replay-load={r.key}>
              <LoadHeading r={r} />
              <p className="text-ink-muted">
                {at === undefined
                  ? 'No ping yet'
                  : at.state === 'gap'
                    ? `No ping since ${viewerTime(at.since)}`
                    : `${COUNT.format(at.pings)} of ${COUNT.format(r.track.times.length)} pings${at.state === 'last' ? ' (its last)' : ''}`}
              </p>
              {time < r.tripFrom && (
                <p className="mt-1 text-ink-muted" data-earlier-trip>
                  {earlier
                    ? `An earlier trip under the same ids: its stops as they were kept (the trip under way now began ${viewerTime(r.tripFrom)}).`
                    : `An earlier trip under the same ids: its stops were not kept (the service sends the stops of the trip under way, from ${viewerTime(r.tripFrom)}).`}
                </p>
              )}
              {stops && stops.length > 0 && (
                <ul className="mt-1 flex flex-col gap-0.5">
                  {stops.map((s) => {
                    const st = stopAt(s, time, scale);
                    return (
                      <li key={s.order} data-stop-progress={st.progress}>
                        {stopName(s)}: {stopTime(time, s.appointment?.offsetHours)} there ·{' '}
                        {st.progress === 'upcoming'
                          ? 'not reached'
                          : `${st.progress === 'arrived' ? 'inside' : 'left after'} ${durationText(st.insideMinutes ?? 0)}${st.detentionMinutes ? `, detention ${durationText(st.detentionMinutes)}` : ''}`}
                      </li>
                    );
                  })}
                </ul>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
});

/** The latest documents and comments the list beside the replay shows: it follows the time as it plays. */
const SENT_SHOWN = 8;

/** Documents and comments sent by the time, newest first: the latest few, and how many in all. */
const SentSoFar = memo(function SentSoFar({ sent, time }: { sent: SentItem[]; time: number }) {
  const instants = useMemo(() => sent.map((s) => s.instant), [sent]);
  const n = countUntil(instants, time);
  const shown = sent.slice(Math.max(0, n - SENT_SHOWN), n).reverse();
  return (
    <section aria-label="Sent so far" className="mb-3 text-sm">
      <h3 className="font-semibold">
        Sent so far ({n}
        {n > shown.length && `, the latest ${shown.length} shown`})
      </h3>
      {shown.length === 0 ? (
        <p className="text-ink-muted">No document or comment yet.</p>
      ) : (
        <ul>
          {shown.map((s) => (
            <li key={s.key}>
              {viewerTime(s.instant)}: {s.text} ({s.kind})
            </li>
          ))}
        </ul>
      )}
    </section>
  );
});

/** A reefer chart per load that has readings, each with a line at the replay's time. */
const ReplayCharts = memo(function ReplayCharts({
  replayed,
  time,
  onPick,
  config,
}: {
  replayed: Replayed[];
  time: TimeSource;
  onPick: (t: number) => void;
  config: ClientConfig;
}) {
  const readings = useQueries({
    queries: replayed.map((r) => ({
      ...loadQueries.readings(r.ref.id, config.refreshSeconds),
      enabled: r.ref.by === 'external-id' && r.load.latestTemperature !== undefined,
    })),
  });
  const series = useSameList(readings.map((q) => q.data?.load?.readings ?? null));
  const charts = useMemo(
    () =>
      series.flatMap((list, i) =>
        list && list.length > 0
          ? [{ r: replayed[i] as Replayed, series: temperatureSeries(list, config.excursionTolerance) }]
          : [],
      ),
    [series, replayed, config.excursionTolerance],
  );
  const axis = useMemo(
    () => ({ zone: { kind: 'mine' } as const, label: `Your time (${viewerZoneName()})` }),
    [],
  );
  if (charts.length === 0) return null;
  return (
    <section aria-label="Reefer temperatures" className="flex flex-col gap-2">
      {charts.map(({ r, series: s }) => (
        <div key={r.key}>
          <h3 className="text-sm font-semibold">Temperatures of {loadLabel(r.ref)}</h3>
          <TemperatureChart
            series={s}
            label={`Supply, return and set temperatures of ${loadLabel(r.ref)}; press or drag to move the replay`}
            axis={axis}
            cursor={time}
            onPick={onPick}
          />
        </div>
      ))}
    </section>
  );
});
