import type { DispatcherView } from './board-view';

const VIEWS: readonly [DispatcherView, string][] = [
  ['board', 'Board'],
  ['map', 'Map'],
];

/** On a phone, too narrow for both side by side: which of the board and the map fills the screen. */
export function ViewSwitch({
  view,
  onChange,
  className = '',
}: {
  view: DispatcherView;
  onChange: (view: DispatcherView) => void;
  className?: string;
}) {
  return (
    <div
      role="group"
      aria-label="Show"
      className={`flex gap-1 border-b border-panel-line bg-panel px-2 py-1 text-sm ${className}`}
    >
      {VIEWS.map(([value, label]) => (
        <button
          key={value}
          type="button"
          aria-pressed={view === value}
          onClick={() => onChange(value)}
          className={`flex-1 rounded border px-2 py-1 ${
            view === value
              ? 'border-status-selected bg-blue-100 font-semibold text-status-selected'
              : 'border-panel-line hover:bg-panel-sunk'
          }`}
        >
          {label}
        </button>
      ))}
    </div>
  );
}
