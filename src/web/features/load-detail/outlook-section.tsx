import { useId } from 'react';
import type { Load, StopOutlook } from '@/domain/model';
import { attention } from '@/domain/attention';
import {
  darkReasonWords,
  durationText,
  etaText,
  latenessText,
  STOP_STATUS_TEXT,
  stopName,
  stopStatusAt,
  stopTime,
} from '@/domain/outlook-text';
import { formatAge, loadStaleness, type StalenessThresholds } from '@/domain/staleness';
import { formatAccuracy, telHref } from '../../lib/format';
import { useNow } from '../../lib/use-now';
import { darkAtStop, type DarkAtStop, dwellText, stopDwell } from '@/domain/dwell';
import { openDwellText } from '@/domain/open-dwell-text';
import { DetentionCsvButton } from './detention-csv-button';
import { STALENESS_CLASS, STALENESS_TEXT } from '../../components/staleness-text';
import { STOP_STATUS_CLASS } from '../../components/outlook-text';

/**
 * A load's outlook as the proxy reckoned it (issue 36): when its phone is dark, why, the evidence,
 * what to do and where it was last; and each stop against its appointment, with the ETA's inputs.
 */
export function OutlookSection({
  load,
  thresholds,
  excursionTolerance,
}: {
  load: Load;
  thresholds: StalenessThresholds;
  excursionTolerance: number;
}) {
  const now = useNow(15_000);
  const headingId = useId();
  const outlook = load.outlook;
  const level = loadStaleness(load, now, thresholds);
  const { finished } = attention(load, now, thresholds, excursionTolerance);
  const dark = !finished && outlook?.dark && level !== 'fresh' ? outlook.dark : undefined;
  return (
    <section
      aria-labelledby={headingId}
      className="space-y-3 rounded border border-panel-line bg-panel p-3 text-sm"
      data-outlook=""
    >
      <h3 id={headingId} className="text-base font-semibold">
        Stops, ETA and why it is dark
      </h3>
      {!outlook && !load.latestLocation && !load.latestStatus ? (
        <p className="text-ink-muted">
          Not started: no status and no ping yet, so no ETA and nothing dark to explain. ETAs come with its
          first ping.
        </p>
      ) : !outlook || (!dark && outlook.stops.length === 0) ? (
        <p className="text-ink-muted">No stops known for this load, and its phone reports.</p>
      ) : (
        <>
          {dark && <DarkTriage load={load} level={level} now={now} />}
          {outlook.stops.length > 0 ? (
            <>
              <ol className="space-y-2" aria-label="Stops">
                {outlook.stops.map((stop) => (
                  <StopLine
                    key={stop.order}
                    stop={stop}
                    now={now}
                    clockScale={outlook.clockScale}
                    dark={darkAtStop(outlook, stop, load.latestLocation?.instant, level !== 'fresh')}
                  />
                ))}
              </ol>
              <DetentionCsvButton load={load} thresholds={thresholds} />
            </>
          ) : (
            <p className="text-ink-muted">The service sent no stops for this load: no ETA.</p>
          )}
        </>
      )}
    </section>
  );
}

function DarkTriage({
  load,
  level,
  now,
}: {
  load: Load;
  level: ReturnType<typeof loadStaleness>;
  now: number;
}) {
  const outlook = load.outlook!;
  const words = darkReasonWords(outlook.dark!, outlook.stops);
  const at = load.latestLocation;
  const driver = at?.driver ?? load.latestStatus?.driver;
  const tel = driver?.phone ? telHref(driver.phone) : undefined;
  return (
    <div
      role="group"
      aria-label="Why it is dark"
      className="rounded border border-panel-line bg-panel-sunk p-2"
      data-dark-reason={outlook.dark!.reason}
    >
      <p>
        <strong className={STALENESS_CLASS[level]}>{STALENESS_TEXT[level]}</strong>
        {': '}
        <strong>{words.title}</strong>
        <span className="text-ink-muted"> · {words.evidence}</span>
      </p>
      <p>
        {words.action}
        {driver?.phone &&
          (tel ? (
            <>
              {': '}
              <a className="text-status-selected underline" href={tel}>
                call {driver.name ?? 'the driver'} at {driver.phone}
              </a>
            </>
          ) : (
            ` (${driver.phone})`
          ))}
      </p>
      <p className="text-ink-muted">
        Last known place:{' '}
        {at
          ? `${[at.place.city, at.place.state].filter(Boolean).join(', ') || 'place unknown'} (${at.lat.toFixed(4)}, ${at.lon.toFixed(4)}, ${formatAccuracy(at.accuracy)}), ${formatAge(now - at.instant)}`
          : 'none: it never reported a position'}
      </p>
    </div>
  );
}

