import { useQuery } from '@tanstack/react-query';
import { ErrorBanner } from '../../components/error-banner';
import { configQuery } from '../../data/load-queries';
import { viewerTime } from '../../lib/time-format';
import { diagnosticsQueries } from './diagnostics-queries';
import { UpstreamStateSection } from './upstream-state-section';

const KIND_LABELS: Record<string, string> = {
  unknown_field: 'undocumented field (kept)',
  wrapped_item: 'item wrapped one level deeper (read from inside)',
  null_where_required: 'null where a value is required',
  missing: 'required field missing',
  wrong_type: 'wrong type',
  invalid_value: 'invalid value',
  missing_id: 'load without an id',
  bad_coordinate: 'coordinate not a number in range',
  bad_time: 'unreadable time',
  unknown_zone: 'unknown zone abbreviation',
  not_json: 'not JSON',
  too_large: 'one load’s answer larger than UPSTREAM_MAX_BYTES (not refreshed)',
  not_recorded: 'not recorded separately',
};

/**
 * `/diagnostics`: where the upstream's answers departed from its documented schema since the server
 * started, for whoever integrates the real service.
 */
export function DiagnosticsPage() {
  const report = useQuery(diagnosticsQueries.report());
  const config = useQuery(configQuery());
  return (
    <div className="h-full overflow-auto p-4">
      <h2 className="text-lg font-semibold">Diagnostics: how the tracking service departs from its schema</h2>
      <p className="mt-1 max-w-3xl text-sm text-ink-muted">
        Every answer is read leniently: a field that cannot be read is dropped and its item kept, an item that
        cannot be used without it is skipped, undocumented fields are kept. This table counts each departure
        by operation, JSON path and kind, so it can be raised with the service’s owners.
      </p>
      {config.data?.demo && (
        <p className="mt-2 max-w-3xl rounded border border-panel-line bg-panel p-2 text-sm">
          This is the demo: the embedded simulator departs from the schema on purpose where the real service
          is known to (undocumented <code>stops</code> on every load, for one), so what is listed here shows
          how such departures are read, not a fault of the demo.
        </p>
      )}
      {report.isError && <ErrorBanner error={report.error} onRetry={() => void report.refetch()} />}
      {report.isPending && <p className="mt-4 text-ink-muted">Loading…</p>}
      {report.data && (
        <>
          {report.data.upstream && <UpstreamStateSection state={report.data.upstream} />}
          <p className="mt-3 text-sm">
            {report.data.answersRead} {report.data.answersRead === 1 ? 'answer' : 'answers'} read since{' '}
            {viewerTime(Date.parse(report.data.since))}.
          </p>
          {report.data.entries.length === 0 ? (
            <p className="mt-4 rounded border border-panel-line bg-panel p-4">No departures seen so far.</p>
          ) : (
            <table className="mt-3 w-full border-collapse bg-panel text-sm">
              <thead>
                <tr className="border-b border-panel-line text-left">
                  <th scope="col" className="p-2">
                    Operation
                  </th>
                  <th scope="col" className="p-2">
                    Path
                  </th>
                  <th scope="col" className="p-2">
                    Kind
                  </th>
                  <th scope="col" className="p-2 text-right">
                    Count
                  </th>
                  <th scope="col" className="p-2">
                    Data
                  </th>
                  <th scope="col" className="p-2">
                    Example
                  </th>
                  <th scope="col" className="p-2">
                    Last seen
                  </th>
                </tr>
              </thead>
              <tbody>
                {report.data.entries.map((e) => (
                  <tr
                    key={`${e.operation}|${e.path}|${e.kind}|${e.keptItem ? 'kept' : ''}`}
                    className="border-b border-panel-line align-top"
                  >
                    <td className="p-2">{e.operation}</td>
                    <td className="p-2 font-mono text-xs">{e.path}</td>
                    <td className="p-2">{KIND_LABELS[e.kind] ?? e.kind}</td>
                    <td className="p-2 text-right tabular-nums">{e.count}</td>
                    <td className="p-2">{e.keptItem ? 'field dropped' : e.skipped ? 'skipped' : 'kept'}</td>
                    <td className="p-2 text-ink-muted">{e.example}</td>
                    <td className="p-2 whitespace-nowrap">{viewerTime(Date.parse(e.lastSeen))}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </div>
  );
}
