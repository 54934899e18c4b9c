import { useId } from 'react';
import {
  DEFAULT_FILTERS,
  hasDateRange,
  type FilterOption,
  type InboxFilters,
  type ReviewFilter,
} from './inbox-model';

export interface InboxFiltersBarProps {
  filters: InboxFilters;
  onChange: (filters: InboxFilters) => void;
  options: { types: FilterOption[]; loads: FilterOption[]; stops: FilterOption[] };
  /** Documents per review state, for the choices' labels. */
  counts: Record<ReviewFilter, number>;
  grouped: boolean;
  onGroupedChange: (grouped: boolean) => void;
  /** The documents with stop-check flags first; undefined when the checks are not offered (the role). */
  flagged?: boolean | undefined;
  onFlaggedChange?: ((flagged: boolean) => void) | undefined;
}

// A select's value: '*' for every one, else 'v' and the option's value (which may be '': no type, no stop).
const ANY = '*';
const encode = (value: string | undefined) => (value === undefined ? ANY : `v${value}`);
const decode = (value: string) => (value === ANY ? undefined : value.slice(1));

const field = 'flex flex-col gap-0.5 text-xs text-ink-muted';
const input = 'rounded border border-panel-line bg-panel px-1 py-0.5 text-sm text-ink';

function Choice({
  label,
  value,
  all,
  options,
  onChange,
}: {
  label: string;
  value: string | undefined;
  all: string;
  options: FilterOption[];
  onChange: (value: string | undefined) => void;
}) {
  const id = useId();
  // A chosen value that no document has any more stays choosable, so the filter never changes by itself.
  const shown =
    value !== undefined && !options.some((o) => o.value === value)
      ? [...options, { value, label: value || '(none)', count: 0 }]
      : options;
  return (
    <div className={field}>
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        className={input}
        value={encode(value)}
        onChange={(e) => onChange(decode(e.target.value))}
      >
        <option value={ANY}>{all}</option>
        {shown.map((o) => (
          <option key={o.value} value={encode(o.value)}>
            {o.label} ({o.count})
          </option>
        ))}
      </select>
    </div>
  );
}

const REVIEW_CHOICES: [ReviewFilter, string][] = [
  ['unreviewed', 'Not reviewed'],
  ['reviewed', 'Reviewed'],
  ['all', 'All'],
];

/** The inbox's filters: review state, type, load, stop, date range; grouping by load. */
export function InboxFiltersBar({
  filters,
  onChange,
  options,
  counts,
  grouped,
  onGroupedChange,
  flagged,
  onFlaggedChange,
}: InboxFiltersBarProps) {
  const fromId = useId();
  const toId = useId();
  const reviewName = useId();
  const set = (patch: Partial<InboxFilters>) => onChange({ ...filters, ...patch });
  const isDefault =
    filters.type === DEFAULT_FILTERS.type &&
    filters.load === DEFAULT_FILTERS.load &&
    filters.stop === DEFAULT_FILTERS.stop &&
    filters.from === DEFAULT_FILTERS.from &&
    filters.to === DEFAULT_FILTERS.to &&
    filters.review === DEFAULT_FILTERS.review;

  return (
    <div
      role="group"
      aria-label="Filters"
      className="flex flex-wrap items-end gap-x-4 gap-y-2 border-b border-panel-line bg-panel px-4 py-2"
    >
      <fieldset className="flex flex-col gap-0.5">
        <legend className="text-xs text-ink-muted">Show</legend>
        <div className="flex overflow-hidden rounded border border-panel-line text-sm">
          {REVIEW_CHOICES.map(([value, label]) => (
            <label
              key={value}
              className={`flex cursor-pointer items-center gap-1 px-2 py-0.5 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-status-selected ${
                filters.review === value
                  ? 'bg-status-selected text-white'
                  : 'bg-panel text-ink hover:bg-panel-sunk'
              }`}
            >
              <input
                type="radio"
                name={reviewName}
                value={value}
                checked={filters.review === value}
                onChange={() => set({ review: value })}
                className="sr-only"
              />
              {filters.review === value && <span aria-hidden="true">●</span>}
              {label} ({counts[value]})
            </label>
          ))}
        </div>
      </fieldset>
      <Choice
        label="Type"
        value={filters.type}
        all="All types"
        options={options.types}
        onChange={(type) => set({ type })}
      />
      <Choice
        label="Load"
        value={filters.load}
        all="All loads"
        options={options.loads}
        // Stops belong to a load: another load starts with every stop.
        onChange={(load) => set({ load, stop: undefined })}
      />
      <Choice
        label="Stop"
        value={filters.stop}
        all="All stops"
        options={options.stops}
        onChange={(stop) => set({ stop })}
      />
      <div className={field}>
        <label htmlFor={fromId}>From</label>
        <input
          id={fromId}
          type="date"
          className={input}
          value={filters.from}
          max={filters.to || undefined}
          onChange={(e) => set({ from: e.target.value })}
        />
      </div>
      <div className={field}>
        <label htmlFor={toId}>To</label>
        <input
          id={toId}
          type="date"
          className={input}
          value={filters.to}
          min={filters.from || undefined}
          onChange={(e) => set({ to: e.target.value })}
        />
      </div>
      <label className="flex items-center gap-1 self-center text-sm">
        <input type="checkbox" checked={grouped} onChange={(e) => onGroupedChange(e.target.checked)} />
        Group by load
      </label>
      {flagged !== undefined && onFlaggedChange && (
        <label className="flex items-center gap-1 self-center text-sm">
          <input type="checkbox" checked={flagged} onChange={(e) => onFlaggedChange(e.target.checked)} />
          Flagged first
        </label>
      )}
      <button
        type="button"
        className="rounded border border-panel-line px-2 py-0.5 text-sm hover:bg-panel-sunk disabled:opacity-50"
        disabled={isDefault}
        onClick={() => onChange(DEFAULT_FILTERS)}
      >
        Clear filters
      </button>
      {hasDateRange(filters) && (
        <p className="basis-full text-xs text-ink-muted">
          Dates are in your time zone; documents without a readable time are hidden while a date range is set.
        </p>
      )}
    </div>
  );
}
