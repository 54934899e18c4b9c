import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from 'wouter';
import {
  PAPERWORK_STATES,
  POD_FLAG_KINDS,
  type DeliveryStop,
  type PaperworkLoad,
  type PaperworkState,
  type PodCheck,
} from '@/contract/billing-api';
import { isFaultFlag } from '@/domain/pod-flags';
import { ErrorBanner } from '../../components/error-banner';
import { loadPageHref } from '../../lib/load-ref';
import { utcIso, viewerTime } from '../../lib/time-format';
import { billingQueries, readyPath, type DayRange } from '../../data/billing-queries';

const STATE_LABEL: Record<PaperworkState, string> = {
  'on-the-road': 'Not delivered yet',
  missing: 'POD missing',
  'to-review': 'To review',
  rejected: 'Rejected',
  complete: 'Complete',
};

const idText = (l: { externalId?: string | undefined; loadNumber?: string | undefined; id: string }) =>
  [l.externalId, l.loadNumber].filter(Boolean).join(' · ') || l.id;

function LoadLink({ load }: { load: Pick<PaperworkLoad, 'by' | 'id' | 'externalId' | 'loadNumber'> }) {
  return (
    <Link href={loadPageHref(load)} className="text-status-selected underline">
      {idText(load)}
    </Link>
  );
}

/**
 * A delivery stop, and whether the line is of a trip before the load's current one: its stop is
 * known only when that trip's stops were kept while it was current (the service sends the current
 * trip's alone).
 */
function stopText(stop: DeliveryStop | undefined, earlierTrip?: boolean): string {
  if (!stop) return earlierTrip ? 'earlier trip: stops not kept' : '';
  const place = [stop.city, stop.state].filter(Boolean).join(', ');
  const text = [stop.name ?? `Stop ${stop.order}`, place].filter(Boolean).join(' · ');
  return earlierTrip ? `${text} (earlier trip)` : text;
}

function When({ iso }: { iso: string }) {
  const at = Date.parse(iso);
  return (
    <time dateTime={iso} title={utcIso(at)}>
      {viewerTime(at)}
    </time>
  );
}

/** A table's header row, one column heading per name. */
function Head({ columns }: { columns: readonly string[] }) {
  return (
    <thead className="border-b border-panel-line text-ink-muted">
      <tr>
        {columns.map((name) => (
          <th key={name} scope="col" className="py-1 pr-3 font-medium">
            {name}
          </th>
        ))}
      </tr>
    </thead>
  );
}
const td = 'py-1 pr-3 align-top';
const section = 'rounded border border-panel-line bg-panel p-4';
const button = 'rounded border border-panel-line px-2 py-1 hover:bg-panel-sunk';

/** The rank of a check's worst flag: lower is worse; none last. */
const rankOf = (check: PodCheck) =>
  Math.min(POD_FLAG_KINDS.length, ...check.flags.map((f) => POD_FLAG_KINDS.indexOf(f.kind)));

type CheckSort = 'flag' | 'load' | 'uploaded';

