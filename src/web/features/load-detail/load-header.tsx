import { useId, type ReactNode } from 'react';
import type { ParseIssue } from '@/contract/parse-issue';
import type { Driver, Load, TemperatureReading } from '@/domain/model';
import { attentionAt } from '@/domain/attention';
import { formatAge, staleness, type StalenessThresholds } from '@/domain/staleness';
import { formatAccuracy, telHref } from '../../lib/format';
import { useNow } from '../../lib/use-now';
import { ItemTimeText } from '../../components/item-time';
import { SectionBoundary } from './section-boundary';
import { skippedSummary, skippedTally, skippedText } from './skipped-text';
import { stopKindText, tripStops, type StopAppointment } from '../../lib/trip-stops';
import { formatTemperature, isExcursionReading } from '../../lib/temperature-series';
import { placeText } from './timeline-items';
import { STALENESS_CLASS, STALENESS_TEXT } from '../../components/staleness-text';

/** The latest reading the service sent: its `latestTemperature`, else the newest of its readings. */
export function latestReading(load: Load): TemperatureReading | undefined {
  const last = load.readings[load.readings.length - 1];
  const latest = load.latestTemperature;
  if (!latest) return last;
  if (!last) return latest;
  return last.instant > latest.instant ? last : latest;
}

/** Who drives: the latest item that names a driver. */
export function currentDriver(load: Load): Driver | undefined {
  return (
    load.latestLocation?.driver ??
    load.latestStatus?.driver ??
    load.pings.findLast((p) => p.driver)?.driver ??
    load.events.findLast((e) => e.driver)?.driver
  );
}

/** The most skipped items listed at once; the count says how many there are in all. */
const MAX_LISTED_ISSUES = 200;

function Field({ label, wide, children }: { label: string; wide?: boolean; children: ReactNode }) {
  return (
    <div className={wide ? 'col-span-2 min-w-0' : 'min-w-0'}>
      <dt className="text-xs tracking-wide text-ink-muted uppercase">{label}</dt>
      <dd className="break-words">{children}</dd>
    </div>
  );
}

const none = <span className="text-ink-muted">—</span>;

/** The service's last answer for the load was too large, not yet for long enough to be reported. */
function BehindNote({ issues }: { issues: readonly ParseIssue[] }) {
  if (!issues.some((i) => i.kind === 'too_large' && !i.skipped)) return null;
  return (
    <p role="status" className="mb-1 text-sm text-status-stale">
      Behind: the tracking service’s last answer for this load was too large to read. It is shown as last
      read, and asked for again at the next refresh.
    </p>
  );
}

export function SkippedItems({ issues }: { issues: readonly ParseIssue[] }) {
  const { notes, items, fields } = skippedTally(issues);
  if (notes.length === 0)
    return <p className="text-sm text-ink-muted">Every item the service sent was readable.</p>;
  return (
    <details className="text-sm">
      <summary className="cursor-pointer text-status-stale">{skippedSummary(items, fields)}</summary>
      <ul
        aria-label="Skipped items"
        className="mt-1 max-h-60 space-y-1 overflow-auto rounded bg-panel-sunk p-2"
      >
        {notes.slice(0, MAX_LISTED_ISSUES).map((issue, i) => (
          <li key={`${issue.path}|${i}`} className="break-words">
            {skippedText(issue)} {/* What the service sent, for whoever takes it up with the service. */}
            <span className="text-xs text-ink-muted">
              (<code>{issue.path}</code>: {issue.message})
            </span>
          </li>
        ))}
        {notes.length > MAX_LISTED_ISSUES && (
          <li className="text-ink-muted">and {notes.length - MAX_LISTED_ISSUES} more</li>
        )}
      </ul>
    </details>
  );
}

function Appointment({ appointment }: { appointment: StopAppointment }) {
  return (
    <span>
      appointment{' '}
      {'time' in appointment ? (
        <ItemTimeText time={appointment.time} instant={appointment.instant} />
      ) : appointment.wallTime ? (
        <span>{appointment.text} (the stop’s zone not sent: not judged)</span>
      ) : (
        <span>“{appointment.text}” as sent, not a time Haulview reads: no appointment judged</span>
      )}
    </span>
  );
}

/**
 * The load's stops as a trip, one line each: "Pickup · Acme DC, Omaha, NE · appointment …", with
 * whatever else the service sends for a stop behind its "details".
 */