const PROGRESS: Record<StopOutlook['progress'], string> = {
  upcoming: 'Ahead',
  arrived: 'Arrived',
  departed: 'Departed',
};

const BY = { event: 'status event', pings: 'pings' } as const;

/**
 * "Nov 28, 10:35 GMT-7", as the stop's other times; the service's own text where its offset, and so
 * its instant, is not known.
 */
const appointmentText = (a: NonNullable<StopOutlook['appointment']>): string =>
  a.offsetHours !== undefined && a.instant !== undefined
    ? stopTime(a.instant, a.offsetHours)
    : `${a.local} (offset from GMT unknown)`;

function StopLine({
  stop,
  now,
  clockScale,
  dark,
}: {
  stop: StopOutlook;
  now: number;
  clockScale?: number | undefined;
  dark: DarkAtStop | undefined;
}) {
  const { status, passed } = stopStatusAt(stop, now);
  const dwell = stopDwell(stop, now, clockScale, dark);
  const offset = stop.appointment?.offsetHours;
  const eta = etaText(stop, now);
  return (
    <li className="rounded border border-panel-line p-2" data-stop-order={stop.order}>
      <p>
        <strong>{stopName(stop)}</strong>
        {stop.zipcode && <span className="text-ink-muted"> {stop.zipcode}</span>}
      </p>
      <p>
        <span className={STOP_STATUS_CLASS[status]} data-stop-status={status}>
          {STOP_STATUS_TEXT[status]}
        </span>
        {passed && ': appointment passed, not arrived'}
        <span className="text-ink-muted">
          {' · '}
          {PROGRESS[stop.progress]}
          {stop.arrivedAt !== undefined &&
            `, arrived ${stopTime(stop.arrivedAt, offset)}${stop.arrivedBy ? ` (${BY[stop.arrivedBy]})` : ''}`}
          {stop.departedAt !== undefined &&
            `, left ${stopTime(stop.departedAt, offset)}${stop.departedBy ? ` (${BY[stop.departedBy]})` : ''}`}
          {stop.progress !== 'upcoming' &&
            stop.lateMinutes !== undefined &&
            ` (${latenessText(stop.lateMinutes)} against ${stop.appointment?.local.slice(11)})`}
          {stop.appointment
            ? ` · appointment ${appointmentText(stop.appointment)}`
            : status !== 'no-appointment' && ' · no appointment'}
        </span>
      </p>
      {dwell && (
        <p data-dwell="">
          <span className={dwell.detentionMinutes > 0 ? STOP_STATUS_CLASS.late : 'text-ink-muted'}>
            {dwell.running ? 'At the stop: ' : 'Dwell: '}
            {dwellText(dwell)}
          </span>
          <span className="text-ink-muted">
            {dwell.running && dwell.detentionMinutes > 0 && ` (inside ${durationText(dwell.insideMinutes)})`}
            {` · free time ${durationText(dwell.freeMinutes)}`}
          </span>
        </p>
      )}
      {dwell?.open && (
        <p className="text-ink-muted" data-dwell-open="">
          {openDwellText(dwell, offset)}
        </p>
      )}
      {stop.progress === 'upcoming' && (
        <p className="text-ink-muted" data-eta="">
          {eta ?? 'No ETA: no position to reckon from, or the stop has no point'}
        </p>
      )}
    </li>
  );
}