/** The POD and BOL checks of every held load, one row per document. */
function PodChecks({ loads }: { loads: readonly PaperworkLoad[] }) {
  const [sort, setSort] = useState<CheckSort>('flag');
  const [flaggedOnly, setFlaggedOnly] = useState(true);
  const sortId = useId();
  const rows = loads
    .flatMap((load) => load.checks.map((check) => ({ load, check, rank: rankOf(check) })))
    .filter((r) => !flaggedOnly || r.check.flags.some(isFaultFlag));
  const byLoad = (a: (typeof rows)[number], b: (typeof rows)[number]) => a.load.ref.localeCompare(b.load.ref);
  rows.sort(
    sort === 'flag'
      ? (a, b) => a.rank - b.rank || byLoad(a, b)
      : sort === 'uploaded'
        ? (a, b) => (b.check.instant ?? -Infinity) - (a.check.instant ?? -Infinity) || byLoad(a, b)
        : byLoad,
  );
  return (
    <section aria-labelledby="pod-checks" className={section}>
      <h3 id="pod-checks" className="font-semibold">
        PODs and BOLs against their stops
      </h3>
      <p className="mt-1 text-sm text-ink-muted">
        Where each was taken (beyond the stop’s fence and the fix’s accuracy), when (against arrival and
        departure) and at what kind of stop.
      </p>
      <div className="mt-2 flex flex-wrap items-center gap-3 text-sm">
        <label htmlFor={sortId} className="font-medium">
          Sort by
        </label>
        <select
          id={sortId}
          value={sort}
          onChange={(e) => setSort(e.target.value as CheckSort)}
          className="rounded border border-panel-line bg-panel px-2 py-1"
        >
          <option value="flag">Worst flag first</option>
          <option value="load">Load</option>
          <option value="uploaded">Newest upload</option>
        </select>
        <label className="flex items-center gap-1">
          <input type="checkbox" checked={flaggedOnly} onChange={(e) => setFlaggedOnly(e.target.checked)} />
          Flagged only
        </label>
      </div>
      {rows.length === 0 ? (
        <p className="mt-2 text-sm">{flaggedOnly ? 'No POD or BOL is flagged.' : 'No POD or BOL yet.'}</p>
      ) : (
        <div className="mt-2 overflow-x-auto">
          <table className="w-full text-left text-sm">
            <Head columns={['Load', 'Document', 'Uploaded', 'Flags']} />
            <tbody>
              {rows.map(({ load, check }) => (
                <tr
                  key={check.url}
                  data-pod-check={check.url}
                  className="border-b border-panel-line last:border-0"
                >
                  <td className={td}>
                    <LoadLink load={load} />
                  </td>
                  <td className={td}>
                    <a href={check.url} target="_blank" rel="noopener noreferrer" className="underline">
                      {check.kind}
                    </a>
                    {check.stopOrder !== undefined && ` · stop ${check.stopOrder}`}
                  </td>
                  <td className={`${td} whitespace-nowrap`}>
                    {check.instant === null ? (
                      'unknown'
                    ) : (
                      <When iso={new Date(check.instant).toISOString()} />
                    )}
                  </td>
                  <td className={td}>
                    {check.flags.length === 0 ? (
                      <span className="text-ink-muted">no flag</span>
                    ) : (
                      <ul>
                        {check.flags.map((f) => (
                          <li
                            key={f.kind}
                            data-flag={f.kind}
                            className={isFaultFlag(f) ? 'text-status-silent' : 'text-ink-muted'}
                          >
                            {f.text}
                          </li>
                        ))}
                      </ul>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function ReadyToBill() {
  const [range, setRange] = useState<DayRange>({ from: '', to: '' });
  const ready = useQuery(billingQueries.ready(range));
  const fromId = useId();
  const toId = useId();
  const badRange = range.from !== '' && range.to !== '' && range.to < range.from;
  return (
    <section aria-labelledby="ready-to-bill" className={section}>
      <h3 id="ready-to-bill" className="font-semibold">
        Ready to bill
      </h3>
      <p className="mt-1 text-sm text-ink-muted">
        Deliveries with an approved POD, one line each, oldest first.
      </p>
      <div className="mt-2 flex flex-wrap items-center gap-3 text-sm">
        <label htmlFor={fromId} className="font-medium">
          Delivered from
        </label>
        <input
          id={fromId}
          type="date"
          value={range.from}
          onChange={(e) => setRange((r) => ({ ...r, from: e.target.value }))}
          className="rounded border border-panel-line bg-panel px-2 py-1"
        />
        <label htmlFor={toId} className="font-medium">
          to
        </label>
        <input
          id={toId}
          type="date"
          value={range.to}
          onChange={(e) => setRange((r) => ({ ...r, to: e.target.value }))}
          className="rounded border border-panel-line bg-panel px-2 py-1"
        />
        <span className="text-ink-muted">(days in UTC)</span>
        <a href={readyPath(range, 'csv')} download className={button}>
          Download CSV
        </a>
      </div>
      {ready.isError && !badRange && <ErrorBanner error={ready.error} onRetry={() => void ready.refetch()} />}
      {badRange ? (
        <p className="mt-2 text-sm text-status-silent">The end day is before the first.</p>
      ) : ready.isPending ? (
        <p className="mt-2 text-sm text-ink-muted">Reading…</p>
      ) : ready.data && ready.data.loads.length === 0 ? (
        <p className="mt-2 text-sm">
          No delivered load with an approved POD{range.from || range.to ? ' in these days' : ''}.
        </p>
      ) : ready.data ? (
        <div className="mt-2 overflow-x-auto">
          <table className="w-full text-left text-sm">
            <Head
              columns={[
                'Load',
                'Delivery stop',
                'Delivered (stop time)',
                'Delivered (UTC)',
                'POD',
                'Reviewed',
              ]}
            />
            <tbody>
              {ready.data.loads.map((l) => (
                <tr
                  key={`${l.ref} ${l.deliveredAt}`}
                  data-ready={l.ref}
                  className="border-b border-panel-line last:border-0"
                >
                  <td className={td}>
                    <LoadLink load={l} />
                  </td>
                  <td className={td}>{stopText(l.deliveryStop, l.earlierTrip)}</td>
                  <td className={`${td} whitespace-nowrap`}>
                    {l.deliveredAtStop
                      ? `${l.deliveredAtStop} ${l.stopZone ?? ''}`
                      : l.earlierTrip
                        ? '—'
                        : 'zone unknown'}
                  </td>
                  <td className={`${td} whitespace-nowrap`}>{l.deliveredAt.replace('.000Z', 'Z')}</td>
                  <td className={td}>
                    <a href={l.podUrl} target="_blank" rel="noopener noreferrer" className="underline">
                      open
                    </a>
                  </td>
                  <td className={td}>
                    {l.reviewedBy}, <When iso={l.reviewedAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}

function Overdue() {
  const overdue = useQuery(billingQueries.overdue());
  return (
    <section aria-labelledby="pod-overdue" className={section}>
      <h3 id="pod-overdue" className="font-semibold">
        POD overdue
      </h3>
      {overdue.data && (
        <p className="mt-1 text-sm text-ink-muted">
          Deliveries with no POD {overdue.data.dueHours} hours after delivery, the longest waiting first.
        </p>
      )}
      {overdue.isError && <ErrorBanner error={overdue.error} onRetry={() => void overdue.refetch()} />}
      {overdue.isPending ? (
        <p className="mt-2 text-sm text-ink-muted">Reading…</p>
      ) : overdue.data && overdue.data.loads.length === 0 ? (
        <p className="mt-2 text-sm">No POD is overdue.</p>
      ) : overdue.data ? (
        <ul className="mt-2 text-sm">
          {overdue.data.loads.map((l) => (
            <li
              key={`${l.ref} ${l.deliveredAt}`}
              data-overdue={l.ref}
              className="border-b border-panel-line py-1 last:border-0"
            >
              <LoadLink load={l} /> · {stopText(l.deliveryStop, l.earlierTrip)} · delivered{' '}
              <When iso={l.deliveredAt} />{' '}
              <span className="text-status-silent">({Math.floor(l.hoursSince)} h without POD)</span>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

/** `/billing`: paperwork state counts, overdue PODs, the loads ready to bill and the POD checks. */
export function BillingPage() {
  const paperwork = useQuery(billingQueries.paperwork());
  return (
    <div className="h-full overflow-y-auto">
      <div className="mx-auto flex max-w-6xl flex-col gap-4 p-4">
        <div>
          <h2 className="text-xl font-semibold tracking-tight">Billing</h2>
          <p className="mt-1 text-sm text-ink-muted">
            Paperwork of the loads Haulview holds: those watched on a board or in the documents inbox since it
            started{paperwork.data ? ` (${paperwork.data.held} now)` : ''}. The states count trips: a load
            dispatched again under the same ids counts its earlier deliveries too.
          </p>
        </div>
        {paperwork.isError && (
          <ErrorBanner error={paperwork.error} onRetry={() => void paperwork.refetch()} />
        )}
        <section aria-label="Paperwork state" className="grid grid-cols-2 gap-2 sm:grid-cols-5">
          {PAPERWORK_STATES.map((state) => (
            <div key={state} data-state={state} className={`${section} p-3`}>
              <div className="text-2xl font-semibold tabular-nums">
                {paperwork.data?.counts[state] ?? '–'}
              </div>
              <div className="text-sm text-ink-muted">{STATE_LABEL[state]}</div>
            </div>
          ))}
        </section>
        <Overdue />
        <ReadyToBill />
        {paperwork.data && <PodChecks loads={paperwork.data.loads} />}
      </div>
    </div>
  );
}