function Trip({ load }: { load: Load }) {
  const headingId = useId();
  const stops = tripStops(load);
  if (stops === null) return null;
  return (
    <section aria-labelledby={headingId} className="mt-3">
      <h3 id={headingId} className="text-sm font-semibold">
        Stops ({stops.length})
      </h3>
      {stops.length === 0 ? (
        <p className="text-sm text-ink-muted">The service lists no readable stops.</p>
      ) : (
        <ol className="mt-1 space-y-1 text-sm">
          {stops.map((stop, i) => {
            const where = [stop.name, placeText(stop.place)].filter(Boolean).join(', ');
            return (
              <li key={i} className="rounded border border-panel-line bg-panel-sunk px-2 py-1">
                <p className="flex flex-wrap gap-x-1">
                  <strong>{stopKindText(stop, i)}</strong>
                  <span aria-hidden="true">·</span>
                  <span>{where || <span className="text-ink-muted">place not given</span>}</span>
                  {stop.appointment && (
                    <>
                      <span aria-hidden="true">·</span>
                      <Appointment appointment={stop.appointment} />
                    </>
                  )}
                </p>
                {stop.details.length > 0 && (
                  <details className="text-xs">
                    <summary className="cursor-pointer text-ink-muted">details</summary>
                    <dl className="grid grid-cols-[auto_1fr] gap-x-2">
                      {stop.details.map(([label, value], j) => (
                        <div key={j} className="contents">
                          <dt className="text-ink-muted">{label}</dt>
                          <dd className="break-words">{value}</dd>
                        </div>
                      ))}
                    </dl>
                  </details>
                )}
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}

export interface LoadHeaderProps {
  load: Load;
  excursionTolerance: number;
  /** When a load is stale or silent, as the board judges it. */
  thresholds: StalenessThresholds;
}

/** Who and where at a glance: ids, latest status, last ping, driver, temperature, stops, skipped items. */
export function LoadHeader({ load, excursionTolerance, thresholds }: LoadHeaderProps) {
  const now = useNow(10_000);
  const at = load.latestLocation;
  const lastPing = load.pings[load.pings.length - 1];
  const lastFix = at && (!lastPing || at.instant >= lastPing.instant) ? at : lastPing;
  const level = staleness(lastFix?.instant, now, thresholds);
  // As the board and the map say it: a finished load's quiet phone is no alarm (domain/attention.ts).
  const { finished, reasons } = attentionAt(load, level, excursionTolerance);
  const status = load.latestStatus ?? load.events[load.events.length - 1];
  const driver = currentDriver(load);
  const reading = latestReading(load);
  const phone = driver?.phone ? telHref(driver.phone) : undefined;

  return (
    <div>
      <dl className="grid grid-cols-[repeat(auto-fill,minmax(10.5rem,1fr))] gap-x-6 gap-y-2">
        <Field label="External id">{load.externalId ?? none}</Field>
        <Field label="Load number">{load.loadNumber ?? none}</Field>
        <Field label="LT external id">{load.ltExternalId ?? none}</Field>
        <Field label="Latest status">
          {status ? (
            <>
              {status.name ?? <em className="text-ink-muted">unnamed status</em>}
              {status.code && <span className="text-ink-muted"> ({status.code})</span>}
            </>
          ) : (
            <span className="text-ink-muted">no status yet</span>
          )}
        </Field>
        {/* Age, staleness, place and accuracy on one line, not wrapped in a column of their own. */}
        <Field label="Last ping" wide>
          {lastFix ? (
            <span>
              <strong className={finished ? 'text-ink-muted' : STALENESS_CLASS[level]}>
                {formatAge(now - lastFix.instant)}
              </strong>
              {(level === 'stale' || level === 'silent') && reasons.includes(level) && (
                <>
                  {' · '}
                  <span className={STALENESS_CLASS[level]}>{STALENESS_TEXT[level]}</span>
                </>
              )}
              {' · '}
              {(lastFix === at ? placeText(at.place) : undefined) ?? 'place unknown'}
              {' · '}
              {formatAccuracy(lastFix.accuracy)}
              <span className="block text-xs text-ink-muted">
                <ItemTimeText time={lastFix.time} instant={lastFix.instant} />
              </span>
            </span>
          ) : (
            <span className="text-ink-muted">no ping yet</span>
          )}
        </Field>
        <Field label="Driver">
          {driver ? (
            <>
              {driver.name ?? <span className="text-ink-muted">name unknown</span>}
              {driver.phone && (
                <>
                  {' · '}
                  {phone ? (
                    <a href={phone} className="whitespace-nowrap text-status-selected underline">
                      {driver.phone}
                    </a>
                  ) : (
                    driver.phone
                  )}
                </>
              )}
            </>
          ) : (
            <span className="text-ink-muted">unknown</span>
          )}
        </Field>
        {reading && (
          <Field label="Latest temperature">
            <span>
              Supply {formatTemperature(reading.supply, reading.unit)} · Return{' '}
              {formatTemperature(reading.return, reading.unit)} · Set{' '}
              {formatTemperature(reading.set, reading.unit)}
              {isExcursionReading(reading, excursionTolerance) && (
                <strong className="ml-1 text-status-silent">Excursion</strong>
              )}
            </span>
            <span className="block text-xs text-ink-muted">
              <ItemTimeText time={reading.time} instant={reading.instant} />
            </span>
          </Field>
        )}
      </dl>
      <SectionBoundary name="Stops">
        <Trip load={load} />
      </SectionBoundary>
      <div className="mt-3">
        <BehindNote issues={load.issues} />
        <SkippedItems issues={load.issues} />
      </div>
    </div>
  );
}
